package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkTopic;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nexmark q1 fully columnar (scan, calc, sink on Arrow, no RowData), EXACTLY_ONCE with 200 ms checkpoints: the
 * task manager is killed once a checkpoint has committed part of the input (so a transaction is open and more
 * checkpoints are in flight), a new one starts, and the job restarts from the last checkpoint. Read back
 * read_committed, the output is byte for byte stock Flink's run without a failure: every record exactly once,
 * in order, no transaction left open. A fault test (tag {@code faults}, about 2.5 minutes): it runs with
 * {@code -Pfaults}, not in the default run.
 */
@Tag("faults")
class NexmarkQ1FailoverITCase {
    private static final int PARALLELISM = 2;
    private static final long EVENTS = 60_000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(PARALLELISM);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @Test
    void q1ExactlyOnceAcrossATaskManagerFailure(@InjectMiniCluster MiniCluster cluster) throws Exception {
        KAFKA.broker().createTopic("q1_events", PARALLELISM);
        NexmarkTopic.fill(KAFKA.broker().bootstrapServers(), "q1_events", PARALLELISM,
                new NexmarkGenerator(NexmarkConfig.defaults(11)), EVENTS);
        NexmarkRuns runs = new NexmarkRuns(KAFKA.broker(), "q1_events");
        String q1 = NexmarkRuns.resource("q1.sql");
        List<String> expected = runs.records(runs.run("q1", q1, false, false, PARALLELISM).topic());

        NexmarkRuns.Started columnar = runs.start("q1", q1, true, false, PARALLELISM, SinkJobs.environment(3), 200, false);
        assertThat(columnar.explain()).contains("ColumnarScan(").contains("ColumnarCalc(").contains("ColumnarSink(")
                .doesNotContain("ArrowToRows(");
        long committedAtFailure = failOnceSomeInputIsCommitted(cluster, columnar.groupId());
        columnar.job().await();
        ArrowMemoryChecks.assertReleased();

        assertThat(committedAtFailure).as("the failure came mid-run").isPositive().isLessThan(EVENTS);
        assertThat(runs.records(columnar.topic())).as("q1 after a failure vs stock, %d records", expected.size())
                .isEqualTo(expected);
        assertThat(TopicVerifier.forTopic(KAFKA.broker(), columnar.topic()).read().partitionsWithOpenTransactions())
                .isEmpty();
    }

    /** Kills the task manager once the source committed offsets of a checkpoint, starts another; the offsets then. */
    private static long failOnceSomeInputIsCommitted(MiniCluster cluster, String groupId) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                KAFKA.broker().bootstrapServers()))) {
            while (System.nanoTime() < deadline) {
                long committed = 0;
                for (OffsetAndMetadata offset : admin.listConsumerGroupOffsets(groupId)
                        .partitionsToOffsetAndMetadata().get().values()) {
                    committed += offset == null ? 0 : offset.offset();
                }
                if (committed > 0) {
                    cluster.terminateTaskManager(0).get();
                    cluster.startTaskManager();
                    return committed;
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("no checkpoint committed input within 120 s");
    }
}
