package io.columnarkafka.client;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.header.Header;

/**
 * The largest record a Kafka producer accepts, checked per encoded batch before any record of it is sent: by
 * the Flink sinks before a record reaches {@code KafkaSink}'s writer, by {@link ArrowKafkaSink} before its first
 * {@code send()} of the batch. Flink-free (kafka-clients only), so both use it.
 *
 * <p>Why: a record the producer rejects in {@code send()} puts a transactional producer into an abortable
 * error, and the producer's late callbacks for the batches it then aborts re-arm Flink's {@code KafkaWriter}
 * async exception, which {@code KafkaWriter.close()} throws from the failing task's clean-up: Flink treats that
 * as fatal and stops the TaskManager (docs/faults.md). Without Flink, the records of the batch before the bad one
 * would already be sent. The encoders know every record's size before the producer sees it, so the batch fails
 * here instead, with an error naming the row, and nothing of it is sent.
 *
 * <p>The size is what kafka-clients 4.2's {@code KafkaProducer} checks in {@code ensureValidRecordSize}: {@code
 * AbstractRecords.estimateSizeInBytesUpperBound} with the current magic (v2; the producer passes it whatever the
 * {@code compression.type}, so compression does not change it), that is a record batch's header (61 bytes), a
 * record's largest fixed overhead (21 bytes), then the key, the value and the headers, each length as a zigzag
 * varint. A record is accepted while that size is at most {@code max.request.size} and at most {@code
 * buffer.memory}, both parsed as the producer parses them, with the producer's defaults.
 *
 * <p>Cheap per batch: when the batch's key and value bytes together, plus the largest overhead, are within the
 * limit, no record can be over it; else a record's bound from its two lengths decides, and only a record near
 * the limit gets the exact size.
 */
public final class RecordSizeLimit implements Serializable {
    private static final long serialVersionUID = 1L;

    /** {@code DefaultRecordBatch.RECORD_BATCH_OVERHEAD}: the header of the batch a record travels in. */
    private static final int RECORD_BATCH_OVERHEAD = 61;
    /** {@code DefaultRecord.MAX_RECORD_OVERHEAD}: length, attributes, timestamp and offset deltas at their largest. */
    private static final int MAX_RECORD_OVERHEAD = 21;
    private static final int MAX_VARINT_BYTES = 5;
    /** Every byte of the estimate apart from the key and value bytes, for a record without headers. */
    private static final int MAX_OVERHEAD_WITHOUT_HEADERS =
            RECORD_BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + 2 * MAX_VARINT_BYTES + 1;

    private final int limit;
    private final String property;

    private RecordSizeLimit(int limit, String property) {
        this.limit = limit;
        this.property = property;
    }

