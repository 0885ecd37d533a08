package io.columnarkafka.format.json;

import io.columnarkafka.format.arrow.WideTimestamps;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;

/**
 * TIMESTAMP and TIMESTAMP_LTZ of any precision as Flink's converters read them ({@code
 * timestamp-format.standard} SQL or ISO-8601; TIMESTAMP_LTZ with a literal {@code Z}, read as UTC), stored
 * as Flink's {@code TimestampData} holds them: epoch milliseconds and nanoseconds of the millisecond ({@link
 * WideTimestamps}), every fraction digit of the text whatever the declared precision, as Flink keeps them.
 */
final class TimestampJsonReader extends FixedWidthJsonReader {
    private final boolean iso;
    private final boolean zulu;
    private final JsonTemporalText text = new JsonTemporalText();

    TimestampJsonReader(String path, boolean ignoreParseErrors, boolean iso, boolean zulu) {
        super(path, ignoreParseErrors);
        this.iso = iso;
        this.zulu = zulu;
    }

    @Override
    void bind(FieldVector v) {
        count = 0;
        buffers.bind((FixedSizeBinaryVector) v);
    }

    @Override
    void readValue(JsonTokenizer t) {
        text.parseTimestamp(t, iso, zulu);
        buffers.ensureRoom(count);
        WideTimestamps.putLocal(buffers.values, count, text.epochDay, text.nanoOfDay);
        ArrowAppend.setValid(buffers.validity, count++);
    }

    @Override
    void checkValue(JsonTokenizer t) {
        text.parseTimestamp(t, iso, zulu);
    }
}
