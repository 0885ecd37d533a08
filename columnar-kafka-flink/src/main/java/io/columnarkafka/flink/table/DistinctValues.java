package io.columnarkafka.flink.table;

import java.util.Arrays;

/**
 * The distinct values of one column per group of a vectorised local aggregate's flush, each with the value Flink's
 * {@code DistinctAggCodeGen} maps it to: {@link #width} longs, either the bit-set of the {@code COUNT(DISTINCT ...)}
 * calls on the column whose filters let it through (bit i: the column's i-th call; an insert-only input and at most
 * 64 calls, width 1), or, where Flink's distinct accumulator consumes retractions, a count of the rows that passed
 * each call's filter (width: the number of calls), retracted rows counted down (a value whose counts are all back at 0
 * is gone from Flink's map). Flat arrays: an open-addressing table of (group entry, value)
 * and, per group, a chain of its values; a null value is a value of its own, as it is a key of Flink's map. An INT
 * or BIGINT value is held as a long; a VARCHAR value as a range of a byte pool, its UTF-8 bytes copied there once,
 * when the group first sees it (values are equal when their bytes are, as Flink's {@code BinaryStringData} keys). No
 * object per row or value.
 */
final class DistinctValues {
    private int[] slots = new int[1024]; // value index + 1, 0 when free
    private int size;
    private int[] entries = new int[512];
    /** Per value, the long, or a string's range of {@link #pool} (offset << 32 | length). */
    private long[] values = new long[512];
    private boolean[] nulls = new boolean[512];
    /** Longs per value: its bit-set, or its counts per call. */
    private final int width;
    /** Per value, its {@link #width} longs (value index * width + i). */
    private long[] marks;
    private int[] hashes = new int[512];
    /** Per value, the next value of its group's chain (index + 1, 0 at the end). */
    private int[] next = new int[512];
    /** Per group entry, its chain's first value (index + 1, 0 when none). */
    private int[] heads = new int[512];
    /** The VARCHAR values' UTF-8 bytes. */
    private byte[] pool = new byte[0];
    private int poolSize;

    /** Values with {@code width} longs each: 1 for a bit-set or one call's count, else one count per call. */
    DistinctValues(int width) {
        this.width = width;
        marks = new long[entries.length * width];
    }

    /** The index of the group's value, added with its longs at 0 if it is new. */
    int index(int entry, boolean isNull, long value) {
        int hash = (int) BatchKeyColumns.mix(entry * 31L + (isNull ? 0x5bd1e995L : value * 17L + 1));
        return index(entry, isNull, value, null, 0, 0, hash);
    }

    /**
     * The index of the group's VARCHAR value, the UTF-8 bytes [start, end) of {@code bytes} (not read when null),
     * added with its longs at 0 if it is new.
     */
    int index(int entry, boolean isNull, byte[] bytes, int start, int end) {
        int hash = (int) BatchKeyColumns.mix(entry * 31L
                + (isNull ? 0x5bd1e995L : BatchKeyColumns.bytesHash(bytes, start, end) * 17L + 1));
        return index(entry, isNull, 0, bytes, start, end, hash);
    }

