package io.columnarkafka.format.json;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/** BOOLEAN as Flink's {@code convertToBoolean}: JSON true/false, else {@code Boolean.parseBoolean(text.trim())}. */
final class BooleanJsonReader extends FixedWidthJsonReader {
    BooleanJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    void bind(FieldVector v) {
        buffers.bind((BitVector) v);
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
        buffers.ensureRoom(count);
        ArrowAppend.setBit(buffers.values, count, value);
        ArrowAppend.setValid(buffers.validity, count++);
    }

    /** {@code parseBoolean} never fails: only reading the token's text (a string's escapes, its UTF-8) can. */
    @Override
    void checkValue(JsonTokenizer t) {
        int token = t.current();
        if (token != JsonTokenizer.VALUE_TRUE && token != JsonTokenizer.VALUE_FALSE) {
            t.prepareText();
        }
    }
}
