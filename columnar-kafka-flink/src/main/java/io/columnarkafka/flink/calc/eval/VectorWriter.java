package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.format.arrow.WideTimestamps;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Writes a node's {@link Column} into a new Arrow vector of the batch's row count, in the layout {@code
 * ArrowLayout} gives the node's type. Only selected rows are written; the others stay null (the output
 * batch carries the selection, so no reader looks at them).
 */
final class VectorWriter {
    private VectorWriter() {}

    static void write(Column c, LogicalType type, FieldVector vector,
            int[] sel, int n, int rowCount) {
        if (vector instanceof VarCharVector v) {
            writeStrings(c, v, sel, n, rowCount);
            return;
        }
        vector.setInitialCapacity(rowCount);
        vector.allocateNew();
        if (vector instanceof BigIntVector v) {
            for (int k = 0; k < n; k++) {
                int i = sel[k];
                if (!c.nulls[i]) {
                    v.set(i, c.longs[i]);
                }
            }
        } else if (vector instanceof IntVector v) {
            for (int k = 0; k < n; k++) {
                int i = sel[k];
                if (!c.nulls[i]) {
                    v.set(i, (int) c.longs[i]);
                }
            }
        } else if (vector instanceof SmallIntVector v) {
            for (int k = 0; k < n; k++) {
                int i = sel[k];
                if (!c.nulls[i]) {
                    v.set(i, (short) c.longs[i]);
                }
            }
        } else if (vector instanceof TinyIntVector v) {
            for (int k = 0; k < n; k++) {
                int i = sel[k];
                if (!c.nulls[i]) {
                    v.set(i, (byte) c.longs[i]);
                }
            }
        } else if (vector instanceof DateDayVector v) {
            for (int k = 0; k < n; k++) {
                int i = sel[k];
                if (!c.nulls[i]) {
                    v.set(i, (int) c.longs[i]);
                }
            }
        } else if (vector instanceof BitVector v) {
            for (int k = 0; k < n; k++) {
                int i = sel[k];
                if (!c.nulls[i]) {
                    v.set(i, (int) c.longs[i]);
                }
            }
        } else if (vector instanceof Float8Vector v) {
            for (int k = 0; k < n; k++) {
                int i = sel[k];
                if (!c.nulls[i]) {
                    v.set(i, c.doubles[i]);
                }
            }
        } else if (vector instanceof DecimalVector v) {
            writeDecimals(c, v, sel, n);
        } else if (vector instanceof TimeStampVector v) {
            writeTimestamps(c, ((TimestampType) type).getPrecision(), v, sel, n);
        } else if (WideTimestamps.carries(vector)) {
            writeWideTimestamps(c, vector, sel, n);
        } else {
            throw new IllegalStateException("no writer for " + vector.getField());
        }
        vector.setValueCount(rowCount);
    }

    /**
     * The selected rows' bytes, back to back, into a data buffer of exactly their size, and every row's end offset
     * (a row not selected or null is empty); {@code sel} ascends, as every selection does.
     */
    private static void writeStrings(Column c, VarCharVector v, int[] sel, int n, int rowCount) {
        long size = 0;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (!c.nulls[i]) {
                size += c.lengths[i];
            }
        }
        v.allocateNew(Math.max(size, 1), rowCount);
        ArrowBuf offsets = v.getOffsetBuffer();
        ArrowBuf data = v.getDataBuffer();
        ArrowBuf validity = v.getValidityBuffer();
        int end = 0;
        int row = 0; // rows [0, row) have their end offsets
        offsets.setInt(0, 0);
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            for (; row < i; row++) {
                offsets.setInt((long) (row + 1) * VarCharVector.OFFSET_WIDTH, end);
            }
            if (!c.nulls[i]) {
                data.setBytes(end, c.bytes, c.starts[i], c.lengths[i]);
                end += c.lengths[i];
                BitVectorHelper.setBit(validity, i);
            }
            offsets.setInt((long) (i + 1) * VarCharVector.OFFSET_WIDTH, end);
            row = i + 1;
        }
        for (; row < rowCount; row++) {
            offsets.setInt((long) (row + 1) * VarCharVector.OFFSET_WIDTH, end);
        }
        v.setLastSet(rowCount - 1);
        v.setValueCount(rowCount);
    }

    private static void writeDecimals(Column c, DecimalVector v, int[] sel, int n) {
        ArrowBuf data = v.getDataBuffer();
        ArrowBuf validity = v.getValidityBuffer();
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (!c.nulls[i]) {
                long at = (long) i * DecimalVector.TYPE_WIDTH;
                data.setLong(at, c.longs[i]);
                data.setLong(at + 8, c.highs[i]);
                BitVectorHelper.setBit(validity, i);
            }
        }
    }

    /**
     * Arrow's nanosecond timestamps are one int64 (1677-09-21 .. 2262-04-11); Flink's TIMESTAMP(7..9) reaches
     * further, so a value outside fails the batch instead of wrapping.
     */
    private static long epochNanos(long millis, int nanoOfMillisecond) {
        try {
            return Math.addExact(Math.multiplyExact(millis, 1_000_000L), nanoOfMillisecond);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the TIMESTAMP value at epoch millisecond " + millis + " is outside"
                    + " the range of Arrow's nanosecond timestamps (1677-09-21 .. 2262-04-11)", e);
        }
    }

    /** Epoch millis and nanos of the millisecond as they are, the {@link WideTimestamps} layout. */
    private static void writeWideTimestamps(Column c, FieldVector v, int[] sel, int n) {
        ArrowBuf data = v.getDataBuffer();
        ArrowBuf validity = v.getValidityBuffer();
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (!c.nulls[i]) {
                WideTimestamps.put(data.memoryAddress(), i, c.longs[i], c.nanos[i]);
                BitVectorHelper.setBit(validity, i);
            }
        }
    }

    /** Epoch millis and nanos of the millisecond, to the Arrow unit {@code ArrowLayout} picks for the precision. */
    private static void writeTimestamps(Column c, int precision, TimeStampVector v, int[] sel, int n) {
        ArrowBuf data = v.getDataBuffer();
        ArrowBuf validity = v.getValidityBuffer();
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (c.nulls[i]) {
                continue;
            }
            long millis = c.longs[i];
            long value;
            if (precision <= 3) {
                value = millis;
            } else if (precision <= 6) {
                value = millis * 1_000L + c.nanos[i] / 1_000;
            } else {
                value = epochNanos(millis, c.nanos[i]);
            }
            data.setLong((long) i * 8, value);
            BitVectorHelper.setBit(validity, i);
        }
    }
}
