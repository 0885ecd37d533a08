package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.text.TimeText;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * TIME (Arrow Time MILLISECOND, 32 bit) as a quoted {@code HH:mm:ss}: Flink formats {@code
 * LocalTime.ofSecondOfDay(millis / 1000)}, so the milliseconds are dropped and a value outside
 * {@code (-1000, 86400000)} fails.
 */
final class TimeMilliJsonWriter extends FlatJsonWriter {
    private static final int MILLIS_PER_DAY = 86_400_000;

    private long data;

    TimeMilliJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 4, "data");
    }

    @Override
    long maxBytes() {
        return 10;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        int millis = MemoryUtil.getInt(data + 4L * index);
        if (millis <= -1000 || millis >= MILLIS_PER_DAY) {
            throw new EncodeException(
                    path, out.row(), "TIME value " + millis + " ms is outside a day (0 to 86399999 ms)");
        }
        byte[] b = out.buf;
        b[p] = '"';
        p = TimeText.putTimeOfDay(b, p + 1, millis / 1000);
        b[p] = '"';
        return p + 1;
    }
}
