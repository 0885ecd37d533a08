package io.columnarkafka.client;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.Producer;

/**
 * Picks the partition the sink sets on a record, or none (null) to leave the choice to the producer's
 * partitioner: Kafka's default (murmur2 of the key bytes; sticky batches for null keys) or the configured
 * custom class. {@code round-robin} and {@code fixed} need the topic's partition count, asked once per topic.
 */
final class PartitionChooser {
    private final SinkSettings.PartitionerKind kind;
    private final int writerIndex;
    private final Map<String, Integer> partitionCounts = new HashMap<>();
    private int next;

    PartitionChooser(SinkSettings settings) {
        this.kind = settings.partitioner;
        this.writerIndex = settings.writerIndex;
    }

    /** True if every record is left to the producer's partitioner. */
    boolean leavesToProducer() {
        return kind == SinkSettings.PartitionerKind.DEFAULT || kind == SinkSettings.PartitionerKind.CUSTOM;
    }

    Integer partition(String topic, Producer<byte[], byte[]> producer) {
        switch (kind) {
            case ROUND_ROBIN:
                int count = partitionCount(topic, producer);
                int partition = next % count;
                next = partition + 1;
                return partition;
            case FIXED:
                return writerIndex % partitionCount(topic, producer);
            default:
                return null;
        }
    }

    private int partitionCount(String topic, Producer<byte[], byte[]> producer) {
        return partitionCounts.computeIfAbsent(topic, t -> producer.partitionsFor(t).size());
    }
}
