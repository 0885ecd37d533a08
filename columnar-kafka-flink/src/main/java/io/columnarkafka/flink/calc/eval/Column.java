package io.columnarkafka.flink.calc.eval;

import java.util.Arrays;

/**
 * The values of one node for the current batch, on the heap, indexed by the row's position in the input
 * batch. Only positions of the selection the node was evaluated for are defined. Arrays grow to the
 * largest batch seen and are reused, so steady state allocates nothing per batch.
 */
final class Column {
    final Repr repr;
    boolean[] nulls = new boolean[0];
    long[] longs = new long[0];
    long[] highs = new long[0];
    int[] nanos = new int[0];
    double[] doubles = new double[0];
    byte[] bytes = new byte[0];
    int[] starts = new int[0];
    int[] lengths = new int[0];
    /** Bytes of {@link #bytes} in use by a node that appends its strings. */
    int used;

    Column(Repr repr) {
        this.repr = repr;
    }

    /** Makes room for a batch of {@code rows} rows. */
    void ensure(int rows) {
        if (nulls.length >= rows) {
            return;
        }
        int size = Math.max(rows, nulls.length * 2);
        nulls = new boolean[size];
        switch (repr) {
            case LONG:
                longs = new long[size];
                break;
            case DOUBLE:
                doubles = new double[size];
                break;
            case DECIMAL:
                longs = new long[size];
                highs = new long[size];
                break;
            case STRING:
                starts = new int[size];
                lengths = new int[size];
                break;
            case TIMESTAMP:
                longs = new long[size];
                nanos = new int[size];
                break;
            default:
                throw new IllegalStateException(repr.name());
        }
    }

    /** Makes room to append {@code more} string bytes; returns the offset to write at. */
    int reserve(int more) {
        int needed = used + more;
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(needed, bytes.length * 2 + 64));
        }
        return used;
    }

    /** Appends {@code length} bytes of {@code from} as the string of row {@code row}. */
    void appendString(int row, byte[] from, int offset, int length) {
        int at = reserve(length);
        System.arraycopy(from, offset, bytes, at, length);
        setString(row, at, length);
    }

    /** Row {@code row} is the string at {@code start} (already in {@link #bytes}) of {@code length} bytes. */
    void setString(int row, int start, int length) {
        nulls[row] = false;
        starts[row] = start;
        lengths[row] = length;
        used = Math.max(used, start + length);
    }

    /** Copies row {@code row}'s value (null included) from {@code from}, a column of the same representation. */
    void copyRow(Column from, int row) {
        if (from.nulls[row]) {
            nulls[row] = true;
            return;
        }
        nulls[row] = false;
        switch (repr) {
            case LONG:
                longs[row] = from.longs[row];
                break;
            case DOUBLE:
                doubles[row] = from.doubles[row];
                break;
            case DECIMAL:
                longs[row] = from.longs[row];
                highs[row] = from.highs[row];
                break;
            case STRING:
                appendString(row, from.bytes, from.starts[row], from.lengths[row]);
                break;
            case TIMESTAMP:
                longs[row] = from.longs[row];
                nanos[row] = from.nanos[row];
                break;
            default:
                throw new IllegalStateException(repr.name());
        }
    }
}
