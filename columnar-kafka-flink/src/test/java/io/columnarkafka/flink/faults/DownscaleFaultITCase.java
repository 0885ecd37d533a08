package io.columnarkafka.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.faults.FaultJobs.SinkUnderTest;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.testkit.OutputTimeline;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.TransactionInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Downscale 3 → 1 with {@code POOLING} transactional ids, the scenario of FLINK-40626: the sink runs at parallelism 3
 * into a 3-partition topic and stops while rows flow, either with a savepoint or cancelled while transactions are
 * open ({@link Stop}), and the job is restored from the savepoint or the last retained checkpoint at parallelism 1.
 * A transaction of subtask 1 or 2 left open across the restore would hold the last stable offset of its partitions
 * (so every {@code read_committed} consumer) until {@code transaction.timeout.ms} (60 s) aborts it. The test measures,
 * from the restored job's submission, when each partition's last stable offset reaches the log end offset seen at the
 * restore (nothing open from before is holding it) and when the committed output first advances, and asserts both
 * within 20 s, well under the transaction timeout; then every row once {@code read_committed} and no transaction left
 * open. The columnar sink and stock Flink's {@code KafkaSink} run the same scenario; each result goes to
 * {@code target/fault-results.md}.
 */
@Tag("faults")
class DownscaleFaultITCase {
    private static final Duration STALL_BOUND = Duration.ofSeconds(20);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(3);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    /** How the job at parallelism 3 ends before the restore at parallelism 1. */
    enum Stop {
        /** Stop-with-savepoint: the savepoint's transactions are committed, nothing stays open. */
        SAVEPOINT,
        /**
         * Cancelled while its transactions are open (checked), then restored from the last retained checkpoint: the
         * transactions of subtasks 1 and 2, which no longer exist, must be committed or aborted by subtask 0.
         */
        CANCEL_WITH_OPEN_TRANSACTIONS
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"COLUMNAR, SAVEPOINT", "STOCK, SAVEPOINT", "COLUMNAR, CANCEL_WITH_OPEN_TRANSACTIONS",
                "STOCK, CANCEL_WITH_OPEN_TRANSACTIONS"})
    void downscalingFrom3To1WithPoolingKeepsTheLastStableOffsetAdvancing(SinkUnderTest sink, Stop stop,
                                                                        @TempDir Path dir) throws Exception {
        String servers = KAFKA.broker().bootstrapServers();
        String topic = "downscale-" + sink.name().toLowerCase() + "-" + stop.name().toLowerCase().replace('_', '-');
        String prefix = topic + "-tx";
        KAFKA.broker().createTopic(topic, 3);
        int batches = 900;
        int rows = 20;
        Path checkpoints = dir.resolve("checkpoints");

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers));
                OutputTimeline timeline = TopicVerifier.forTopic(servers, topic).startTimeline()) {
            JobClient first = job(sink, 3, batches, rows, topic, prefix, checkpoints)
                    .executeAsync("downscale, before: " + sink + " " + stop);
            assertThat(timeline.awaitCommitted(3_000, Duration.ofSeconds(120))).as("output at parallelism 3").isTrue();
            String restorePath;
            if (stop == Stop.SAVEPOINT) {
                restorePath = first.stopWithSavepoint(false, dir.resolve("savepoints").toUri().toString(),
                        SavepointFormatType.CANONICAL).get(2, TimeUnit.MINUTES);
            } else {
                awaitOpenTransactions(servers, prefix);
                first.cancel().get(2, TimeUnit.MINUTES);
                restorePath = lastCheckpoint(checkpoints.resolve(first.getJobID().toString()));
            }
            List<TransactionInfo> openAfterStop = TopicVerifier.openTransactions(servers, prefix);
            Map<TopicPartition, Long> endAtRestore = offsets(admin, topic, IsolationLevel.READ_UNCOMMITTED);
            Map<TopicPartition, Long> stableAtRestore = offsets(admin, topic, IsolationLevel.READ_COMMITTED);

            StreamExecutionEnvironment env = job(sink, 1, batches, rows, topic, prefix, checkpoints);
            StreamGraph graph = env.getStreamGraph();
            graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(restorePath, false));
            OutputTimeline.Fault restore = timeline.fault("restored at parallelism 1");
            long restoredAt = System.nanoTime();
            JobClient second = env.executeAsync(graph);
            Map<TopicPartition, Long> clearedMillis = awaitStableOffsetsReach(admin, topic, endAtRestore, restoredAt,
                    Duration.ofSeconds(90));
            timeline.awaitRecovery(restore, Duration.ofSeconds(90));
            second.getJobExecutionResult().get(5, TimeUnit.MINUTES);

            TopicReport report = TopicVerifier.forTopic(servers, topic)
                    .awaitStableOffsets(Duration.ofSeconds(30))
                    .verifyIds(0, batches * rows, TestRows::idOf);
            long longestHold = clearedMillis.values().stream().mapToLong(Long::longValue).max().orElse(-1);
            String outcome = String.format(
                    "open after the stop: %s; log end / last stable offsets at restore: %s / %s;"
                            + " restore -> partition's last stable offset reached the log end at restore (ms): %s",
                    openAfterStop, endAtRestore, stableAtRestore, clearedMillis);
            record(sink, stop, report, timeline, restore, longestHold, outcome);

            assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
            assertThat(TopicVerifier.awaitNoOpenTransactions(servers, prefix, Duration.ofSeconds(30)))
                    .as("no transaction left open").isEmpty();
            assertThat(clearedMillis).as(outcome).hasSize(3)
                    .allSatisfy((partition, millis) -> assertThat(millis).as(partition + ": " + outcome)
                            .isBetween(0L, STALL_BOUND.toMillis()));
            assertThat(timeline.recovery(restore)).as("committed output advances after the restore: %s",
                    timeline.describe()).get().matches(d -> d.compareTo(STALL_BOUND) < 0, "under " + STALL_BOUND);
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /**
     * Polls each partition's last stable offset until it reaches {@code target} (the log end offset at the restore);
     * the milliseconds from {@code sinceNanos} at which each did, {@code -1} for a partition that did not within
     * {@code timeout}.
     */
    private static Map<TopicPartition, Long> awaitStableOffsetsReach(Admin admin, String topic,
                                                                     Map<TopicPartition, Long> target,
                                                                     long sinceNanos, Duration timeout)
            throws Exception {
        Map<TopicPartition, Long> reached = new TreeMap<>((a, b) -> Integer.compare(a.partition(), b.partition()));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (reached.size() < target.size() && System.nanoTime() < deadline) {
            Map<TopicPartition, Long> stable = offsets(admin, topic, IsolationLevel.READ_COMMITTED);
            long now = System.nanoTime();
            stable.forEach((partition, offset) -> {
                if (!reached.containsKey(partition) && offset >= target.get(partition)) {
                    reached.put(partition, TimeUnit.NANOSECONDS.toMillis(now - sinceNanos));
                }
            });
            FaultJobs.sleep(Duration.ofMillis(100));
        }
        target.keySet().forEach(partition -> reached.putIfAbsent(partition, -1L));
        return reached;
    }

    /** The latest offset of each partition of {@code topic}: the last stable offset under READ_COMMITTED. */
    private static Map<TopicPartition, Long> offsets(Admin admin, String topic, IsolationLevel isolation)
            throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < 3; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> offsets = new TreeMap<>((a, b) -> Integer.compare(a.partition(), b.partition()));
        admin.listOffsets(request, new ListOffsetsOptions(isolation)).all().get(10, TimeUnit.SECONDS)
                .forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    /** Waits until the sink has a transaction open (rows written since the last checkpoint). */
    private static void awaitOpenTransactions(String servers, String prefix) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (TopicVerifier.openTransactions(servers, prefix).isEmpty()) {
            assertThat(System.nanoTime()).as("a transaction of %s open within 30 s", prefix).isLessThan(deadline);
            FaultJobs.sleep(Duration.ofMillis(20));
        }
    }

    /** The newest completed checkpoint ({@code chk-N} with its {@code _metadata}) in a job's checkpoint directory. */
    private static String lastCheckpoint(Path jobCheckpoints) throws IOException {
        try (Stream<Path> children = Files.list(jobCheckpoints)) {
            return children
                    .filter(p -> p.getFileName().toString().startsWith("chk-")
                            && Files.exists(p.resolve("_metadata")))
                    .max(Comparator.comparingLong(p -> Long.parseLong(p.getFileName().toString().substring(4))))
                    .orElseThrow(() -> new AssertionError("no retained checkpoint in " + jobCheckpoints))
                    .toUri().toString();
        }
    }

    /**
     * The job at {@code parallelism} (source, rows and sink), EXACTLY_ONCE with POOLING ids, 500 ms checkpoints
     * kept in {@code checkpoints} when the job is cancelled.
     */
    private static StreamExecutionEnvironment job(SinkUnderTest sink, int parallelism, int batches, int rows,
                                                  String topic, String prefix, Path checkpoints) {
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        Configuration conf = new Configuration();
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        env.configure(conf);
        env.setParallelism(parallelism);
        env.enableCheckpointing(500);
        String servers = KAFKA.broker().bootstrapServers();
        DataStream<Long> indexes = SinkJobs.batchIndexes(env, batches, 30, parallelism, "src");
        switch (sink) {
            case COLUMNAR -> SinkJobs.exactlyOnceJsonSink(servers, topic, prefix, TransactionNamingStrategy.POOLING)
                    .setParallelism(parallelism)
                    .setUidPrefix("sink")
                    .build()
                    .sinkTo(SinkJobs.batches(indexes, rows, "rows"));
            case STOCK -> indexes
                    .flatMap(new FaultJobs.RowsOfBatch(rows), InternalTypeInfo.of(TestRows.ROW_TYPE))
                    .setParallelism(parallelism)
                    .uid("rows")
                    .sinkTo(FaultJobs.stockSink(servers, topic, DeliveryGuarantee.EXACTLY_ONCE, prefix,
                            TransactionNamingStrategy.POOLING))
                    .setParallelism(parallelism)
                    .uid("sink-kafka-sink");
        }
        return env;
    }

    /** Appends the result row (longest hold of a partition's last stable offset in the last column) and prints it. */
    private static void record(SinkUnderTest sink, Stop stop, TopicReport report, OutputTimeline timeline,
                               OutputTimeline.Fault restore, long longestHold, String outcome) {
        String row = String.format("| downscale 3 -> 1, POOLING, %s | %s | EXACTLY_ONCE | %d | %d | %d"
                        + " | %s | - | %d |%n", stop == Stop.SAVEPOINT ? "stop-with-savepoint" : "cancelled with open"
                        + " transactions, restored from the last checkpoint", sink, report.expectedCount(), report.missingCount(),
                report.duplicateCount(),
                timeline.recovery(restore).map(d -> Long.toString(d.toMillis())).orElse("never"), longestHold);
        System.out.println(row + outcome + "\n" + timeline.describe());
        FaultJobs.appendResult(row);
    }
}
