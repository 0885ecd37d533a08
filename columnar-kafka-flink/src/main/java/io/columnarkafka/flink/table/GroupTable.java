package io.columnarkafka.flink.table;

import java.util.Arrays;
import org.apache.flink.table.data.writer.BinaryRowWriter;

/**
 * The groups of a vectorised local aggregate's buffer: one entry per (slice end, key), in the order the groups
 * first came (the order Flink's {@code WindowBytesMultiMap} iterates its keys in), in flat arrays: an
 * open-addressing table of entry numbers, the entries' hashes, slice ends, key values (INT and BIGINT as longs,
 * VARCHAR as UTF-8 bytes in one pool) and accumulators (a long and a set flag each). No object per row or group.
 * A group aggregate's groups are all in slice 0 ({@link VectorLocalGroupAggOperator}); a window aggregate's in the
 * slices of their rows ({@link VectorLocalWindowAggOperator}).
 */
final class GroupTable {
    private final AggColumnType[] keyTypes;
    private final int accumulators;

    private int[] slots = new int[1024]; // entry + 1, 0 when free
    private int size;
    private int[] hashes = new int[512];
    private long[] sliceEnds = new long[512];
    private final long[][] keyValues;
    private final boolean[][] keyNulls;
    private final int[][] keyLengths; // VARCHAR: bytes at keyValues (pool offset)
    private byte[] pool = new byte[4096];
    private int poolSize;
    private final long[][] accValues;
    private final boolean[][] accSet;
    private final PooledStrings strings = new PooledStrings();

    GroupTable(AggColumnType[] keyTypes, int accumulators) {
        this.keyTypes = keyTypes.clone();
        this.accumulators = accumulators;
        keyValues = new long[keyTypes.length][512];
        keyNulls = new boolean[keyTypes.length][512];
        keyLengths = new int[keyTypes.length][];
        for (int k = 0; k < keyTypes.length; k++) {
            if (keyTypes[k] == AggColumnType.VARCHAR) {
                keyLengths[k] = new int[512];
            }
        }
        accValues = new long[accumulators][512];
        accSet = new boolean[accumulators][512];
    }

    int size() {
        return size;
    }

    /**
     * The entry of the group of row {@code j} of a batch, added (accumulators unset) if it is new. The batch's key
     * values are in {@code keys}.
     */
    int entry(long sliceEnd, int hash, BatchKeys keys, int j) {
        int mask = slots.length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            int stored = slots[slot];
            if (stored == 0) {
                int entry = add(sliceEnd, hash, keys, j);
                slots[slot] = entry + 1;
                if (size * 2 > slots.length) {
                    rehash(slots.length * 2);
                }
                return entry;
            }
            int entry = stored - 1;
            if (hashes[entry] == hash && sliceEnds[entry] == sliceEnd && sameKeys(entry, keys, j)) {
                return entry;
            }
        }
    }

    private boolean sameKeys(int entry, BatchKeys keys, int j) {
        for (int k = 0; k < keyTypes.length; k++) {
            boolean isNull = keys.isNull(k, j);
            if (isNull != keyNulls[k][entry]) {
                return false;
            }
            if (isNull) {
                continue;
            }
            if (keyTypes[k] == AggColumnType.VARCHAR) {
                int start = (int) keyValues[k][entry];
                if (!Arrays.equals(pool, start, start + keyLengths[k][entry], keys.bytes(k), keys.start(k, j),
                        keys.end(k, j))) {
                    return false;
                }
            } else if (keyValues[k][entry] != keys.value(k, j)) {
                return false;
            }
        }
        return true;
    }

    private int add(long sliceEnd, int hash, BatchKeys keys, int j) {
        if (size == hashes.length) {
            grow(size * 2);
        }
        int entry = size++;
        hashes[entry] = hash;
        sliceEnds[entry] = sliceEnd;
        for (int k = 0; k < keyTypes.length; k++) {
            boolean isNull = keys.isNull(k, j);
            keyNulls[k][entry] = isNull;
            if (keyTypes[k] == AggColumnType.VARCHAR) {
                int length = isNull ? 0 : keys.end(k, j) - keys.start(k, j);
                if (poolSize + length > pool.length) {
                    pool = Arrays.copyOf(pool, Math.max(pool.length * 2, poolSize + length));
                }
                if (!isNull) {
                    System.arraycopy(keys.bytes(k), keys.start(k, j), pool, poolSize, length);
                }
                keyValues[k][entry] = poolSize;
                keyLengths[k][entry] = length;
                poolSize += length;
            } else {
                keyValues[k][entry] = isNull ? 0 : keys.value(k, j);
            }
        }
        for (int a = 0; a < accumulators; a++) {
            accValues[a][entry] = 0;
            accSet[a][entry] = false;
        }
        return entry;
    }

    private void grow(int capacity) {
        hashes = Arrays.copyOf(hashes, capacity);
        sliceEnds = Arrays.copyOf(sliceEnds, capacity);
        for (int k = 0; k < keyTypes.length; k++) {
            keyValues[k] = Arrays.copyOf(keyValues[k], capacity);
            keyNulls[k] = Arrays.copyOf(keyNulls[k], capacity);
            if (keyLengths[k] != null) {
                keyLengths[k] = Arrays.copyOf(keyLengths[k], capacity);
            }
        }
        for (int a = 0; a < accumulators; a++) {
            accValues[a] = Arrays.copyOf(accValues[a], capacity);
            accSet[a] = Arrays.copyOf(accSet[a], capacity);
        }
    }

    private void rehash(int capacity) {
        slots = new int[capacity];
        int mask = capacity - 1;
        for (int entry = 0; entry < size; entry++) {
            int slot = hashes[entry] & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = entry + 1;
        }
    }

    /** Forgets every group (after a flush); the arrays keep their capacity. */
    void clear() {
        Arrays.fill(slots, 0);
        size = 0;
        poolSize = 0;
    }

    long sliceEnd(int entry) {
        return sliceEnds[entry];
    }

    /** Writes fields [0, keys) of {@code out}, the entry's keys, as Flink's key row holds them. */
    void keysInto(int entry, BinaryRowWriter out) {
        for (int k = 0; k < keyTypes.length; k++) {
            long value = keyValues[k][entry];
            if (keyNulls[k][entry]) {
                out.setNullAt(k);
            } else if (keyTypes[k] == AggColumnType.VARCHAR) {
                strings.write(out, k, pool, (int) value, keyLengths[k][entry]);
            } else if (keyTypes[k] == AggColumnType.INT) {
                out.writeInt(k, (int) value);
            } else {
                out.writeLong(k, value);
            }
        }
    }

    long[] accValues(int accumulator) {
        return accValues[accumulator];
    }

    boolean[] accSet(int accumulator) {
        return accSet[accumulator];
    }

    /** The key values of one batch's selected rows, as the table reads them. */
    interface BatchKeys {
        boolean isNull(int key, int j);

        /** An INT or BIGINT key's value. */
        long value(int key, int j);

        /** A VARCHAR key's bytes: {@code bytes(key)[start(key, j), end(key, j))}. */
        byte[] bytes(int key);

        int start(int key, int j);

        int end(int key, int j);
    }
}
