package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.DateText;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** DATE (Arrow Date DAY, days since 1970-01-01) as a quoted {@code ISO_LOCAL_DATE}. */
final class DateDayJsonWriter extends FlatJsonWriter {
    private final DateText dates = new DateText();
    private long data;

    DateDayJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 4, "data");
    }

    @Override
    long maxBytes() {
        return DateText.MAX_BYTES + 2;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        byte[] b = out.buf;
        b[p] = '"';
        p = dates.put(b, p + 1, MemoryUtil.getInt(data + 4L * index));
        b[p] = '"';
        return p + 1;
    }
}
