package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.BatchOfRows;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sink on a real broker and a real MiniCluster: values byte-identical to Flink's own JSON
 * serializer, keys, metrics, Arrow memory after cancel, and bad input.
 */
class ColumnarKafkaSinkITCase {
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            SinkJobs.miniCluster(4, REPORTER.addToConfiguration(new Configuration()));

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static ColumnarKafkaSink.Builder sink(String topic, DeliveryGuarantee guarantee) {
        return ColumnarKafkaSink.builder()
                .setRowType(TestRows.ROW_TYPE_STRING)
                .setValueFormat("json", Map.of())
                .setTopic(topic)
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setDeliveryGuarantee(guarantee)
                .setProperty("transaction.timeout.ms", "60000");
    }

    @Test
    void noneDeliversEveryRowInFlinksJsonBytesAcrossANetworkShuffle() throws Exception {
        String topic = "none-values";
        KAFKA.broker().createTopic(topic, 3);
        int batches = 40;
        int rows = 50;
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        // Batches built at parallelism 1 and encoded at parallelism 2: they cross the network in IPC form.
        DataStream<ArrowBatch> input = SinkJobs.batches(SinkJobs.batchIndexes(env, batches, 0, 1, "src"), rows, "rows");
        sink(topic, DeliveryGuarantee.NONE).setParallelism(2).setUidPrefix("none").build().sinkTo(input);

        JobID job = env.execute("none").getJobID();

        TopicReport report = TopicVerifier.forTopic(KAFKA.broker(), topic).verify(SinkJobs.expectedJson(batches * rows));
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        assertMetrics(job, batches, (long) batches * rows);
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void atLeastOnceDeliversEveryRowWithFlinksJsonKeyAndValue() throws Exception {
        String topic = "alo-keyed";
        KAFKA.broker().createTopic(topic, 2);
        int batches = 30;
        int rows = 40;
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.enableCheckpointing(200);
        DataStream<ArrowBatch> input = SinkJobs.batches(SinkJobs.batchIndexes(env, batches, 0, 2, "src"), rows, "rows");
        sink(topic, DeliveryGuarantee.AT_LEAST_ONCE)
                .setKeyFields("id")
                .setKeyFormat("json", Map.of())
                .setParallelism(2)
                .build()
                .sinkTo(input);

        env.execute("at-least-once");

        TopicReport report = TopicVerifier.forTopic(KAFKA.broker(), topic)
                .keepRecords(true)
                .verify(SinkJobs.expectedJson(batches * rows));
        assertThat(report.missingCount()).as(report.verdict()).isZero();
        assertThat(report.unexpectedCount()).as(report.verdict()).isZero();
        JsonRowDataSerializationSchema keyJson = TestRows.flinkJson(RowTypes.parse("ROW<id BIGINT NOT NULL>"));
        for (TopicRecord record : report.records()) {
            long id = TestRows.idOf(record.value());
            assertThat(record.key()).isEqualTo(keyJson.serialize(GenericRowData.of(id)));
        }
    }

    @Test
    void cancellingARunningJobFreesEveryArrowAllocation() throws Exception {
        String topic = "cancelled";
        KAFKA.broker().createTopic(topic, 1);
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.enableCheckpointing(200);
        // Half the batches are built at parallelism 1 and shuffled (wire form), half chained (live form).
        DataStream<ArrowBatch> shuffled =
                SinkJobs.batches(SinkJobs.batchIndexes(env, 1_000_000, 40, 1, "src-1"), 100, "rows-1");
        sink(topic, DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix("cancelled")
                .setParallelism(2)
                .setUidPrefix("shuffled")
                .build()
                .sinkTo(shuffled);
        DataStream<ArrowBatch> chained =
                SinkJobs.batches(SinkJobs.batchIndexes(env, 1_000_000, 40, 2, "src-2"), 100, "rows-2");
        sink(topic, DeliveryGuarantee.AT_LEAST_ONCE).setParallelism(2).setUidPrefix("chained").build().sinkTo(chained);

        JobClient client = env.executeAsync("cancel");
        waitFor(() -> TopicVerifier.forTopic(KAFKA.broker(), topic).readUncommitted().read().totalRecords() > 2_000,
                Duration.ofSeconds(60));
        assertThat(ArrowMemory.openAllocators()).as("encode operators are running").isPositive();

        client.cancel().get();
        waitFor(() -> client.getJobStatus().get() == JobStatus.CANCELED, Duration.ofSeconds(60));
        long cancelledAt = System.nanoTime();
        String atCancel = ArrowMemory.describe();
        // The job reports CANCELED when its tasks have ended; give their cleanup a moment to finish.
        waitFor(() -> ArrowMemory.allocatedBytes() == 0 && ArrowMemory.openAllocators() == 0
                || System.nanoTime() - cancelledAt > 10_000_000_000L, Duration.ofSeconds(20));

        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe() + "; at CANCELED: " + atCancel).isZero();
        assertThat(ArrowMemory.openAllocators()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void aBatchThatDoesNotFitTheRowTypeFailsTheJobNamingTheColumnAndNothingUncommittedIsVisible()
            throws Exception {
        String topic = "bad-input";
        KAFKA.broker().createTopic(topic, 1);
        int rows = 20;
        long badBatch = 30;
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.enableCheckpointing(300);
        DataStream<ArrowBatch> input = SinkJobs.batchIndexes(env, 100, 20, 1, "src")
                .flatMap(new BadBatchAt(badBatch, rows))
                .returns(ArrowBatchTypeInfo.INSTANCE)
                .setParallelism(1);
        sink(topic, DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix("bad-input")
                .setParallelism(1)
                .build()
                .sinkTo(input);

        assertThatThrownBy(() -> env.execute("bad input"))
                .satisfies(e -> {
                    Optional<BatchLayoutException> cause =
                            ExceptionUtils.findThrowable(e, BatchLayoutException.class);
                    assertThat(cause).as(ExceptionUtils.stringifyException(e)).isPresent();
                    assertThat(cause.get().column()).isEqualTo("price");
                    assertThat(cause.get()).hasMessageContaining("'price'").hasMessageContaining("Utf8");
                });

        // Committed checkpoints cover a prefix of whole batches; the rows sent after the last completed
        // checkpoint (up to the bad batch) were written in a transaction that never commits.
        SinkJobs.assertOnlyWholeBatchesCommitted(KAFKA.broker(), topic, rows, badBatch * rows);
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /**
     * Good batches; at index {@code bad}, the good batch and then one whose {@code price} column is a string.
     * Both come from one call, so no checkpoint barrier falls between them: the good rows of that call are
     * always in the transaction that never commits, whenever the last checkpoint completed.
     */
    private static final class BadBatchAt implements FlatMapFunction<Long, ArrowBatch> {
        private static final long serialVersionUID = 1L;
        private final long bad;
        private final BatchOfRows good;
        private final int rows;

        BadBatchAt(long bad, int rows) {
            this.bad = bad;
            this.rows = rows;
            this.good = new BatchOfRows(rows);
        }

        @Override
        public void flatMap(Long index, Collector<ArrowBatch> out) {
            good.build(index).emitTo(out);
            if (index == bad) {
                badBatch().emitTo(out);
            }
        }

        private ArrowBatch badBatch() {
            BufferAllocator allocator = ArrowMemory.newChild("bad-batch", 1 << 20);
            VectorSchemaRoot root = VectorSchemaRoot.create(
                    ArrowLayout.schema(RowTypes.parse(
                            "ROW<id BIGINT NOT NULL, name STRING, price STRING, ok BOOLEAN, ts TIMESTAMP(3)>")),
                    allocator);
            root.allocateNew();
            root.setRowCount(rows);
            return ArrowBatch.of(root, allocator);
        }
    }

    private static void assertMetrics(JobID job, long batches, long rows) {
        Map<String, Metric> metrics = REPORTER.findMetrics(job, "Columnar encode");
        assertThat(sum(metrics, EncodeMetrics.BATCHES)).isEqualTo(batches);
        assertThat(sum(metrics, EncodeMetrics.ROWS)).isEqualTo(rows);
        assertThat(sum(metrics, EncodeMetrics.VALUE_BYTES)).isPositive();
        assertThat(sum(metrics, EncodeMetrics.KEY_BYTES)).isZero();
        assertThat(sum(metrics, EncodeMetrics.ENCODE_TIME_NANOS)).isPositive();
        assertThat(sum(metrics, EncodeMetrics.DRAIN_TIME_NANOS)).isPositive();
        long capacity = metrics.entrySet().stream()
                .filter(e -> e.getKey().endsWith("." + EncodeMetrics.BUFFER_CAPACITY))
                .mapToLong(e -> ((Number) ((Gauge<?>) e.getValue()).getValue()).longValue())
                .sum();
        assertThat(capacity).isPositive();
    }

    private static long sum(Map<String, Metric> metrics, String name) {
        List<Long> counts = metrics.entrySet().stream()
                .filter(e -> e.getKey().endsWith("." + name))
                .map(e -> ((Counter) e.getValue()).getCount())
                .toList();
        assertThat(counts).as("metric " + name + " in " + metrics.keySet()).isNotEmpty();
        return counts.stream().mapToLong(Long::longValue).sum();
    }

    interface Condition {
        boolean holds() throws Exception;
    }

    static void waitFor(Condition condition, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout);
            }
            Thread.sleep(100);
        }
    }
}
