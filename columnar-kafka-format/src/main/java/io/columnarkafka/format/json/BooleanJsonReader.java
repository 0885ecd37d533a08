package io.columnarkafka.format.json;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/** BOOLEAN as Flink's {@code convertToBoolean}: JSON true/false, else {@code Boolean.parseBoolean(text.trim())}. */
final class BooleanJsonReader extends JsonReader {
    private BitVector vector;

    BooleanJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    void bind(FieldVector v) {
        vector = (BitVector) v;
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        int token = t.current();
        boolean value;
        if (token == JsonTokenizer.VALUE_TRUE) {
            value = true;
        } else if (token == JsonTokenizer.VALUE_FALSE) {
            value = false;
        } else {
            // Any other token, an object or array included (Flink reads "{" and stays on it).
            value = Boolean.parseBoolean(t.text().trim());
        }
        vector.setSafe(count++, value ? 1 : 0);
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
