package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.Digits;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * TINYINT, SMALLINT, INT, BIGINT (Arrow Int of 1, 2, 4, 8 bytes) in decimal; FLOAT and DOUBLE spelled by
 * {@link Float#toString} / {@link Double#toString} ({@code NaN}, {@code Infinity} unquoted), as Jackson's
 * CSV generator writes numbers.
 */
final class NumberCsvWriter extends CsvValueWriter {
    /** Kinds of number, fixed per column so the switch in {@link #write} always takes one branch. */
    enum Kind { INT8, INT16, INT32, INT64, FLOAT32, FLOAT64 }

    private final Kind kind;
    private final int width;
    private long data;

    NumberCsvWriter(String path, Kind kind) {
        super(path, false);
        this.kind = kind;
        switch (kind) {
            case INT8:
                width = 1;
                break;
            case INT16:
                width = 2;
                break;
            case INT32:
            case FLOAT32:
                width = 4;
                break;
            default:
                width = 8;
                break;
        }
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * width, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        long address = data + (long) width * index;
        switch (kind) {
            case INT8:
                Digits.writeInt(out, MemoryUtil.getByte(address));
                break;
            case INT16:
                Digits.writeInt(out, MemoryUtil.getShort(address));
                break;
            case INT32:
                Digits.writeInt(out, MemoryUtil.getInt(address));
                break;
            case INT64:
                Digits.writeLong(out, MemoryUtil.getLong(address));
                break;
            case FLOAT32:
                out.writeAscii(Float.toString(Float.intBitsToFloat(MemoryUtil.getInt(address))));
                break;
            default:
                out.writeAscii(Double.toString(Double.longBitsToDouble(MemoryUtil.getLong(address))));
                break;
        }
    }
}
