package io.columnarkafka.flink.source;

import io.columnarkafka.testkit.KafkaBroker;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Fills source topics and reads their offsets, for the source's integration tests. */
final class SourceTopics {
    private SourceTopics() {}

    /** Sends the records and waits until every one is acknowledged. */
    static void produce(KafkaBroker broker, List<ProducerRecord<byte[], byte[]>> records) {
        produce(broker, records, "none");
    }

    /** Sends the records in batches compressed by {@code compressionType} and waits for every acknowledgement. */
    static void produce(KafkaBroker broker, List<ProducerRecord<byte[], byte[]>> records, String compressionType) {
        Properties properties = broker.clientProperties();
        properties.put("linger.ms", "5");
        properties.put("compression.type", compressionType);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ProducerRecord<byte[], byte[]> record : records) {
                producer.send(record);
            }
            producer.flush();
        }
    }

    /** The end offset of every partition of {@code topic}. */
    static Map<TopicPartition, Long> endOffsets(KafkaBroker broker, String topic, int partitions) throws Exception {
        try (Admin admin = broker.createAdmin()) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            return admin.listOffsets(latest).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        }
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
