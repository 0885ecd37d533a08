package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.examples.EvenAuctionBids;
import io.columnarkafka.flink.record.PreSerializedRecordTypeInfo;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.flink.testing.FailOnceWhileCheckpointInFlight;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka to Kafka with no RowData: {@link ColumnarKafkaSource} (Nexmark bids as Flink JSON) → {@link
 * EvenAuctionBids} on the Arrow vectors → {@link ColumnarKafkaSink}, EXACTLY_ONCE. The job graph carries
 * only Arrow batches and pre-serialized records; the output equals what the same query in stock Flink
 * SQL (Flink's {@code kafka} connector and {@code json} format) writes; a failure with a checkpoint in
 * flight keeps every result exactly once; so does a restore from a savepoint with the source rescaled
 * 2 → 3 and 3 → 1, after which the restored bounded job finishes.
 */
class PipelineWithoutRowDataITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(3);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final String INPUT = "bids-in";
    private static final int PARTITIONS = 3;
    private static final int BIDS = 6_000;

    /** What stock Flink SQL writes for the query: the expected output values. */
    private static List<byte[]> expected;

    @BeforeAll
    static void fillInputAndRunStockFlinkSql() throws Exception {
        BidTopics.fill(KAFKA.broker(), INPUT, PARTITIONS, BIDS);
        String output = "bids-stock-sql";
        KAFKA.broker().createTopic(output, 1);
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sql.executeSql("CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
                + " `dateTime` TIMESTAMP(3), extra STRING) WITH ('connector' = 'kafka', 'topic' = '" + INPUT + "',"
                + " 'properties.bootstrap.servers' = '" + KAFKA.broker().bootstrapServers() + "',"
                + " 'properties.group.id' = 'stock-sql', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')");
        sql.executeSql("CREATE TABLE bid_result (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING,"
                + " `dateTime` TIMESTAMP(3)) WITH ('connector' = 'kafka', 'topic' = '" + output + "',"
                + " 'properties.bootstrap.servers' = '" + KAFKA.broker().bootstrapServers() + "', 'format' = 'json')");
        sql.executeSql("INSERT INTO bid_result " + EvenAuctionBids.SQL).await();
        expected = new ArrayList<>();
        for (TopicRecord record : TopicVerifier.forTopic(KAFKA.broker(), output).keepRecords(true).read().records()) {
            expected.add(record.value());
        }
        Set<String> distinct = new HashSet<>();
        expected.forEach(value -> distinct.add(new String(value, java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(expected).as("stock SQL keeps part of the bids").hasSizeBetween(BIDS / 10, BIDS - 1);
        assertThat(distinct).as("every expected value is unique, so exactly-once is checkable").hasSize(expected.size());
    }

    private static ColumnarKafkaSource<ArrowBatch> source(String group) {
        return ColumnarKafkaSource.builder()
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setTopics(INPUT)
                .setGroupId(group)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setRowType(EvenAuctionBids.INPUT_TYPE)
                .setValueFormat("json", Map.of())
                .setMaxBatchRows(50)
                .build();
    }

    /** Source → (throttle) → (failure) → columnar operator → columnar sink, with stable uids. */
    private static DataStreamSink<?> pipeline(
            StreamExecutionEnvironment env, String output, String prefix, long throttleMillis, boolean failOnce) {
        DataStream<ArrowBatch> bids = env.fromSource(source(prefix), WatermarkStrategy.noWatermarks(), "bids")
                .uid("bids-source");
        if (throttleMillis > 0) {
            bids = bids.map(new Throttle(throttleMillis)).returns(ArrowBatchTypeInfo.INSTANCE).uid("throttle");
        }
        if (failOnce) {
            bids = bids.map(new FailOnceWhileCheckpointInFlight<ArrowBatch>(3))
                    .returns(ArrowBatchTypeInfo.INSTANCE)
                    .uid("fail-once");
        }
        DataStream<ArrowBatch> even = bids.flatMap(new EvenAuctionBids(), ArrowBatchTypeInfo.INSTANCE)
                .uid("even-auctions")
                .name("EvenAuctionBids");
        return ColumnarKafkaSink.builder()
                .setRowType(EvenAuctionBids.OUTPUT_TYPE)
                .setValueFormat("json", Map.of())
                .setTopic(output)
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(prefix)
                .setTransactionNamingStrategy(TransactionNamingStrategy.POOLING)
                .setProperty("transaction.timeout.ms", "60000")
                .setUidPrefix("sink")
                .build()
                .sinkTo(even);
    }

    @Test
    void theJobGraphCarriesNoRowDataAndTheOutputEqualsStockFlinkSql() throws Exception {
        String output = "bids-columnar";
        KAFKA.broker().createTopic(output, 2);
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.setParallelism(2);
        env.enableCheckpointing(300);
        DataStreamSink<?> sink = pipeline(env, output, "no-rowdata", 0, false);

        Set<Class<?>> elementTypes = new HashSet<>();
        for (Transformation<?> t : sink.getTransformation().getTransitivePredecessors()) {
            if (t != sink.getTransformation()) {
                elementTypes.add(t.getOutputType().getClass());
            }
        }
        assertThat(elementTypes).containsExactlyInAnyOrder(ArrowBatchTypeInfo.class, PreSerializedRecordTypeInfo.class);
        StreamGraph graph = env.getStreamGraph(false);
        GraphSerializers.assertNoRowData(graph, "bids");

        env.execute(graph);

        TopicReport report = TopicVerifier.forTopic(KAFKA.broker(), output).verify(expected);
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void everyResultIsCommittedExactlyOnceAcrossAFailureWithACheckpointInFlight() throws Exception {
        String output = "bids-failover";
        KAFKA.broker().createTopic(output, 2);
        FailOnceWhileCheckpointInFlight.reset();
        StreamExecutionEnvironment env = SinkJobs.environment(3);
        env.setParallelism(2);
        env.enableCheckpointing(250);
        // 6000 bids in batches of 50 over 2 subtasks at 25 ms a batch: about 1.5 s a subtask per pass,
        // several checkpoints.
        pipeline(env, output, "pipeline-failover", 25, true);

        env.execute("pipeline failover");

        assertThat(FailOnceWhileCheckpointInFlight.failed()).as("the failure was injected").isTrue();
        TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), output).verify(expected);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    @Timeout(300)
    void aRestoreFromASavepointWithTheSourceRescaledFromTwoToThreeKeepsEveryResultExactlyOnce(
            @TempDir Path savepoints) throws Exception {
        restoreRescaled(2, 3, "bids-rescaled-up", "pipeline-rescale-up", savepoints);
    }

    @Test
    @Timeout(300)
    void aRestoreFromASavepointWithTheSourceRescaledFromThreeToOneKeepsEveryResultExactlyOnce(
            @TempDir Path savepoints) throws Exception {
        restoreRescaled(3, 1, "bids-rescaled-down", "pipeline-rescale-down", savepoints);
    }

    /**
     * Runs the pipeline at {@code from} subtasks, stops it with a savepoint part-way, restores it at
     * {@code to} subtasks and lets the bounded job finish: every result committed exactly once, and the
     * source's group committed offsets, none past its partition's end.
     */
    private static void restoreRescaled(int from, int to, String output, String prefix, Path savepoints)
            throws Exception {
        KAFKA.broker().createTopic(output, 3);
        StreamExecutionEnvironment first = SinkJobs.environment(0);
        first.setParallelism(from);
        first.enableCheckpointing(300);
        // 500 ms a batch of 50: a subtask takes 20 s or more for its 2000 bids, so none has finished (which
        // would fail the savepoint) by the time a loaded machine has seen the first results and stops it.
        pipeline(first, output, prefix, 500, false);
        JobClient running = first.executeAsync("pipeline at parallelism " + from);
        SourceTopics.await(() -> TopicVerifier.forTopic(KAFKA.broker(), output).read().totalRecords() >= 100,
                Duration.ofSeconds(90), "the first run commits some results");
        // A commit is best-effort, as in Flink's KafkaSourceReader: the first ones can fail while the broker
        // creates its offsets topic (this test may be the first to commit), and the savepoint's own commit
        // is lost when the tasks stop. So stop only once a checkpoint's offsets have reached Kafka.
        SourceTopics.await(() -> !SourceTopics.committedOffsets(KAFKA.broker(), prefix).isEmpty(),
                Duration.ofSeconds(90), "the first run commits source offsets on a completed checkpoint");
        String savepoint = running.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get();
        long atSavepoint = TopicVerifier.forTopic(KAFKA.broker(), output).read().totalRecords();
        assertThat(atSavepoint).as("the first run stopped part-way").isLessThan(expected.size());

        StreamExecutionEnvironment second = SinkJobs.environment(0);
        second.setParallelism(to);
        second.enableCheckpointing(300);
        pipeline(second, output, prefix, 0, false);
        StreamGraph graph = second.getStreamGraph();
        graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(savepoint, false));
        second.execute(graph);

        TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), output).verify(expected);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        // Offsets are committed when checkpoints complete, never ahead of emitted data. The commit of the
        // final checkpoint, after the bounded job's readers finished, is best-effort, as in Flink's
        // KafkaSourceReader (the fetcher it runs on is closed with the task), so a partition may stay one
        // checkpoint behind its end.
        Map<TopicPartition, Long> ends = KAFKA.broker().admin().endOffsets(INPUT);
        Map<TopicPartition, Long> offsets = SourceTopics.committedOffsets(KAFKA.broker(), prefix);
        assertThat(offsets).as("committed offsets").isNotEmpty();
        assertThat(ends).as("committed offsets").containsKeys(offsets.keySet().toArray(new TopicPartition[0]));
        offsets.forEach((partition, offset) ->
                assertThat(offset).as("committed offset of %s", partition).isBetween(1L, ends.get(partition)));
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }
}
