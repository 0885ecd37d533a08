package org.apache.flink.streaming.connectors.kafka.table;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Test access to Flink's own metadata converters ({@code KafkaDynamicSource.ReadableMetadata}, package-private
 * in flink-connector-kafka 5.0), the oracle of the columnar source's metadata columns.
 */
public final class FlinkReadableMetadata {
    private FlinkReadableMetadata() {}

    /** What Flink's Kafka table source reads as metadata {@code key} of {@code record} (internal data). */
    public static Object read(String key, ConsumerRecord<?, ?> record) {
        for (KafkaDynamicSource.ReadableMetadata m : KafkaDynamicSource.ReadableMetadata.values()) {
            if (m.key.equals(key)) {
                return m.converter.read(record);
            }
        }
        throw new IllegalArgumentException("no readable metadata " + key);
    }
}