    /**
     * The limit of a producer configured with {@code producerProperties} (the properties the sink hands to
     * {@code KafkaSink} or to its {@code KafkaProducer}): the smaller of {@code max.request.size} and {@code
     * buffer.memory}.
     *
     * @throws org.apache.kafka.common.config.ConfigException for a value the producer would not parse
     */
    public static RecordSizeLimit of(Properties producerProperties) {
        Map<String, Object> defaults = ProducerConfig.configDef().defaultValues();
        int maxRequestSize = (Integer) parse(producerProperties, defaults, ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                ConfigDef.Type.INT);
        long bufferMemory = (Long) parse(producerProperties, defaults, ProducerConfig.BUFFER_MEMORY_CONFIG,
                ConfigDef.Type.LONG);
        return bufferMemory < maxRequestSize
                ? new RecordSizeLimit((int) bufferMemory, ProducerConfig.BUFFER_MEMORY_CONFIG)
                : new RecordSizeLimit(maxRequestSize, ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
    }

    private static Object parse(Properties properties, Map<String, Object> defaults, String name, ConfigDef.Type type) {
        Object value = properties.get(name);
        return value == null ? defaults.get(name) : ConfigDef.parseType(name, value, type);
    }

    /** The largest accepted size, in bytes of Kafka's estimate. */
    public int limit() {
        return limit;
    }

    /** The producer property that sets {@link #limit()}. */
    public String property() {
        return property;
    }

    /**
     * Kafka's upper bound of a record's size as its producer checks it.
     *
     * @param keyLength the key's length, negative for a null key
     * @param valueLength the value's length, negative for a null value
     * @param headers the record's headers, null or empty for none
     */
    public static int upperBound(int keyLength, int valueLength, List<Header> headers) {
        long size = RECORD_BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + field(keyLength) + field(valueLength);
        int count = headers == null ? 0 : headers.size();
        size += varintSize(count);
        for (int i = 0; i < count; i++) {
            Header header = headers.get(i);
            size += field(utf8Length(header.key()));
            size += field(header.value() == null ? -1 : header.value().length);
        }
        return (int) Math.min(size, Integer.MAX_VALUE);
    }

    /**
     * Fails if a record of an encoded batch is over the limit, naming the first such record; returns if none is.
     *
     * @param count the batch's records
     * @param keyAndValueBytes the batch's key and value bytes together (the slabs' sizes)
     * @param keyLength record index to its key's length, negative for a null key
     * @param valueLength record index to its value's length, negative for a null value
     * @param headers record index to its headers, or null when no record has headers
     * @param where record index to where the record comes from, e.g. {@code "topic 'x', row 7 of the batch"}
     * @throws OversizedRecordException naming the record, its size, the limit and the property to raise
     */
    public void check(int count, long keyAndValueBytes, IntUnaryOperator keyLength, IntUnaryOperator valueLength,
            IntFunction<List<Header>> headers, IntFunction<String> where) {
        if (headers == null && keyAndValueBytes + MAX_OVERHEAD_WITHOUT_HEADERS <= limit) {
            return;
        }
        for (int i = 0; i < count; i++) {
            int key = keyLength.applyAsInt(i);
            int value = valueLength.applyAsInt(i);
            List<Header> recordHeaders = headers == null ? null : headers.apply(i);
            long bound = (long) Math.max(key, 0) + Math.max(value, 0) + MAX_OVERHEAD_WITHOUT_HEADERS
                    + headersBound(recordHeaders);
            if (bound <= limit) {
                continue;
            }
            int size = upperBound(key, value, recordHeaders);
            if (size > limit) {
                throw new OversizedRecordException(where.apply(i) + ": the Kafka record is " + size
                        + " bytes as Kafka's producer counts it (key " + describe(key) + ", value " + describe(value)
                        + (recordHeaders == null || recordHeaders.isEmpty() ? "" : ", " + recordHeaders.size()
                                + " headers")
                        + "), more than the producer's limit of " + limit + " bytes (" + property + "); the batch"
                        + " failed before any of its records was sent. Raise the producer property '" + property
                        + "' (the broker's message.max.bytes or the topic's max.message.bytes must admit the"
                        + " record too) or write smaller rows");
            }
        }
    }

    /** At least the bytes a record's headers add to its estimate, computed without encoding their keys. */
    private static long headersBound(List<Header> headers) {
        if (headers == null) {
            return 0;
        }
        long bound = MAX_VARINT_BYTES;
        for (Header header : headers) {
            bound += 2 * MAX_VARINT_BYTES + 4L * header.key().length()
                    + (header.value() == null ? 0 : header.value().length);
        }
        return bound;
    }

    /**
     * A header key's length as Kafka's {@code Utils.utf8Length} counts it for the estimate: a high surrogate
     * counts 4 bytes and skips the next char, paired or not.
     */
    private static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x7F) {
                bytes += 1;
            } else if (c <= 0x7FF) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    private static String describe(int length) {
        return length < 0 ? "null" : length + " bytes";
    }

    /** A length field of the record format: a zigzag varint of the length, then the bytes; -1 for null. */
    private static long field(int length) {
        return length < 0 ? varintSize(-1) : (long) varintSize(length) + length;
    }

    /** Bytes of a zigzag-encoded varint of {@code value}, as Kafka's {@code ByteUtils.sizeOfVarint}. */
    private static int varintSize(int value) {
        int zigzag = (value << 1) ^ (value >> 31);
        int bytes = 1;
        while ((zigzag & 0xFFFFFF80) != 0) {
            bytes++;
            zigzag >>>= 7;
        }
        return bytes;
    }

    @Override
    public String toString() {
        return limit + " bytes (" + property + ")";
    }
}
