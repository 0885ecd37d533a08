package io.columnarkafka.format.arrow;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The full-range layout of a TIMESTAMP / TIMESTAMP_LTZ column ({@link
 * ArrowLayout.NanoTimestamps#EPOCH_MILLIS_AND_NANOS} for precision 7–9, {@link
 * ArrowLayout.NanoTimestamps#EVERY_PRECISION_MILLIS_AND_NANOS} for 0–9): Arrow FixedSizeBinary(12), each value Flink's own
 * {@code TimestampData} pair, the epoch milliseconds (int64) then the nanoseconds of the millisecond
 * (int32, 0–999,999), both little-endian as all Arrow data. Unlike Arrow's 64-bit nanoseconds it holds
 * every value of Flink's range (year 0001 .. 9999), pre-1970 and nanoseconds included, with no arithmetic
 * on the way in or out.
 */
public final class WideTimestamps {
    /** Bytes per value: 8 of epoch millis, 4 of nanos of the milli. */
    public static final int BYTE_WIDTH = 12;
    public static final ArrowType ARROW_TYPE = new ArrowType.FixedSizeBinary(BYTE_WIDTH);
    private static final int NANOS_OFFSET = 8;
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private WideTimestamps() {}

    /** True for the types this layout can carry: TIMESTAMP and TIMESTAMP_LTZ of precision 7–9. */
    public static boolean applies(LogicalType type) {
        if (type instanceof TimestampType t) {
            return t.getPrecision() > 6;
        }
        return type instanceof LocalZonedTimestampType t && t.getPrecision() > 6;
    }

    /** True for TIMESTAMP and TIMESTAMP_LTZ of any precision, the types this layout can carry in a batch. */
    public static boolean isTimestamp(LogicalType type) {
        return type instanceof TimestampType || type instanceof LocalZonedTimestampType;
    }

    /** True if {@code vector} carries timestamps in this layout (a bound column checks once per batch). */
    public static boolean carries(ValueVector vector) {
        return vector instanceof FixedSizeBinaryVector;
    }

    /** The epoch milliseconds of value {@code index} of the data buffer at {@code data}. */
    public static long millis(long data, int index) {
        return MemoryUtil.getLong(data + (long) BYTE_WIDTH * index);
    }

    /** The nanoseconds of the millisecond of value {@code index} of the data buffer at {@code data}. */
    public static int nanoOfMilli(long data, int index) {
        return MemoryUtil.getInt(data + (long) BYTE_WIDTH * index + NANOS_OFFSET);
    }

    /**
     * Stores the local date-time of {@code epochDay} and {@code nanoOfDay} at {@code index}, as Flink's {@code
     * TimestampData.fromLocalDateTime} splits it (also its value of the same instant at UTC, for TIMESTAMP_LTZ);
     * the caller made room. Every day of year 0001 .. 9999 fits without overflow.
     */
    public static void putLocal(long data, int index, long epochDay, long nanoOfDay) {
        put(data, index, epochDay * MILLIS_PER_DAY + nanoOfDay / NANOS_PER_MILLI,
                (int) (nanoOfDay % NANOS_PER_MILLI));
    }

    /** Stores one value at {@code index} of the data buffer at {@code data}; the caller made room. */
    public static void put(long data, int index, long millis, int nanoOfMilli) {
        long at = data + (long) BYTE_WIDTH * index;
        MemoryUtil.putLong(at, millis);
        MemoryUtil.putInt(at + NANOS_OFFSET, nanoOfMilli);
    }
}
