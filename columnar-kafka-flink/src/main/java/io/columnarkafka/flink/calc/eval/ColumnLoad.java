package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.format.arrow.WideTimestamps;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * Reads an input column, or a field nested in ROW columns, into a {@link Column}: once per batch, before the
 * node that needs it runs, for every row any later reader may ask for ({@link CalcPlan}: the input selection
 * for the condition's loads, the rows that passed for a projection's); reading never fails, so reading rows a
 * branch will not use is harmless. A nested field is null where any enclosing row is null, as Flink's field
 * access is.
 */
final class ColumnLoad extends Node {
    private final int column;
    /** Child index at each ROW level below the column; empty for the column itself. */
    private final int[] path;
    /** The batch this load has read (the plan loads first, for all later readers). */
    private long loadedGeneration = -1;
    private final ValidityBits validity = new ValidityBits();

    ColumnLoad(int column, int[] path, LogicalType type) {
        super(type);
        this.column = column;
        this.path = path;
    }

    int[] path() {
        return path.clone();
    }

    /** The vector this node reads, and, when {@code parents} is not null, the ROW vectors above it. */
    FieldVector vector(InputBatch batch, ValueVector[] parents) {
        FieldVector vector = batch.column(column);
        for (int level = 0; level < path.length; level++) {
            if (parents != null) {
                parents[level] = vector;
            }
            vector = (FieldVector) ((StructVector) vector).getChildByOrdinal(path[level]);
        }
        return vector;
    }

    /**
     * The plan reads a load for the widest selection of the batch that will ask for it before any node reads it;
     * every later selection is a subset, so later evaluations of the batch reuse those values.
     */
    @Override
    boolean holdsBatch(InputBatch batch) {
        return loadedGeneration == batch.generation();
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        loadedGeneration = batch.generation();
        ValueVector[] parents = new ValueVector[path.length];
        FieldVector vector = vector(batch, parents);
        boolean[] nulls = out.nulls;
        for (int k = 0; k < n; k++) {
            nulls[sel[k]] = false;
        }
        markNulls(vector, batch.rowCount(), sel, n);
        for (ValueVector parent : parents) {
            markNulls(parent, batch.rowCount(), sel, n);
        }
        read(vector, sel, n);
    }