    /** Looks up (adds) the value: the long {@code value} when {@code bytes} is null, else the bytes' range. */
    private int index(int entry, boolean isNull, long value, byte[] bytes, int start, int end, int hash) {
        int mask = slots.length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            int stored = slots[slot];
            if (stored == 0) {
                int index = add(entry, isNull, bytes == null || isNull ? value : append(bytes, start, end), hash);
                slots[slot] = index + 1;
                if (size * 2 > slots.length) {
                    rehash(slots.length * 2);
                }
                return index;
            }
            int index = stored - 1;
            if (hashes[index] == hash && entries[index] == entry && nulls[index] == isNull
                    && (isNull || (bytes == null ? values[index] == value : sameBytes(index, bytes, start, end)))) {
                return index;
            }
        }
    }

    private boolean sameBytes(int index, byte[] bytes, int start, int end) {
        int offset = (int) (values[index] >>> 32);
        return Arrays.equals(pool, offset, offset + (int) values[index], bytes, start, end);
    }

    /** Copies the bytes to the pool; their range there (offset << 32 | length). */
    private long append(byte[] bytes, int start, int end) {
        int length = end - start;
        if (poolSize + length > pool.length) {
            pool = Arrays.copyOf(pool, Math.max(Math.max(pool.length * 2, 4096), poolSize + length));
        }
        System.arraycopy(bytes, start, pool, poolSize, length);
        long range = (long) poolSize << 32 | length;
        poolSize += length;
        return range;
    }

    private int add(int entry, boolean isNull, long value, int hash) {
        if (size == entries.length) {
            int capacity = size * 2;
            entries = Arrays.copyOf(entries, capacity);
            values = Arrays.copyOf(values, capacity);
            nulls = Arrays.copyOf(nulls, capacity);
            marks = Arrays.copyOf(marks, capacity * width);
            hashes = Arrays.copyOf(hashes, capacity);
            next = Arrays.copyOf(next, capacity);
        }
        if (entry >= heads.length) {
            heads = Arrays.copyOf(heads, Math.max(heads.length * 2, entry + 1));
        }
        int index = size++;
        entries[index] = entry;
        values[index] = isNull ? 0 : value;
        nulls[index] = isNull;
        Arrays.fill(marks, index * width, (index + 1) * width, 0);
        hashes[index] = hash;
        next[index] = heads[entry];
        heads[entry] = index + 1;
        return index;
    }

    private void rehash(int capacity) {
        slots = new int[capacity];
        int mask = capacity - 1;
        for (int index = 0; index < size; index++) {
            int slot = hashes[index] & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = index + 1;
        }
    }

    /** The value's bit-set (width 1). */
    long bits(int index) {
        return marks[index * width];
    }

    void setBits(int index, long set) {
        marks[index * width] = set;
    }

    /**
     * Counts a row of the value that passed call {@code call}'s filter, {@code sign} +1 (accumulated) or -1 (retracted,
     * as over a changelog, where a count may go below 0 within a flush); the count now.
     */
    long countRow(int index, int call, int sign) {
        return marks[index * width + call] += sign;
    }

    /**
     * Whether every long of the value is 0: counts that came back to 0, after which Flink's {@code DistinctAggCodeGen}
     * removes the value from its map (a bit-set is never 0: a value is kept only once a call saw it).
     */
    boolean isGone(int index) {
        for (int i = index * width; i < (index + 1) * width; i++) {
            if (marks[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Longs per value: 1 (a bit-set or one call's count) or one count per call. */
    int width() {
        return width;
    }

    /** The value's {@code i}-th long: its bit-set or a call's count. */
    long mark(int index, int i) {
        return marks[index * width + i];
    }

    /** The group's first value's index, -1 when it has none. */
    int first(int entry) {
        return entry < heads.length ? heads[entry] - 1 : -1;
    }

    /** The index of the value after {@code index} in its group, -1 at the end. */
    int next(int index) {
        return next[index] - 1;
    }

    boolean isNull(int index) {
        return nulls[index];
    }

    /** An INT's or BIGINT's value, or a VARCHAR's range of {@link #pool} (offset << 32 | length). */
    long value(int index) {
        return values[index];
    }

    /**
     * The VARCHAR values' UTF-8 bytes: a value's are [offset, offset + length) of it, its {@link #value} being
     * offset << 32 | length. Valid until the next value is added.
     */
    byte[] pool() {
        return pool;
    }

    /** Forgets every value (after a flush); the arrays keep their capacity. */
    void clear() {
        Arrays.fill(slots, 0);
        Arrays.fill(heads, 0);
        size = 0;
        poolSize = 0;
    }
}
