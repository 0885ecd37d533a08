package io.columnarkafka.flink.source;

import io.columnarkafka.testkit.KafkaBroker;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/** Fills source topics and reads their offsets, for the source's integration tests. */
final class SourceTopics {
    private SourceTopics() {}

    /** Sends the records and waits until every one is acknowledged. */
    static void produce(KafkaBroker broker, List<ProducerRecord<byte[], byte[]>> records) {
        produce(broker, records, "none");
    }

    /** Sends the records in batches compressed by {@code compressionType} and waits for every acknowledgement. */
    static void produce(KafkaBroker broker, List<ProducerRecord<byte[], byte[]>> records, String compressionType) {
        broker.produce(records, Map.of("linger.ms", "5", "compression.type", compressionType));
    }

    /** The offsets {@code groupId} has committed, by partition. */
    static Map<TopicPartition, Long> committedOffsets(KafkaBroker broker, String groupId) throws Exception {
        try (Admin admin = broker.createAdmin()) {
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, Long> offsets = new HashMap<>();
            committed.forEach((tp, offset) -> {
                if (offset != null) {
                    offsets.put(tp, offset.offset());
                }
            });
            return offsets;
        }
    }

    /** A condition polled by {@link #await}. */
    interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code condition} every 100 ms until it holds; fails after {@code timeout}. */
    static void await(Condition condition, Duration timeout, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + timeout);
            }
            Thread.sleep(100);
        }
    }
}