    /** Marks the selected rows that are null in {@code vector} (of a batch of {@code rows} rows); none if it has none. */
    private void markNulls(ValueVector vector, int rows, int[] sel, int n) {
        if (vector.getNullCount() == 0) {
            return;
        }
        ValidityBits bits = validity.read(vector, rows);
        boolean[] nulls = out.nulls;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (bits.isNull(i)) {
                nulls[i] = true;
            }
        }
    }

    /**
     * Reads the selected values straight from the data buffer: the vectors' checked getters throw on a null
     * slot, and a null slot's bytes are harmless (its null flag is already set).
     */
    private void read(FieldVector vector, int[] sel, int n) {
        if (vector instanceof BigIntVector || vector instanceof TimeStampMilliVector) {
            readFixed(vector.getDataBuffer(), 8, sel, n);
        } else if (vector instanceof IntVector || vector instanceof DateDayVector) {
            readFixed(vector.getDataBuffer(), 4, sel, n);
        } else if (vector instanceof SmallIntVector) {
            readFixed(vector.getDataBuffer(), 2, sel, n);
        } else if (vector instanceof TinyIntVector) {
            readFixed(vector.getDataBuffer(), 1, sel, n);
        } else if (vector instanceof BitVector v) {
            ArrowBuf data = v.getDataBuffer();
            for (int k = 0; k < n; k++) {
                out.longs[sel[k]] = BitVectorHelper.get(data, sel[k]);
            }
        } else if (vector instanceof Float8Vector v) {
            ArrowBuf data = v.getDataBuffer();
            double[] doubles = out.doubles;
            for (int k = 0; k < n; k++) {
                doubles[sel[k]] = data.getDouble((long) sel[k] * 8);
            }
        } else if (vector instanceof DecimalVector v) {
            readDecimal(v, sel, n);
        } else if (vector instanceof BaseVariableWidthVector v) {
            readStrings(v, sel, n);
        } else if (vector instanceof BaseLargeVariableWidthVector v) {
            readLargeStrings(v, sel, n);
        } else if (vector instanceof TimeStampMicroVector v) {
            readTimestamps(v, 1_000L, sel, n);
        } else if (vector instanceof TimeStampNanoVector v) {
            readTimestamps(v, 1_000_000L, sel, n);
        } else if (WideTimestamps.carries(vector)) {
            readWideTimestamps(vector.getDataBuffer(), sel, n);
        } else {
            throw new IllegalStateException("input column " + column + " of type " + type.asSummaryString()
                    + " is an Arrow " + vector.getField().getType() + ", which the calc does not read");
        }
        if (vector instanceof TimeStampMilliVector) {
            for (int k = 0; k < n; k++) {
                out.nanos[sel[k]] = 0;
            }
        }
    }

    /** Signed little-endian integers of {@code width} bytes. */
    private void readFixed(ArrowBuf data, int width, int[] sel, int n) {
        long[] longs = out.longs;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            long at = (long) i * width;
            switch (width) {
                case 8:
                    longs[i] = data.getLong(at);
                    break;
                case 4:
                    longs[i] = data.getInt(at);
                    break;
                case 2:
                    longs[i] = data.getShort(at);
                    break;
                default:
                    longs[i] = data.getByte(at);
                    break;
            }
        }
    }

    private void readDecimal(DecimalVector v, int[] sel, int n) {
        ArrowBuf data = v.getDataBuffer();
        long[] lows = out.longs;
        long[] highs = out.highs;
        for (int k = 0; k < n; k++) {
            long at = (long) sel[k] * DecimalVector.TYPE_WIDTH;
            lows[sel[k]] = data.getLong(at);
            highs[sel[k]] = data.getLong(at + 8);
        }
    }

    /** One bulk copy of the batch's string bytes; rows then point into it. */
    private void readStrings(BaseVariableWidthVector v, int[] sel, int n) {
        ArrowBuf offsets = v.getOffsetBuffer();
        int rows = v.getValueCount();
        int end = rows == 0 ? 0 : offsets.getInt((long) rows * BaseVariableWidthVector.OFFSET_WIDTH);
        copyData(v.getDataBuffer(), end);
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            int start = offsets.getInt((long) i * BaseVariableWidthVector.OFFSET_WIDTH);
            out.starts[i] = start;
            out.lengths[i] = offsets.getInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH) - start;
        }
    }

    private void readLargeStrings(BaseLargeVariableWidthVector v, int[] sel, int n) {
        ArrowBuf offsets = v.getOffsetBuffer();
        int rows = v.getValueCount();
        long end = rows == 0 ? 0 : offsets.getLong((long) rows * BaseLargeVariableWidthVector.OFFSET_WIDTH);
        if (end > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("input column " + column + " holds " + end
                    + " string bytes in one batch; the calc reads at most 2 GiB per batch");
        }
        copyData(v.getDataBuffer(), (int) end);
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            long start = offsets.getLong((long) i * BaseLargeVariableWidthVector.OFFSET_WIDTH);
            out.starts[i] = (int) start;
            out.lengths[i] =
                    (int) (offsets.getLong((long) (i + 1) * BaseLargeVariableWidthVector.OFFSET_WIDTH) - start);
        }
    }

    private void copyData(ArrowBuf data, int length) {
        out.used = 0;
        int at = out.reserve(length);
        data.getBytes(0, out.bytes, at, length);
        out.used = length;
    }

    /** The {@link WideTimestamps} layout: Flink's epoch millis and nanos of the milli, as they are. */
    private void readWideTimestamps(ArrowBuf data, int[] sel, int n) {
        long[] millis = out.longs;
        int[] nanos = out.nanos;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            long at = (long) i * WideTimestamps.BYTE_WIDTH;
            millis[i] = data.getLong(at);
            nanos[i] = data.getInt(at + Long.BYTES);
        }
    }

    /** MICROSECOND and NANOSECOND values ({@code unitsPerMilli} per millisecond) as epoch millis + nanos of the milli. */
    private void readTimestamps(BaseFixedWidthVector v, long unitsPerMilli, int[] sel, int n) {
        ArrowBuf data = v.getDataBuffer();
        long[] millis = out.longs;
        int[] nanos = out.nanos;
        long nanosPerUnit = 1_000_000L / unitsPerMilli;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            long value = data.getLong((long) i * 8);
            millis[i] = Math.floorDiv(value, unitsPerMilli);
            nanos[i] = (int) (Math.floorMod(value, unitsPerMilli) * nanosPerUnit);
        }
    }
}
