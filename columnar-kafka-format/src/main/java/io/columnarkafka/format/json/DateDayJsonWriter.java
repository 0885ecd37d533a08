package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.DateText;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** DATE (Arrow Date DAY, days since 1970-01-01) as a quoted {@code ISO_LOCAL_DATE}. */
final class DateDayJsonWriter extends JsonValueWriter {
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
    void write(ByteOutput out, int index) {
        out.writeByte((byte) '"');
        dates.write(out, MemoryUtil.getInt(data + 4L * index));
        out.writeByte((byte) '"');
    }
}
