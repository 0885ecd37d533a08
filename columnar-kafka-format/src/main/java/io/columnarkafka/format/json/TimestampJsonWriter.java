package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.WideTimestamps;
import io.columnarkafka.format.text.TimestampText;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * TIMESTAMP and TIMESTAMP_LTZ (Arrow Timestamp in any unit) as a quoted string: {@link TimestampText}
 * with {@code ' '} (SQL) or {@code 'T'} (ISO-8601); TIMESTAMP as Flink's {@code
 * TimestampData.toLocalDateTime()}, TIMESTAMP_LTZ as its instant at UTC with a {@code Z} suffix. A
 * precision 7–9 column may come in the {@link WideTimestamps} layout instead, decided per batch.
 */
final class TimestampJsonWriter extends FlatJsonWriter {
    private final TimestampText text;
    private long data;
    /** The bound batch carries the column in the {@link WideTimestamps} layout. */
    private boolean wide;

    TimestampJsonWriter(String path, TimeUnit unit, boolean utc, boolean iso) {
        super(path);
        char separator = iso ? 'T' : ' ';
        this.text = utc
                ? TimestampText.instantAtUtc(path, unit, separator)
                : TimestampText.localDateTime(path, unit, separator, false);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        wide = WideTimestamps.carries(vector);
        data = address(vector.getDataBuffer(), (long) count * (wide ? WideTimestamps.BYTE_WIDTH : 8), "data");
    }

    @Override
    long maxBytes() {
        return TimestampText.MAX_BYTES + 2;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        out.buf[p] = '"';
        p = wide
                ? text.put(out, p + 1, WideTimestamps.millis(data, index), WideTimestamps.nanoOfMilli(data, index))
                : text.put(out, p + 1, MemoryUtil.getLong(data + 8L * index));
        out.buf[p] = '"';
        return p + 1;
    }
}
