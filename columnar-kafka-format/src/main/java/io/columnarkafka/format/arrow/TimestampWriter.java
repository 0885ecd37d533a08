package io.columnarkafka.format.arrow;

import org.apache.arrow.vector.TimeStampVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;

/**
 * TIMESTAMP(p) and TIMESTAMP_LTZ(p): Flink's epoch milliseconds plus nanoseconds of the millisecond,
 * converted to the Arrow unit of {@link ArrowLayout#timeUnit}. Seconds round towards negative infinity
 * (1969-12-31 23:59:59.5 is second -1), as every finer unit is exact. A nanosecond timestamp outside
 * 1677-09-21 .. 2262-04-11 does not fit Arrow's 64 bits and is rejected rather than wrapped.
 */
final class TimestampWriter extends FieldWriter<TimeStampVector> {
    private static final long NANOS_PER_MILLI = 1_000_000L;

    /** Epoch value in the column's unit; chosen once per column. */
    private interface Unit {
        long of(TimestampData timestamp);
    }

    private final int precision;
    private final Unit unit;

    TimestampWriter(String path, TimeStampVector vector, int precision) {
        super(path, vector);
        this.precision = precision;
        this.unit = switch (ArrowLayout.timeUnit(precision)) {
            case SECOND -> t -> Math.floorDiv(t.getMillisecond(), 1000L);
            case MILLISECOND -> TimestampData::getMillisecond;
            case MICROSECOND -> t -> t.getMillisecond() * 1000L + t.getNanoOfMillisecond() / 1000;
            case NANOSECOND -> this::nanos;
        };
    }

    @Override
    void writeValue(RowData row, int pos, int index) {
        vector.setSafe(index, unit.of(row.getTimestamp(pos, precision)));
    }

    @Override
    void writeValue(ArrayData array, int pos, int index) {
        vector.setSafe(index, unit.of(array.getTimestamp(pos, precision)));
    }

    private long nanos(TimestampData timestamp) {
        long millis = timestamp.getMillisecond();
        long nanoOfMilli = timestamp.getNanoOfMillisecond();
        // Before 1970 borrow one millisecond first, so the product overflows only if the sum does.
        long borrow = millis < 0 ? 1 : 0;
        try {
            return Math.addExact(
                    Math.multiplyExact(millis + borrow, NANOS_PER_MILLI), nanoOfMilli - borrow * NANOS_PER_MILLI);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("column '" + path + "': timestamp " + timestamp
                    + " is outside the range of Arrow nanosecond timestamps (1677-09-21 .. 2262-04-11)");
        }
    }
}
