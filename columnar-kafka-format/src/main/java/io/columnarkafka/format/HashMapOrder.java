package io.columnarkafka.format;

import io.columnarkafka.format.arrow.Utf8Scan;
import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The iteration order of a {@code java.util.HashMap} that Flink fills with a map's entries, computed
 * without building keys or a map. Two constructions occur in Flink's serializers:
 *
 * <ul>
 *   <li>{@link #presized}: Avro's converter copies the entries into {@code
 *       CollectionUtil.newHashMapWithExpectedSize(size)}, which never resizes for {@code size} keys;
 *   <li>{@link #growing}: protobuf's generated code, Flink's Avro reader and Kafka source's {@code headers}
 *       put them into {@code new HashMap()} (16 buckets, doubling when the distinct keys pass 3/4 of the
 *       table);
 *   <li>{@link #withInitialCapacity}: Avro's {@code GenericDatumReader} reads a map into {@code new
 *       HashMap(n)}, {@code n} the count of the map's first block, doubling from there.
 * </ul>
 *
 * While no bucket becomes a tree, HashMap's order is: by bucket ({@code (h ^ h >>> 16) & (table - 1)} of
 * the key's {@code hashCode()}), and within a bucket by first insertion (a resize splits a bucket keeping
 * that order); a repeated key keeps its first position and takes the last value. The methods give up
 * (return false) where only a real HashMap knows the order: a key whose hash is unknown (e.g. malformed
 * UTF-8, whose String differs from its bytes) or a bucket long enough that HashMap would make it a tree or
 * resize early.
 */
public final class HashMapOrder {
    /** The keys of a map's entries, addressed by entry index. */
    public interface Keys {
        /** The key's {@code hashCode()} as an unsigned int in a long, or -1 if it cannot be computed. */
        long hash(int entry);

        /** True if the keys of two entries (with equal hashes) are equal. */
        boolean same(int a, int b);
    }

    /** Longest bucket HashMap keeps as a plain list (its {@code TREEIFY_THRESHOLD}). */
    private static final int LIST_BUCKET_LIMIT = 8;
    private static final float LOAD_FACTOR = 0.75f;
    private static final int DEFAULT_TABLE = 16;
    /** Keys up to which {@link #order} sorts by insertion ({@link #insertionSort}). */
    private static final int INSERTION_SORT_LIMIT = 16;

    private final int[] defaultTableCounts = new int[DEFAULT_TABLE];
    private int[] hashes = new int[16];
    private long[] sorted = new long[16];
    /** Per output entry: the entry whose key is written, and the entry whose value is written. */
    public int[] keyEntry = new int[16];
    public int[] valueEntry = new int[16];
    /** Number of distinct keys, valid after a method returned true. */
    public int size;

