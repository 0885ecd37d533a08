package io.columnarkafka.format;

import java.util.Arrays;

/**
 * The records of one encoded batch: one contiguous byte buffer plus, per record, its start offset and
 * its length. A negative length marks a null record (a null key, or a tombstone value).
 *
 * <p>An encoder owns one slab and reuses it for every batch, so the buffer grows to the largest batch
 * seen and then stops allocating. Encoders write through {@link #ensure(int)}, {@link #buffer()} and
 * {@link #position(int)} in the style of Jackson's {@code UTF8JsonGenerator}: take the array and the
 * position into locals, write, store the position back.
 *
 * <p>{@link #copyRecord(int)} is the one copy the whole path makes: Kafka's {@code Serializer} and
 * {@code ProducerRecord} contracts take a {@code byte[]} per record that the producer keeps until the
 * send completes, so a record cannot stay a view into a buffer that the next batch overwrites.
 */
public final class RecordSlab {
    /** Smallest buffer a slab starts with. */
    private static final int MIN_CAPACITY = 1 << 12;
    /** Largest array the JVM reliably allocates: the default limit. */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE - 16;

    private final int maxCapacity;
    private byte[] buffer = new byte[MIN_CAPACITY];
    private int position;
    private int[] starts = new int[64];
    private int[] lengths = new int[64];
    private int count;
    private int recordStart = -1;

    /** A slab that grows up to the largest Java array. */
    public RecordSlab() {
        this(MAX_CAPACITY);
    }

    /**
     * A slab that holds at most {@code maxCapacity} bytes; a batch that needs more fails with {@link
     * BatchTooLargeException}. Below {@link #MAX_CAPACITY} it bounds an encoder's memory (and lets tests reach
     * the limit without allocating 2 GiB).
     */
    public RecordSlab(int maxCapacity) {
        if (maxCapacity < MIN_CAPACITY || maxCapacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("a slab's limit must lie in [" + MIN_CAPACITY + ", " + MAX_CAPACITY
                    + "] bytes, not " + maxCapacity);
        }
        this.maxCapacity = maxCapacity;
    }

    /**
     * Empties the slab for a new batch and makes room for {@code records} records and about {@code
     * bytes} bytes, so that a batch whose size was estimated well never grows mid-encode.
     */
    public void reset(int records, long bytes) {
        position = 0;
        count = 0;
        recordStart = -1;
        if (starts.length < records) {
            int capacity = Math.max(records, starts.length * 2);
            starts = new int[capacity];
            lengths = new int[capacity];
        }
        if (bytes > buffer.length) {
            buffer = new byte[(int) Math.min(maxCapacity, Math.max(bytes, (long) buffer.length * 2))];
        }
    }

    /** Drops every record, as after a batch that failed mid-way: nothing half-written remains. */
    public void clear() {
        position = 0;
        count = 0;
        recordStart = -1;
    }

    /** Marks the current position as the start of the next record. */
    public void startRecord() {
        recordStart = position;
    }

    /** Ends the record begun by {@link #startRecord()}. */
    public void endRecord() {
        appendRecord(recordStart, position - recordStart);
        recordStart = -1;
    }

    /** Appends a null record (negative length). */
    public void nullRecord() {
        appendRecord(position, -1);
    }

    private void appendRecord(int start, int length) {
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        starts[count] = start;
        lengths[count] = length;
        count++;
    }

    /**
     * Makes room for {@code extra} more bytes after the current position, growing the buffer
     * geometrically, and returns the buffer to write into (which may be a new array).
     *
     * @throws BatchTooLargeException if that passes the slab's limit
     */
    public byte[] ensure(int extra) {
        long needed = (long) position + extra;
        if (needed > buffer.length) {
            grow(needed);
        }
        return buffer;
    }

    private void grow(long needed) {
        if (needed > maxCapacity) {
            throw new BatchTooLargeException(-1, needed, maxCapacity);
        }
        long capacity = Math.max(needed, Math.min(maxCapacity, (long) buffer.length * 2));
        buffer = Arrays.copyOf(buffer, (int) capacity);
    }

    /** The buffer; valid bytes are {@code [0, position())}. */
    public byte[] buffer() {
        return buffer;
    }

    public int position() {
        return position;
    }

    public void position(int newPosition) {
        position = newPosition;
    }

    /** Number of records in the slab. */
    public int recordCount() {
        return count;
    }

    /** Offset of the record's first byte in {@link #buffer()}. */
    public int start(int record) {
        checkRecord(record);
        return starts[record];
    }

    /** The record's length in bytes, or -1 for a null record. */
    public int length(int record) {
        checkRecord(record);
        return lengths[record];
    }

    public boolean isNull(int record) {
        return length(record) < 0;
    }

    /** Bytes in use, the total of every record's length. */
    public int size() {
        return position;
    }

    /** The most bytes this slab holds. */
    public int maxCapacity() {
        return maxCapacity;
    }

    /** Capacity of the reused buffer, in bytes. */
    public int capacity() {
        return buffer.length;
    }

    /** Copies one record out as the {@code byte[]} Kafka's producer needs; null for a null record. */
    public byte[] copyRecord(int record) {
        int length = length(record);
        if (length < 0) {
            return null;
        }
        int start = starts[record];
        return Arrays.copyOfRange(buffer, start, start + length);
    }

    /** Copies every record out, in order; null entries for null records. */
    public byte[][] drain() {
        byte[][] records = new byte[count][];
        for (int i = 0; i < count; i++) {
            records[i] = copyRecord(i);
        }
        return records;
    }

    private void checkRecord(int record) {
        if (record < 0 || record >= count) {
            throw new IndexOutOfBoundsException("record " + record + " of " + count);
        }
    }
}
