package io.columnarkafka.flink.record;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * One Kafka record whose key and value are already serialized: exactly what {@code KafkaSink} is to
 * send, handed over by {@link PreSerializedRecordSerializationSchema} unchanged.
 *
 * <p>Immutable. The key and value arrays are taken, not copied (the encoder copies each record out of
 * its slab once, and that copy is the one the producer keeps); nobody may modify them afterwards.
 */
@TypeInfo(PreSerializedRecordTypeInfo.Factory.class)
public final class PreSerializedRecord {
    private final String topic;
    private final Integer partition;
    private final Long timestamp;
    private final byte[] key;
    private final byte[] value;
    private final List<Header> headers;

    /**
     * @param topic the topic, never null
     * @param partition the partition, or null to let Kafka's partitioner decide
     * @param timestamp the record timestamp in epoch millis, or null for the producer's time
     * @param key the key bytes, or null for no key
     * @param value the value bytes, or null for a tombstone
     * @param headers the headers, in order (copied into an unmodifiable list)
     */
    public PreSerializedRecord(
            String topic, Integer partition, Long timestamp, byte[] key, byte[] value, List<Header> headers) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.partition = partition;
        this.timestamp = timestamp;
        this.key = key;
        this.value = value;
        this.headers = headers.isEmpty() ? List.of() : List.copyOf(headers);
    }

    /** A record with no partition, timestamp or headers, as Flink's Kafka table sink writes by default. */
    public static PreSerializedRecord of(String topic, byte[] key, byte[] value) {
        return new PreSerializedRecord(topic, null, null, key, value, List.of());
    }

    public String topic() {
        return topic;
    }

    public Integer partition() {
        return partition;
    }

    public Long timestamp() {
        return timestamp;
    }

    public byte[] key() {
        return key;
    }

    public byte[] value() {
        return value;
    }

    public List<Header> headers() {
        return headers;
    }

    /** The producer record for this record, sharing its arrays. */
    public ProducerRecord<byte[], byte[]> toProducerRecord() {
        return toProducerRecord(partition);
    }

    /** The producer record for this record in {@code partition} (e.g. a partitioner's choice), sharing its arrays. */
    public ProducerRecord<byte[], byte[]> toProducerRecord(Integer partition) {
        // Null headers, as Flink's own serializer passes them, spare the producer a header list per record.
        return new ProducerRecord<>(topic, partition, timestamp, key, value, headers.isEmpty() ? null : headers);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PreSerializedRecord r
                && topic.equals(r.topic)
                && Objects.equals(partition, r.partition)
                && Objects.equals(timestamp, r.timestamp)
                && Arrays.equals(key, r.key)
                && Arrays.equals(value, r.value)
                && headers.equals(r.headers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, timestamp, Arrays.hashCode(key), Arrays.hashCode(value), headers);
    }

    @Override
    public String toString() {
        return "PreSerializedRecord[topic=" + topic + ", partition=" + partition + ", timestamp=" + timestamp
                + ", key=" + (key == null ? "null" : key.length + " bytes")
                + ", value=" + (value == null ? "null" : value.length + " bytes")
                + ", headers=" + headers.size() + "]";
    }
}
