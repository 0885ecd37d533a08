package io.columnarkafka.testkit;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;

/**
 * One record read by {@link TopicVerifier} when records are kept ({@link TopicVerifier#keepRecords(boolean)}).
 * The arrays are the consumer's own, not copies; {@code equals} compares them by identity, as records do.
 *
 * @param partition     partition of the topic
 * @param offset        offset within the partition
 * @param timestamp     the record timestamp (epoch millis)
 * @param timestampType whether the timestamp is the producer's (CreateTime) or the broker's (LogAppendTime)
 * @param key           key bytes, or null
 * @param value         value bytes, or null (a tombstone)
 * @param headers       headers in the order they were written
 */
public record TopicRecord(int partition, long offset, long timestamp, TimestampType timestampType,
                          byte[] key, byte[] value, List<Header> headers) {

    /** The value of the last header named {@code name}, or null if there is none. */
    public byte[] lastHeader(String name) {
        byte[] found = null;
        for (Header header : headers) {
            if (header.key().equals(name)) {
                found = header.value();
            }
        }
        return found;
    }

    /** The key decoded as UTF-8, or null. */
    public String keyAsString() {
        return key == null ? null : new String(key, StandardCharsets.UTF_8);
    }

    /** The value decoded as UTF-8, or null. */
    public String valueAsString() {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "TopicRecord[p" + partition + "@" + offset + ", ts " + timestamp + ", key "
                + (key == null ? "null" : key.length + " B") + ", value "
                + (value == null ? "null" : value.length + " B") + ", " + headers.size() + " headers]";
    }
}
