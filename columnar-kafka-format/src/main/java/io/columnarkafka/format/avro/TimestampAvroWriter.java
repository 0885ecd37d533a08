package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.arrow.WideTimestamps;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * TIMESTAMP and TIMESTAMP_LTZ (Arrow Timestamp, or the {@link WideTimestamps} layout, decided per batch) as
 * an Avro long of epoch milliseconds. Flink 2.2.1's converters write {@code toInstant().toEpochMilli()} for
 * every timestamp, also where the schema says {@code local-timestamp-micros} or {@code timestamp-micros}, so
 * sub-millisecond digits are floored away (the wide layout's epoch milliseconds are that floor already).
 */
final class TimestampAvroWriter extends AvroValueWriter {
    private final TimeUnit unit;
    /** The bound batch carries the column in the {@link WideTimestamps} layout. */
    private boolean wide;
    private long data;

    TimestampAvroWriter(String path, boolean nullable, TimeUnit unit) {
        super(path, nullable);
        this.unit = unit;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        wide = WideTimestamps.carries(vector);
        data = address(vector.getDataBuffer(), (long) count * (wide ? WideTimestamps.BYTE_WIDTH : 8), "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        AvroBinary.writeLong(out, wide ? WideTimestamps.millis(data, index) : millis(out, index));
    }

    private long millis(ByteOutput out, int index) {
        long value = MemoryUtil.getLong(data + 8L * index);
        switch (unit) {
            case SECOND:
                if (value > Long.MAX_VALUE / 1000 || value < Long.MIN_VALUE / 1000) {
                    throw new EncodeException(path, out.row(),
                            "TIMESTAMP value " + value + " s does not fit epoch milliseconds");
                }
                return value * 1000;
            case MILLISECOND:
                return value;
            case MICROSECOND:
                return Math.floorDiv(value, 1000L);
            default:
                return Math.floorDiv(value, 1_000_000L);
        }
    }
}