    /** Capacity Flink's {@code CollectionUtil.computeRequiredCapacity(expectedSize, 0.75f)} asks for. */
    public static int requiredCapacity(int expectedSize) {
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

    /** Table length of a {@code java.util.HashMap} whose first table was {@code table} after {@code distinct} puts of new keys. */
    static int grownTableSize(int table, int distinct) {
        while (distinct > (int) (table * LOAD_FACTOR)) {
            table <<= 1;
        }
        return table;
    }

    /**
     * Orders the entries {@code [start, end)} as a HashMap presized for {@code end - start} keys does.
     *
     * @return false if the order needs a real HashMap
     */
    public boolean presized(Keys keys, int start, int end) {
        return hash(keys, start, end) && order(keys, start, end, tableSize(requiredCapacity(end - start)) - 1);
    }

    /**
     * Orders the entries {@code [start, end)} as a default {@code new HashMap()} filled one put at a time
     * does.
     *
     * @return false if the order needs a real HashMap
     */
    public boolean growing(Keys keys, int start, int end) {
        return filled(keys, start, end, DEFAULT_TABLE);
    }

    /**
     * Orders the entries {@code [start, end)} as {@code new HashMap(initialCapacity)} filled one put at a
     * time does.
     *
     * @return false if the order needs a real HashMap
     */
    public boolean withInitialCapacity(Keys keys, int start, int end, int initialCapacity) {
        return filled(keys, start, end, tableSize(Math.max(initialCapacity, 1)));
    }

    /**
     * Gives up unless every bucket of the first table holds at most 8 entries: the table only grows, and a
     * bucket of a larger table holds a subset of one of the first, so HashMap then never treeifies nor
     * resizes early, and a resize keeps each bucket's order.
     */
    private boolean filled(Keys keys, int start, int end, int firstTable) {
        int n = end - start;
        if (!hash(keys, start, end) || n > (long) firstTable * LIST_BUCKET_LIMIT) {
            return false;
        }
        // A bucket can hold more than 8 entries only where there are more.
        if (n > LIST_BUCKET_LIMIT && !firstTableListsOnly(keys, start, end, firstTable)) {
            return false;
        }
        int table = grownTableSize(firstTable, n);
        if (!order(keys, start, end, table - 1)) {
            return false;
        }
        int distinctTable = grownTableSize(firstTable, size);
        return distinctTable == table || order(keys, start, end, distinctTable - 1);
    }

    /** Whether no bucket of the first table holds more than 8 entries: counted in the default table. */
    private boolean firstTableListsOnly(Keys keys, int start, int end, int firstTable) {
        if (firstTable != DEFAULT_TABLE) {
            return order(keys, start, end, firstTable - 1);
        }
        int[] counts = defaultTableCounts;
        Arrays.fill(counts, 0);
        for (int k = 0; k < end - start; k++) {
            if (++counts[spread(hashes[k]) & (DEFAULT_TABLE - 1)] > LIST_BUCKET_LIMIT) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link #order} of two entries, without the sort and the bucket runs: the second first only if its bucket
     * comes first; in one bucket (equal hashes too), in insertion order; one entry if the keys are equal. Maps of
     * two entries are common (a JSON object's few fields), and the general way costs them twice as much.
     */
    private void pair(Keys keys, int start, int mask) {
        if (sameKey(keys, start, 0, 1)) {
            size = 1;
            keyEntry[0] = start;
            valueEntry[0] = start + 1;
            return;
        }
        int first = (spread(hashes[1]) & mask) < (spread(hashes[0]) & mask) ? 1 : 0;
        size = 2;
        keyEntry[0] = start + first;
        valueEntry[0] = start + first;
        keyEntry[1] = start + 1 - first;
        valueEntry[1] = start + 1 - first;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    private boolean hash(Keys keys, int start, int end) {
        int n = end - start;
        if (hashes.length < n) {
            int capacity = Math.max(n, hashes.length * 2);
            hashes = new int[capacity];
            sorted = new long[capacity];
            keyEntry = new int[capacity];
            valueEntry = new int[capacity];
        }
        for (int k = 0; k < n; k++) {
            long hash = keys.hash(start + k);
            if (hash < 0) {
                return false;
            }
            hashes[k] = (int) hash;
        }
        return true;
    }

    private boolean order(Keys keys, int start, int end, int mask) {
        int n = end - start;
        if (n == 2) {
            pair(keys, start, mask);
            return true;
        }
        for (int k = 0; k < n; k++) {
            sorted[k] = ((long) (spread(hashes[k]) & mask) << 32) | k;
        }
        if (n <= INSERTION_SORT_LIMIT) {
            insertionSort(n);
        } else {
            Arrays.sort(sorted, 0, n);
        }
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

    /**
     * Sorts {@code sorted[0, n)}. Most maps have a few keys, for which {@code Arrays.sort} costs more in its dispatch
     * (too big for the JIT to inline) than in sorting; keys whose buckets come in insertion order take one pass.
     */
    private void insertionSort(int n) {
        for (int i = 1; i < n; i++) {
            long x = sorted[i];
            int j = i - 1;
            while (j >= 0 && sorted[j] > x) {
                sorted[j + 1] = sorted[j];
                j--;
            }
            sorted[j + 1] = x;
        }
    }

    private boolean repeatsEarlier(Keys keys, int start, int runStart, int p, int k) {
        for (int q = runStart; q < p; q++) {
            if (sameKey(keys, start, (int) sorted[q], k)) {
                return true;
            }
        }
        return false;
    }

    private int lastEqual(Keys keys, int start, int p, int runEnd, int k) {
        int last = k;
        for (int q = p + 1; q < runEnd; q++) {
            int other = (int) sorted[q];
            if (sameKey(keys, start, other, k)) {
                last = other;
            }
        }
        return last;
    }

    private boolean sameKey(Keys keys, int start, int a, int b) {
        return hashes[a] == hashes[b] && keys.same(start + a, start + b);
    }

    /** True if two byte ranges of Arrow memory hold the same bytes. */
    public static boolean sameBytes(long x, int xLength, long y, int yLength) {
        if (xLength != yLength) {
            return false;
        }
        for (int i = 0; i < xLength; i++) {
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
    public static long stringHash(long address, int length) {
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
