package io.columnarkafka.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Properties;
import java.util.stream.LongStream;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A single broker stopped, or killed with SIGKILL, and started again keeps its ports and its committed data. Part of
 * the fault tests ({@code -Pfaults}): a controlled shutdown and two restarts take most of a minute on a loaded machine.
 */
@Tag("faults")
class BrokerRestartTest {

    @Test
    void committedRecordsSurviveAStopAndAKillOnTheSamePorts() {
        try (KafkaBroker broker = KafkaBroker.start()) {
            broker.createTopic("restart", 2);
            int port = broker.port();
            long firstPid = broker.process().pid();
            commit(broker.bootstrapServers(), "restart", 0, 100);

            try (OutputTimeline timeline = TopicVerifier.forTopic(broker, "restart").startTimeline()) {
                assertThat(timeline.awaitCommitted(100, Duration.ofSeconds(10))).isTrue();
                OutputTimeline.Fault stop = timeline.fault("broker stopped");
                broker.brokerProcess().stop();
                assertThat(broker.isRunning()).isFalse();
                assertThat(broker.dataDir()).isDirectory();
                broker.brokerProcess().start();
                stop.end();
                assertThat(broker.port()).isEqualTo(port);
                assertThat(broker.process().pid()).isNotEqualTo(firstPid);
                commit(broker.bootstrapServers(), "restart", 100, 100);
                assertThat(timeline.awaitRecovery(stop, Duration.ofSeconds(30))).as(timeline.describe()).isPresent();
            }

            broker.brokerProcess().kill();
            assertThat(broker.isRunning()).isFalse();
            broker.brokerProcess().start();
            commit(broker.bootstrapServers(), "restart", 200, 100);

            TopicReport report = TopicVerifier.forTopic(broker, "restart")
                    .verifyIds(0, 300, value -> ByteBuffer.wrap(value).getLong());
            assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        }
    }

    /** Commits ids {@code first .. first + count - 1} in one transaction. */
    static void commit(String bootstrapServers, String topic, long first, int count) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "restart-test-" + first);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            producer.beginTransaction();
            LongStream.range(first, first + count).forEach(id -> producer.send(
                    new ProducerRecord<>(topic, ByteBuffer.allocate(8).putLong(id).array())));
            producer.commitTransaction();
        }
    }
}
