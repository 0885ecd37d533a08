package io.columnarkafka.flink.record;

import io.columnarkafka.client.OversizedRecordException;
import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.format.RecordSlab;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.kafka.common.header.Header;

/**
 * The Kafka records of one encoded batch as one stream element: the key and value bytes as one slab each
 * (the encoder's output copied in one piece) with per-record offsets, and per record what the format
 * columns do not carry (topic, timestamp, headers). It crosses a network channel as a few bulk copies
 * instead of a topic string and two byte arrays per record; {@link #record(int)} makes the per-record
 * {@code byte[]}s Kafka's producer needs, right in front of the {@code KafkaSink} writer.
 *
 * <p>Immutable: nobody may modify the arrays it was built from or hands out.
 */
@TypeInfo(EncodedBatchTypeInfo.Factory.class)
public final class EncodedBatch {
    /** A record's timestamp that means none (the producer's time); outside Flink's range of timestamps. */
    public static final long NO_TIMESTAMP = Long.MIN_VALUE;

    private final String[] topics;
    private final long[] timestamps;
    private final List<Header>[] headers;
    private final Slab keys;
    private final Slab values;

    /**
     * @param topics each record's topic, never null; its length is the record count
     * @param timestamps each record's timestamp in epoch millis, {@link Long#MIN_VALUE} for the producer's
     *     time, or null when no record has one
     * @param headers each record's headers (null or empty for none), or null when no record has any
     * @param keys the key of each record, or null for no keys
     * @param values the value of each record (a null record for a tombstone)
     */
    public EncodedBatch(String[] topics, long[] timestamps, List<Header>[] headers, Slab keys, Slab values) {
        this.topics = Objects.requireNonNull(topics, "topics");
        this.timestamps = timestamps;
        this.headers = headers;
        this.keys = keys;
        this.values = Objects.requireNonNull(values, "values");
        checkLength("timestamps", timestamps == null ? topics.length : timestamps.length);
        checkLength("headers", headers == null ? topics.length : headers.length);
        checkLength("keys", keys == null ? topics.length : keys.count());
        checkLength("values", values.count());
    }

    private void checkLength(String what, int length) {
        if (length != topics.length) {
            throw new IllegalArgumentException(what + " for " + length + " records, topics for " + topics.length);
        }
    }

    /** Number of records. */
    public int size() {
        return topics.length;
    }

    /** Record {@code i} with its own key and value arrays, copied out of the slabs. */
    public PreSerializedRecord record(int i) {
        Long timestamp = timestamps == null || timestamps[i] == NO_TIMESTAMP ? null : timestamps[i];
        List<Header> recordHeaders = headers == null || headers[i] == null ? List.of() : headers[i];
        return new PreSerializedRecord(topics[i], null, timestamp, keys == null ? null : keys.copyRecord(i),
                values.copyRecord(i), recordHeaders);
    }

    /**
     * Fails before any record of this batch is sent if one is over the producer's limit, naming its topic and
     * its index in the batch.
     *
     * @throws OversizedRecordException for the first record over {@code limit}
     */
    public void checkSizes(RecordSizeLimit limit) {
        int[] valueLengths = values.lengths;
        int[] keyLengths = keys == null ? null : keys.lengths;
        long bytes = values.bytes.length + (keys == null ? 0 : keys.bytes.length);
        limit.check(size(), bytes, keyLengths == null ? i -> -1 : i -> keyLengths[i], i -> valueLengths[i],
                headers == null ? null : i -> headers[i],
                i -> "topic '" + topics[i] + "', row " + i + " of the batch of " + size() + " rows");
    }

    String[] topics() {
        return topics;
    }

    long[] timestamps() {
        return timestamps;
    }

    List<Header>[] headers() {
        return headers;
    }

    Slab keys() {
        return keys;
    }

    Slab values() {
        return values;
    }

    /**
     * Records as one byte array plus, per record, its start and length (-1: a null record). The bytes are
     * the encoder's slab copied in one piece, so records keep the encoder's offsets.
     */
    public static final class Slab {
        private final byte[] bytes;
        private final int[] starts;
        private final int[] lengths;

        Slab(byte[] bytes, int[] starts, int[] lengths) {
            if (starts.length != lengths.length) {
                throw new IllegalArgumentException(starts.length + " starts but " + lengths.length + " lengths");
            }
            this.bytes = bytes;
            this.starts = starts;
            this.lengths = lengths;
        }

        /** Copies every record of an encoder's slab, which the encoder will overwrite with its next batch. */
        public static Slab copyOf(RecordSlab slab) {
            return copyOf(slab, slab.recordCount(), null);
        }

        /**
         * Copies an encoder's slab holding the records of the first {@code rows} batch rows that are not
         * {@code absent}, in order; an absent row (a tombstone, whose value is never encoded) becomes a null
         * record.
         *
         * @param absent per batch row, true for a row without a record in the slab; null: every row has one
         */
        public static Slab copyOf(RecordSlab slab, int rows, boolean[] absent) {
            int count = rows;
            int[] starts = new int[count];
            int[] lengths = new int[count];
            int record = 0;
            for (int i = 0; i < count; i++) {
                if (absent != null && absent[i]) {
                    lengths[i] = -1;
                } else {
                    lengths[i] = slab.length(record);
                    starts[i] = lengths[i] < 0 ? 0 : slab.start(record);
                    record++;
                }
            }
            if (record != slab.recordCount()) {
                throw new IllegalArgumentException(
                        "the slab holds " + slab.recordCount() + " records, the rows select " + record);
            }
            return new Slab(Arrays.copyOf(slab.buffer(), slab.size()), starts, lengths);
        }

        /** Number of records. */
        public int count() {
            return starts.length;
        }

        /** Copies one record out as the {@code byte[]} Kafka's producer needs; null for a null record. */
        public byte[] copyRecord(int record) {
            int length = lengths[record];
            return length < 0 ? null : Arrays.copyOfRange(bytes, starts[record], starts[record] + length);
        }

        byte[] bytes() {
            return bytes;
        }

        int[] starts() {
            return starts;
        }

        int[] lengths() {
            return lengths;
        }
    }
}
