package io.columnarkafka.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.faults.FaultJobs.SinkUnderTest;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.BrokerProcess;
import io.columnarkafka.testkit.KafkaCluster;
import io.columnarkafka.testkit.OutputTimeline;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.time.Duration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A 3-node KRaft cluster (replication factor 3, {@code min.insync.replicas=2}); under EXACTLY_ONCE the leader of the
 * output topic's partition 0 is killed with SIGKILL while the job writes, and stays down until the job has finished
 * (then it rejoins on its data). Every row once {@code read_committed}, no transaction left open; the recovery time
 * (kill to the first committed output after it) of the columnar sink and of stock Flink's {@code KafkaSink} is
 * recorded in {@code target/fault-results.md}.
 */
@Tag("faults")
class LeaderKillFaultITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(2);

    private static KafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = KafkaCluster.start();
    }

    @AfterAll
    static void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest
    @EnumSource(SinkUnderTest.class)
    void killingThePartitionLeaderKeepsExactlyOnce(SinkUnderTest sink) throws Exception {
        String topic = "leader-kill-" + sink.name().toLowerCase();
        cluster.createTopic(topic, 2);
        int batches = 750;
        int rows = 40;

        JobClient job = FaultJobs.job(sink, DeliveryGuarantee.EXACTLY_ONCE, cluster.bootstrapServers(), topic,
                        batches, rows, 25)
                .executeAsync("leader kill " + sink);
        TopicReport report;
        try {
            report = FaultJobs.runWithFault(job, cluster.bootstrapServers(), topic, (long) batches * rows,
                    "kill -9 partition leader (3 nodes)", sink, DeliveryGuarantee.EXACTLY_ONCE, timeline -> {
                        BrokerProcess leader = cluster.broker(cluster.admin().leaderOf(topic, 0));
                        OutputTimeline.Fault kill =
                                timeline.fault("kill -9 leader of partition 0 (node " + leader.nodeId() + ")");
                        leader.kill();
                        return kill;
                    }, cluster::logTails);
            assertThat(cluster.brokers().stream().filter(b -> !b.isRunning()).map(BrokerProcess::nodeId).toList())
                    .as("the killed leader").hasSize(1)
                    .doesNotContain(cluster.admin().leaderOf(topic, 0));
        } finally {
            cluster.brokers().stream().filter(b -> !b.isRunning()).forEach(BrokerProcess::start);
        }
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        assertThat(TopicVerifier.awaitNoOpenTransactions(cluster.bootstrapServers(), topic, Duration.ofSeconds(30)))
                .as("no transaction left open").isEmpty();
        cluster.admin().awaitInSyncReplicas(topic, 3, Duration.ofSeconds(90));
        assertThat(ArrowMemory.allocatedBytes()).isZero();
    }
}
