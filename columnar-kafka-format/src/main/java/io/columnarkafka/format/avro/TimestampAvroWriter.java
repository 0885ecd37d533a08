package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * TIMESTAMP and TIMESTAMP_LTZ (Arrow Timestamp) as an Avro long of epoch milliseconds. Flink 2.2.1's
 * converters write {@code toInstant().toEpochMilli()} for every timestamp, also where the schema says
 * {@code local-timestamp-micros} or {@code timestamp-micros}, so sub-millisecond digits are floored away.
 */
final class TimestampAvroWriter extends FixedWidthAvroWriter {
    private final TimeUnit unit;

    TimestampAvroWriter(String path, boolean nullable, TimeUnit unit) {
        super(path, nullable, 8);
        this.unit = unit;
    }

    @Override
    void write(ByteOutput out, int index) {
        long value = MemoryUtil.getLong(data + 8L * index);
        long millis;
        switch (unit) {
            case SECOND:
                if (value > Long.MAX_VALUE / 1000 || value < Long.MIN_VALUE / 1000) {
                    throw new EncodeException(path, out.row(),
                            "TIMESTAMP value " + value + " s does not fit epoch milliseconds");
                }
                millis = value * 1000;
                break;
            case MILLISECOND:
                millis = value;
                break;
            case MICROSECOND:
                millis = Math.floorDiv(value, 1000L);
                break;
            default:
                millis = Math.floorDiv(value, 1_000_000L);
                break;
        }
        AvroBinary.writeLong(out, millis);
    }
}
