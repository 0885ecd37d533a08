package io.columnarkafka.format.json;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMilliVector;

/**
 * TIME as Flink's {@code convertToTime}: {@code HH:mm:ss} with an optional fraction, of which Flink keeps
 * only whole seconds ({@code toSecondOfDay() * 1000}).
 */
final class TimeJsonReader extends FixedWidthJsonReader {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final JsonTemporalText text = new JsonTemporalText();

    TimeJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    void bind(FieldVector v) {
        buffers.bind((TimeMilliVector) v);
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        text.parseTime(t);
        buffers.ensureRoom(count);
        MemoryUtil.putInt(buffers.values + 4L * count, (int) (text.nanoOfDay / NANOS_PER_SECOND) * 1000);
        ArrowAppend.setValid(buffers.validity, count++);
    }

    @Override
    void checkValue(JsonTokenizer t) {
        text.parseTime(t);
    }
}
