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
        appendValidity(true);
    }

    /** Sets this entry's validity bit and moves on: straight into the buffer while it has room, else through Arrow. */
    private void appendValidity(boolean valid) {
        if (count < validityCapacity) {
            ArrowAppend.setBit(validity, count, valid);
        } else {
            // Arrow grows the validity buffer, which moves it.
            if (valid) {
                vector.setIndexDefined(count);
            } else {
                vector.setNull(count);
            }
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
        appendValidity(false);
    }

    @Override
    void truncate(int entries) {
        count = entries;
        fields.truncate(entries);
    }
}
