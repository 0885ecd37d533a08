package io.columnarkafka.format.json;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

/** A nested ROW: Flink's row converter on a JSON object (anything else fails: "Illegal JSON object data..."). */
final class StructJsonReader extends JsonReader {
    private final JsonRowFields fields;
    private StructVector vector;

    StructJsonReader(String path, boolean ignoreParseErrors, JsonRowFields fields) {
        super(path, ignoreParseErrors);
        this.fields = fields;
    }

    @Override
    void bind(FieldVector v) {
        vector = (StructVector) v;
        count = 0;
        for (int i = 0; i < fields.arity(); i++) {
            fields.bind(i, (FieldVector) vector.getChildByOrdinal(i));
        }
    }

    @Override
    void readValue(JsonTokenizer t) {
        if (t.current() != JsonTokenizer.START_OBJECT) {
            throw new JsonReadException("Illegal JSON object data...");
        }
        fields.readObject(t, count);
        vector.setIndexDefined(count++);
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
        vector.setNull(count++);
    }

    @Override
    void truncate(int entries) {
        count = entries;
        fields.truncate(entries);
    }
}
