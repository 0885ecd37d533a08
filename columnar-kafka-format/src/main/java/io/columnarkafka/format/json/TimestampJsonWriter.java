package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.TimestampText;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * TIMESTAMP and TIMESTAMP_LTZ (Arrow Timestamp in any unit) as a quoted string: {@link TimestampText}
 * with {@code ' '} (SQL) or {@code 'T'} (ISO-8601); TIMESTAMP as Flink's {@code
 * TimestampData.toLocalDateTime()}, TIMESTAMP_LTZ as its instant at UTC with a {@code Z} suffix.
 */
final class TimestampJsonWriter extends FlatJsonWriter {
    private final TimestampText text;
    private long data;

    TimestampJsonWriter(String path, TimeUnit unit, boolean utc, boolean iso) {
        super(path);
        char separator = iso ? 'T' : ' ';
        this.text = utc
                ? TimestampText.instantAtUtc(path, unit, separator)
                : TimestampText.localDateTime(path, unit, separator, false);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 8, "data");
    }

    @Override
    long maxBytes() {
        return TimestampText.MAX_BYTES + 2;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        out.buf[p] = '"';
        p = text.put(out, p + 1, MemoryUtil.getLong(data + 8L * index));
        out.buf[p] = '"';
        return p + 1;
    }
}
