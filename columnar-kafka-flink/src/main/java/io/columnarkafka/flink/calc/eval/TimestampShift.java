package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/**
 * A TIMESTAMP plus or minus a day-time INTERVAL literal, as Flink's generated code computes it:
 * {@code TimestampData.fromEpochMillis(ts.getMillisecond() ± millis, ts.getNanoOfMillisecond())} (Java
 * {@code long} arithmetic, so an overflow wraps there too); null where the timestamp is null.
 */
final class TimestampShift extends UnaryNode {
    /** The interval in milliseconds, negated for a minus. */
    private final long shiftMillis;

    TimestampShift(Node timestamp, long shiftMillis, LogicalType type) {
        super(timestamp, type);
        this.shiftMillis = shiftMillis;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        boolean[] inNulls = in.nulls;
        long[] inMillis = in.longs;
        int[] inNanos = in.nanos;
        boolean[] nulls = out.nulls;
        long[] millis = out.longs;
        int[] nanos = out.nanos;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            nulls[i] = inNulls[i];
            millis[i] = inMillis[i] + shiftMillis;
            nanos[i] = inNanos[i];
        }
    }
}
