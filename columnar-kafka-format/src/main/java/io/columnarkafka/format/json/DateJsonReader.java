package io.columnarkafka.format.json;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;

/** DATE as Flink's {@code convertToDate}: {@code ISO_LOCAL_DATE} of the token's text, as an int epoch day. */
final class DateJsonReader extends FixedWidthJsonReader {
    private final JsonTemporalText text = new JsonTemporalText();

    DateJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    void bind(FieldVector v) {
        buffers.bind((DateDayVector) v);
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        text.parseDate(t);
        // Flink casts the long epoch day to int as it is.
        buffers.ensureRoom(count);
        MemoryUtil.putInt(buffers.values + 4L * count, (int) text.epochDay);
        ArrowAppend.setValid(buffers.validity, count++);
    }

    @Override
    void checkValue(JsonTokenizer t) {
        text.parseDate(t);
    }
}
