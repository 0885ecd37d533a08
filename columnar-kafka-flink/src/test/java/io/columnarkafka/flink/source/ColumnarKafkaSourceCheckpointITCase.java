package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.flink.testing.FailOnceWhileCheckpointInFlight;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The source's offsets through checkpoints: committed to Kafka when checkpoints complete; exactly once
 * into an EXACTLY_ONCE columnar sink across a task failure with a checkpoint in flight; cancel frees every
 * Arrow allocation.
 */
class ColumnarKafkaSourceCheckpointITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(4);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final int PARTITIONS = 2;

    private static List<byte[]> fill(String topic, int perPartition) {
        KAFKA.broker().createTopic(topic, PARTITIONS);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < perPartition; i++) {
            for (int p = 0; p < PARTITIONS; p++) {
                byte[] value = ("r" + p + "-" + i + (i % 9 == 0 ? " \u00e9\uD83D\uDE00" : "")).getBytes(StandardCharsets.UTF_8);
                values.add(value);
                records.add(new ProducerRecord<>(topic, p, null, value));
            }
        }
        SourceTopics.produce(KAFKA.broker(), records);
        return values;
    }

    private static ColumnarKafkaSource.Builder rawStrings(String topic) {
        return ColumnarKafkaSource.builder()
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setTopics(topic)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setRowType("ROW<v STRING>")
                .setValueFormat("raw", Map.of());
    }

    @Test
    void offsetsAreCommittedWhenCheckpointsCompleteAndCancelFreesArrowMemory() throws Exception {
        String topic = "commit-offsets";
        String group = "commit-offsets-group";
        fill(topic, 2_000);
        Map<TopicPartition, Long> ends = KAFKA.broker().admin().endOffsets(topic);

        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.enableCheckpointing(200);
        env.fromSource(rawStrings(topic).setGroupId(group).setMaxBatchRows(64).build(),
                        WatermarkStrategy.noWatermarks(), "unbounded")
                .setParallelism(2)
                .map(new CloseBatch())
                .setParallelism(2)
                .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>())
                .setParallelism(2);
        JobClient client = env.executeAsync("commit offsets");

        SourceTopics.await(() -> SourceTopics.committedOffsets(KAFKA.broker(), group).equals(ends),
                Duration.ofSeconds(90), "committed offsets reach the end offsets " + ends);
        assertThat(ArrowMemory.openAllocators()).as("source readers are running").isPositive();

        client.cancel().get();
        SourceTopics.await(() -> client.getJobStatus().get() == JobStatus.CANCELED, Duration.ofSeconds(60), "cancelled");
        SourceTopics.await(() -> ArrowMemory.allocatedBytes() == 0 && ArrowMemory.openAllocators() == 0,
                Duration.ofSeconds(20), "Arrow memory freed after cancel: " + ArrowMemory.describe());
    }

    @Test
    void everyRecordIsWrittenExactlyOnceAcrossAFailureWithACheckpointInFlight() throws Exception {
        String input = "eo-source-in";
        String output = "eo-source-out";
        // 2 x 4000 records in batches of at most 20 read at ~50 batches/s per subtask: 4 s or more, room for
        // three checkpoints before the failure even on a loaded machine. The throttle is chained to the source, so
        // its 20 ms per batch exceed the 5 ms time target and the readers cut the batches they take to the
        // floor of 16 records: checkpoints fall between batches cut on the task thread.
        List<byte[]> values = fill(input, 4_000);
        KAFKA.broker().createTopic(output, PARTITIONS);
        FailOnceWhileCheckpointInFlight.reset();

        StreamExecutionEnvironment env = SinkJobs.environment(3);
        env.enableCheckpointing(250);
        DataStream<ArrowBatch> batches = env.fromSource(
                        rawStrings(input).setGroupId("eo-source").setBounded(OffsetsInitializer.latest())
                                .setMaxBatchRows(20).setMaxBatchTime(Duration.ofMillis(5)).build(),
                        WatermarkStrategy.noWatermarks(), "columnar source")
                .setParallelism(2)
                .uid("source")
                .map(new Throttle(20))
                .returns(ArrowBatchTypeInfo.INSTANCE)
                .setParallelism(2)
                .map(new FailOnceWhileCheckpointInFlight<ArrowBatch>(3))
                .returns(ArrowBatchTypeInfo.INSTANCE)
                .setParallelism(2)
                .uid("fail-once");
        ColumnarKafkaSink.builder()
                .setRowType("ROW<v STRING>")
                .setValueFormat("raw", Map.of())
                .setTopic(output)
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix("eo-source")
                .setTransactionNamingStrategy(TransactionNamingStrategy.POOLING)
                .setProperty("transaction.timeout.ms", "60000")
                .setParallelism(2)
                .setUidPrefix("sink")
                .build()
                .sinkTo(batches);

        env.execute("source exactly once");

        assertThat(FailOnceWhileCheckpointInFlight.failed()).as("the failure was injected").isTrue();
        TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), output).verify(values);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        TopicReport uncommitted = TopicVerifier.forTopic(KAFKA.broker(), output).readUncommitted().read();
        assertThat(uncommitted.totalRecords()).as("the failed attempt's records were aborted")
                .isGreaterThan(committed.totalRecords());
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /** Closes each batch (a consumer that keeps nothing). */
    private static final class CloseBatch implements MapFunction<ArrowBatch, Integer> {
        @Override
        public Integer map(ArrowBatch batch) {
            try (batch) {
                return batch.open(null).getRowCount();
            }
        }
    }
}
