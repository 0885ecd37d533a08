package io.columnarkafka.format.avro;

import io.columnarkafka.format.arrow.Utf8Scan;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The order in which Flink's Avro map converter hands a map's entries to Avro: it copies them into a
 * {@code java.util.HashMap} made by {@code CollectionUtil.newHashMapWithExpectedSize(size)} and Avro
 * iterates that map. A HashMap of that capacity never resizes for {@code size} keys, so its order is:
 * by bucket ({@code (h ^ h >>> 16) & (table - 1)} of the key's {@code String.hashCode()}), and within a
 * bucket by first insertion; a repeated key keeps its first position and takes the last value.
 *
 * <p>This computes that order from the UTF-8 key bytes without building Strings or a map: the String hash
 * is computed over the UTF-16 code units the bytes decode to. It gives up (returns false) where a real
 * HashMap is needed: a malformed key (whose String differs from its bytes) or a bucket long enough that
 * HashMap would turn it into a tree or resize.
 */
final class HashMapOrder {
    /** Longest bucket HashMap keeps as a plain list (its {@code TREEIFY_THRESHOLD}). */
    private static final int LIST_BUCKET_LIMIT = 8;
    private static final float LOAD_FACTOR = 0.75f;

    private int[] hashes = new int[16];
    private long[] sorted = new long[16];
    /** Per output entry: the entry whose key is written, and the entry whose value is written. */
    int[] keyEntry = new int[16];
    int[] valueEntry = new int[16];
    /** Number of distinct keys, valid after {@link #compute} returned true. */
    int size;

    /** Capacity Flink's {@code CollectionUtil.computeRequiredCapacity(expectedSize, 0.75f)} asks for. */
    static int requiredCapacity(int expectedSize) {
        if (expectedSize <= 2) {
            return expectedSize + 1;
        }
        return expectedSize < (Integer.MAX_VALUE / 2 + 1)
                ? (int) Math.ceil((double) ((float) expectedSize / LOAD_FACTOR))
                : Integer.MAX_VALUE;
    }

    /** Table length {@code java.util.HashMap} allocates for an initial capacity (its {@code tableSizeFor}). */
    static int tableSize(int capacity) {
        int n = -1 >>> Integer.numberOfLeadingZeros(capacity - 1);
        return n < 0 ? 1 : n >= (1 << 30) ? 1 << 30 : n + 1;
    }

    /**
     * Orders the entries {@code [start, end)} of {@code keys}, none of them null.
     *
     * @return false if the order needs a real HashMap
     */
    boolean compute(StringAvroWriter keys, int start, int end) {
        int n = end - start;
        if (hashes.length < n) {
            int capacity = Math.max(n, hashes.length * 2);
            hashes = new int[capacity];
            sorted = new long[capacity];
            keyEntry = new int[capacity];
            valueEntry = new int[capacity];
        }
        int mask = tableSize(requiredCapacity(n)) - 1;
        for (int k = 0; k < n; k++) {
            long hash = stringHash(keys.start(start + k), keys.length(start + k));
            if (hash < 0) {
                return false;
            }
            int h = (int) hash;
            hashes[k] = h;
            sorted[k] = ((long) ((h ^ (h >>> 16)) & mask) << 32) | k;
        }
        java.util.Arrays.sort(sorted, 0, n);
        size = 0;
        int runStart = 0;
        while (runStart < n) {
            long bucket = sorted[runStart] >>> 32;
            int runEnd = runStart + 1;
            while (runEnd < n && sorted[runEnd] >>> 32 == bucket) {
                runEnd++;
            }
            if (runEnd - runStart > LIST_BUCKET_LIMIT) {
                return false;
            }
            for (int p = runStart; p < runEnd; p++) {
                int k = (int) sorted[p];
                if (!repeatsEarlier(keys, start, runStart, p, k)) {
                    keyEntry[size] = start + k;
                    valueEntry[size] = start + lastEqual(keys, start, p, runEnd, k);
                    size++;
                }
            }
            runStart = runEnd;
        }
        return true;
    }

    private boolean repeatsEarlier(StringAvroWriter keys, int start, int runStart, int p, int k) {
        for (int q = runStart; q < p; q++) {
            if (sameKey(keys, start, (int) sorted[q], k)) {
                return true;
            }
        }
        return false;
    }

    private int lastEqual(StringAvroWriter keys, int start, int p, int runEnd, int k) {
        int last = k;
        for (int q = p + 1; q < runEnd; q++) {
            int other = (int) sorted[q];
            if (sameKey(keys, start, other, k)) {
                last = other;
            }
        }
        return last;
    }

    private boolean sameKey(StringAvroWriter keys, int start, int a, int b) {
        if (hashes[a] != hashes[b]) {
            return false;
        }
        int length = keys.length(start + a);
        if (keys.length(start + b) != length) {
            return false;
        }
        long x = keys.start(start + a);
        long y = keys.start(start + b);
        for (int i = 0; i < length; i++) {
            if (MemoryUtil.getByte(x + i) != MemoryUtil.getByte(y + i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code String.hashCode()} of the string the UTF-8 bytes decode to, as an unsigned int in a long,
     * or -1 if the bytes are not well-formed UTF-8.
     */
    static long stringHash(long address, int length) {
        int h = 0;
        int i = 0;
        while (i < length) {
            int b = MemoryUtil.getByte(address + i);
            if (b >= 0) {
                h = 31 * h + b;
                i++;
                continue;
            }
            int n = Utf8Scan.sequenceLength(address + i, length - i);
            if (n == 0) {
                return -1;
            }
            int b1 = MemoryUtil.getByte(address + i + 1) & 0x3F;
            if (n == 2) {
                h = 31 * h + (((b & 0x1F) << 6) | b1);
            } else {
                int b2 = MemoryUtil.getByte(address + i + 2) & 0x3F;
                if (n == 3) {
                    h = 31 * h + (((b & 0x0F) << 12) | (b1 << 6) | b2);
                } else {
                    int b3 = MemoryUtil.getByte(address + i + 3) & 0x3F;
                    int codePoint = ((b & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3;
                    h = 31 * h + Character.highSurrogate(codePoint);
                    h = 31 * h + Character.lowSurrogate(codePoint);
                }
            }
            i += n;
        }
        return h & 0xFFFFFFFFL;
    }
}
