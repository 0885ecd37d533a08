package io.columnarkafka.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.time.Duration;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowKafkaSink} under EXACTLY_ONCE while its only broker restarts on the same ports and data: in the
 * middle of an epoch's writes, and between an epoch's pre-commit and its commit. The producer's own retries
 * (idempotent, within {@code delivery.timeout.ms}) carry the writes across the restart, so the caller sees no
 * error; read_committed shows every epoch exactly once and no transaction stays open. A fault test ({@code
 * -Pfaults}): two broker restarts take most of a minute.
 */
@Tag("faults")
class BrokerRestartEpochITCase {
    private static final int ROWS = 100;

    @Test
    void epochsSurviveABrokerRestartMidEpochAndBetweenPreCommitAndCommit() throws Exception {
        try (KafkaBroker broker = KafkaBroker.start(); BufferAllocator allocator = new RootAllocator()) {
            String topic = "restart-epochs";
            String prefix = "restart-epochs-writer";
            broker.createTopic(topic, 2);
            ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.ROW_TYPE, ArrowKafkaSinkConfig.builder()
                    .topic(topic).bootstrapServers(broker.bootstrapServers())
                    .valueFormat("json", Map.of())
                    .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).transactionalIdPrefix(prefix)
                    .producerProperty("transaction.timeout.ms", "120000")
                    .build(), SinkListener.NONE);
            sink.open();

            sink.beginEpoch(0);
            write(sink, allocator, 0);
            sink.commitEpoch(sink.preCommit(0));

            // Epoch 1: half its rows sent, the broker stops, then the other half while it is down.
            sink.beginEpoch(1);
            write(sink, allocator, ROWS);
            sink.flush(Duration.ofSeconds(30));
            broker.brokerProcess().stop();
            write(sink, allocator, 2 * ROWS);
            broker.brokerProcess().start();
            EpochDescriptor one = sink.preCommit(1);
            assertThat(one.records()).isEqualTo(2 * ROWS);
            sink.commitEpoch(one);

            // Epoch 2: prepared, then the broker is killed (SIGKILL) and restarted before the commit.
            sink.beginEpoch(2);
            write(sink, allocator, 3 * ROWS);
            EpochDescriptor two = sink.preCommit(2);
            broker.brokerProcess().kill();
            broker.brokerProcess().start();
            sink.commitEpoch(two);
            sink.close();

            TopicReport report = TopicVerifier.forTopic(broker, topic).verifyIds(0, 4 * ROWS, IdBatches::idOf);
            assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
            assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), prefix, Duration.ofSeconds(30)))
                    .isEmpty();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static void write(ArrowKafkaSink sink, BufferAllocator allocator, long firstId) {
        try (VectorSchemaRoot batch = IdBatches.batch(allocator, firstId, ROWS)) {
            sink.writeBatch(batch);
        }
    }
}
