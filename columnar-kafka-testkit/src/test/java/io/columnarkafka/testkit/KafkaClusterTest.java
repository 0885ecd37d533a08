package io.columnarkafka.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;

import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three KRaft nodes: topics are replicated 3 times, the leader of a partition killed with SIGKILL is replaced by a
 * follower, transactions keep committing with one node down (min.insync.replicas=2), and the killed node rejoins on
 * the same ports and data. Part of the fault tests ({@code -Pfaults}): three broker JVMs take a while to start.
 */
@Tag("faults")
class KafkaClusterTest {

    @Test
    void aKilledLeaderIsReplacedAndRejoinsOnItsData() {
        try (KafkaCluster cluster = KafkaCluster.start()) {
            assertThat(cluster.admin().nodes()).hasSize(3);
            cluster.createTopic("replicated", 2);
            TopicDescription description = cluster.admin().describeTopic("replicated");
            assertThat(description.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
            BrokerRestartTest.commit(cluster.bootstrapServers(), "replicated", 0, 100);

            int leader = cluster.admin().leaderOf("replicated", 0);
            BrokerProcess killed = cluster.broker(leader);
            int port = killed.port();
            killed.kill();
            assertThat(killed.isRunning()).isFalse();
            BrokerRestartTest.commit(cluster.bootstrapServers(), "replicated", 100, 100);
            assertThat(cluster.admin().leaderOf("replicated", 0)).isNotEqualTo(leader);

            killed.start();
            assertThat(killed.port()).isEqualTo(port);
            cluster.admin().awaitInSyncReplicas("replicated", 3, Duration.ofSeconds(60));
            TopicReport report = TopicVerifier.forTopic(cluster.bootstrapServers(), "replicated")
                    .verifyIds(0, 200, value -> ByteBuffer.wrap(value).getLong());
            assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        }
    }
}
