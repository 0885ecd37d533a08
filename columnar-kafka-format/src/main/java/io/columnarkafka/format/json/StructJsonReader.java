package io.columnarkafka.format.json;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

/** A nested ROW: Flink's row converter on a JSON object (anything else fails: "Illegal JSON object data..."). */
final class StructJsonReader extends JsonReader {
    private final JsonRowFields fields;
    private StructVector vector;
    /**
     * The validity buffer's address and how many entries it has bits for, while it stays put: a row's bit is set
     * straight there ({@link ArrowAppend}), as Arrow's {@code setIndexDefined} would after checking capacity and
     * bounds on every row.
     */
    private long validity;
    private long validityCapacity;

    StructJsonReader(String path, boolean ignoreParseErrors, JsonRowFields fields) {
        super(path, ignoreParseErrors);
        this.fields = fields;
    }

    @Override
    void bind(FieldVector v) {
        vector = (StructVector) v;
        count = 0;
        validityChanged();
        for (int i = 0; i < fields.arity(); i++) {
            fields.bind(i, (FieldVector) vector.getChildByOrdinal(i));
        }
    }

    private void validityChanged() {
        validity = vector.getValidityBufferAddress();
        validityCapacity = vector.getValidityBuffer().capacity() * 8;
    }

    @Override
    void readValue(JsonTokenizer t) {
        if (t.current() != JsonTokenizer.START_OBJECT) {
            throw new JsonReadException("Illegal JSON object data...");
        }
        fields.readObject(t, count);
        if (count < validityCapacity) {
            ArrowAppend.setValid(validity, count);
        } else {
            vector.setIndexDefined(count); // grows the validity buffer
            validityChanged();
        }
        count++;
    }

    /** With checking fields ({@link JsonReaderPlan}): the object's fields checked, nothing written. */
    @Override
    void checkValue(JsonTokenizer t) {
        if (t.current() != JsonTokenizer.START_OBJECT) {
            throw new JsonReadException("Illegal JSON object data...");
        }
        fields.readObject(t, 0);
    }

    @Override
    void appendNull() {
        fields.appendNulls();
        if (count < validityCapacity) {
            ArrowAppend.setNull(validity, count);
        } else {
            vector.setNull(count); // grows the validity buffer
            validityChanged();
        }
        count++;
    }

    @Override
    void truncate(int entries) {
        count = entries;
        fields.truncate(entries);
    }
}
