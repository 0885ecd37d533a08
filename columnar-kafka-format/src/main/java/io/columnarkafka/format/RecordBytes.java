package io.columnarkafka.format;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The bytes of one batch of Kafka records (all keys, or all values) as a decoder reads them: per record
 * a view {@code (array, offset, length)} into memory the caller owns, or a null record (length -1, a
 * tombstone or a null key). Filling it copies no record bytes: a view points into the {@code byte[]} or
 * heap {@code ByteBuffer} Kafka's consumer handed out.
 *
 * <p>The caller owns one instance per split reader and refills it for every batch with {@link #clear()}
 * and {@link #add}; the views must stay valid until the decoder's call returns.
 */
public final class RecordBytes {
    private byte[][] arrays = new byte[64][];
    private int[] offsets = new int[64];
    private int[] lengths = new int[64];
    private int count;
    private long totalBytes;

    /** Forgets every record (and lets go of the arrays they pointed into). */
    public void clear() {
        Arrays.fill(arrays, 0, count, null);
        count = 0;
        totalBytes = 0;
    }

    /** Appends a record whose bytes are {@code array[offset, offset + length)}. */
    public void add(byte[] array, int offset, int length) {
        if (length < 0 || offset < 0 || offset + length > array.length) {
            throw new IndexOutOfBoundsException(
                    "record view [" + offset + ", +" + length + ") outside an array of " + array.length);
        }
        append(array, offset, length);
        totalBytes += length;
    }

    /** Appends a whole {@code byte[]} record, or a null record for {@code null}. */
    public void add(byte[] record) {
        if (record == null) {
            addNull();
        } else {
            add(record, 0, record.length);
        }
    }

    /**
     * Appends the remaining bytes of a heap buffer (as Kafka's {@code ByteBufferDeserializer} hands them
     * out) without copying, or a null record for {@code null}.
     *
     * @throws IllegalArgumentException for a direct buffer, which has no array to view
     */
    public void add(ByteBuffer record) {
        if (record == null) {
            addNull();
        } else if (!record.hasArray()) {
            throw new IllegalArgumentException("a record buffer must be a heap buffer");
        } else {
            add(record.array(), record.arrayOffset() + record.position(), record.remaining());
        }
    }

    /** Appends a null record. */
    public void addNull() {
        append(null, 0, -1);
    }

    private void append(byte[] array, int offset, int length) {
        if (count == arrays.length) {
            int capacity = count * 2;
            arrays = Arrays.copyOf(arrays, capacity);
            offsets = Arrays.copyOf(offsets, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
        }
        arrays[count] = array;
        offsets[count] = offset;
        lengths[count] = length;
        count++;
    }

    /** Number of records. */
    public int count() {
        return count;
    }

    /** Total bytes of the non-null records, for sizing output buffers once per batch. */
    public long totalBytes() {
        return totalBytes;
    }

    /** The array record {@code i} lives in; null for a null record. */
    public byte[] array(int i) {
        return arrays[check(i)];
    }

    /** Offset of record {@code i}'s first byte in {@link #array(int)}. */
    public int offset(int i) {
        return offsets[check(i)];
    }

    /** Length of record {@code i} in bytes, or -1 for a null record. */
    public int length(int i) {
        return lengths[check(i)];
    }

    public boolean isNull(int i) {
        return length(i) < 0;
    }

    /** A copy of record {@code i}'s bytes (null for a null record), for error messages and tests. */
    public byte[] copy(int i) {
        int length = length(i);
        return length < 0 ? null : Arrays.copyOfRange(arrays[i], offsets[i], offsets[i] + length);
    }

    private int check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("record " + i + " of " + count);
        }
        return i;
    }
}
