package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.Digits;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * TINYINT, SMALLINT, INT, BIGINT (Arrow Int of 1, 2, 4, 8 bytes) in decimal; FLOAT and DOUBLE spelled by
 * {@link Float#toString} / {@link Double#toString} ({@code NaN}, {@code Infinity} unquoted), as Jackson's
 * CSV generator writes numbers.
 */
final class NumberCsvWriter extends FixedWidthCsvWriter {
    /** Kinds of number, fixed per column so the switch in {@link #write} always takes one branch. */
    enum Kind { INT8, INT16, INT32, INT64, FLOAT32, FLOAT64 }

    private final Kind kind;

    NumberCsvWriter(String path, Kind kind) {
        super(path, false, width(kind));
        this.kind = kind;
    }

    private static int width(Kind kind) {
        switch (kind) {
            case INT8:
                return 1;
            case INT16:
                return 2;
            case INT32:
            case FLOAT32:
                return 4;
            default:
                return 8;
        }
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
