package io.columnarkafka.flink.table;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The grouping key columns of one batch's selected rows, read once per batch into flat arrays (INT and BIGINT as
 * longs; VARCHAR as ranges of the column's data buffer, copied once), and their hashes, column by column: what a
 * vectorised local aggregate looks its groups up by in {@link GroupTable}.
 */
final class BatchKeyColumns implements GroupTable.BatchKeys {
    /** What a null key mixes into its row's hash. */
    private static final long NULL_HASH = 0x5bd1e995L;

    private final AggColumnType[] types;
    private final int[] columns;
    private final boolean[][] nulls;
    private final long[][] values;
    private final byte[][] bytes;
    private final int[][] starts;
    private final int[][] ends;

    /** The keys of input columns {@code columns}, of {@code types}. */
    BatchKeyColumns(int[] columns, AggColumnType[] types) {
        this.columns = columns.clone();
        this.types = types.clone();
        int n = types.length;
        nulls = new boolean[n][0];
        values = new long[n][0];
        bytes = new byte[n][0];
        starts = new int[n][0];
        ends = new int[n][0];
    }

    /** Reads the keys of the batch's first {@code count} selected rows ({@code selection} null: all rows). */
    void read(VectorSchemaRoot root, int[] selection, int count) {
        for (int k = 0; k < types.length; k++) {
            FieldVector vector = root.getVector(columns[k]);
            if (nulls[k].length < count) {
                nulls[k] = new boolean[count];
                values[k] = new long[count];
                starts[k] = new int[count];
                ends[k] = new int[count];
            }
            for (int j = 0; j < count; j++) {
                nulls[k][j] = vector.isNull(row(selection, j));
            }
            switch (types[k]) {
                case INT -> {
                    ArrowBuf data = vector.getDataBuffer();
                    for (int j = 0; j < count; j++) {
                        values[k][j] = data.getInt((long) row(selection, j) * IntVector.TYPE_WIDTH);
                    }
                }
                case BIGINT -> {
                    ArrowBuf data = vector.getDataBuffer();
                    for (int j = 0; j < count; j++) {
                        values[k][j] = data.getLong((long) row(selection, j) * BigIntVector.TYPE_WIDTH);
                    }
                }
                case VARCHAR -> readStrings(k, vector, selection, count);
            }
        }
    }

    /**
     * Mixes each row's keys into {@code hashes[0, count)}, which hold the rows' seeds (a window aggregate's slice
     * end, a group aggregate's 0).
     */
    void hash(int[] hashes, int count) {
        for (int k = 0; k < types.length; k++) {
            boolean[] isNull = nulls[k];
            if (types[k] == AggColumnType.VARCHAR) {
                byte[] data = bytes[k];
                int[] from = starts[k];
                int[] to = ends[k];
                for (int j = 0; j < count; j++) {
                    long h = isNull[j] ? NULL_HASH : bytesHash(data, from[j], to[j]);
                    hashes[j] = (int) mix(hashes[j] * 31L + h);
                }
            } else {
                long[] value = values[k];
                for (int j = 0; j < count; j++) {
                    long h = isNull[j] ? NULL_HASH : value[j];
                    hashes[j] = (int) mix(hashes[j] * 31L + h);
                }
            }
        }
    }

    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    static long bytesHash(byte[] bytes, int start, int end) {
        long h = end - start;
        for (int i = start; i < end; i++) {
            h = h * 31 + bytes[i];
        }
        return h;
    }

    static int row(int[] selection, int j) {
        return selection == null ? j : selection[j];
    }

    /** The column's data buffer copied once; each row's bytes are a range of it. */
    private void readStrings(int k, FieldVector vector, int[] selection, int count) {
        int rows = vector.getValueCount();
        ArrowBuf offsets = vector.getOffsetBuffer();
        boolean large = vector instanceof BaseLargeVariableWidthVector;
        long length = rows == 0 ? 0 : startOffset(offsets, large, rows);
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a string column of " + length + " bytes in one batch");
        }
        if (bytes[k].length < length) {
            bytes[k] = new byte[(int) Math.max(length, bytes[k].length * 2L)];
        }
        vector.getDataBuffer().getBytes(0, bytes[k], 0, (int) length);
        for (int j = 0; j < count; j++) {
            int row = row(selection, j);
            starts[k][j] = (int) startOffset(offsets, large, row);
            ends[k][j] = (int) startOffset(offsets, large, row + 1);
        }
    }

    private static long startOffset(ArrowBuf offsets, boolean large, int index) {
        return large
                ? offsets.getLong((long) index * BaseLargeVariableWidthVector.OFFSET_WIDTH)
                : offsets.getInt((long) index * BaseVariableWidthVector.OFFSET_WIDTH);
    }

    @Override
    public boolean isNull(int key, int j) {
        return nulls[key][j];
    }

    @Override
    public long value(int key, int j) {
        return values[key][j];
    }

    @Override
    public byte[] bytes(int key) {
        return bytes[key];
    }

    @Override
    public int start(int key, int j) {
        return starts[key][j];
    }

    @Override
    public int end(int key, int j) {
        return ends[key][j];
    }
}
