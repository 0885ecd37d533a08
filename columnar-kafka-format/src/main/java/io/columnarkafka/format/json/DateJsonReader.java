package io.columnarkafka.format.json;

import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;

/** DATE as Flink's {@code convertToDate}: {@code ISO_LOCAL_DATE} of the token's text, as an int epoch day. */
final class DateJsonReader extends JsonReader {
    private final JsonTemporalText text = new JsonTemporalText();
    private DateDayVector vector;

    DateJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    void bind(FieldVector v) {
        vector = (DateDayVector) v;
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        text.parseDate(t);
        // Flink casts the long epoch day to int as it is.
        vector.setSafe(count++, (int) text.epochDay);
    }

    @Override
    void appendNull() {
        vector.setNull(count++);
    }

    @Override
    void truncate(int entries) {
        count = entries;
    }
}
