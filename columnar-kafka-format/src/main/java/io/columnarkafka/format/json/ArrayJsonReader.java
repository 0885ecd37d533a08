package io.columnarkafka.format.json;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * ARRAY as Flink's array converter: a JSON array (anything else fails: "Illegal JSON array data..."),
 * each token up to the next {@code END_ARRAY} read as an element, a null element kept as null.
 */
final class ArrayJsonReader extends JsonReader {
    private final JsonReader element;
    private ListVector vector;

    ArrayJsonReader(String path, boolean ignoreParseErrors, JsonReader element) {
        super(path, ignoreParseErrors);
        this.element = element;
    }

    @Override
    void bind(FieldVector v) {
        vector = (ListVector) v;
        count = 0;
        element.bind(vector.getDataVector());
    }

    @Override
    void readValue(JsonTokenizer t) {
        if (t.current() != JsonTokenizer.START_ARRAY) {
            throw new JsonReadException("Illegal JSON array data...");
        }
        int index = count;
        int start = vector.startNewValue(index);
        while (nextElement(t)) {
            element.read(t);
        }
        vector.endValue(index, element.count - start);
        count++;
    }

    /** With a checking element reader ({@link JsonReaderPlan}): every element checked, nothing written. */
    @Override
    void checkValue(JsonTokenizer t) {
        if (t.current() != JsonTokenizer.START_ARRAY) {
            throw new JsonReadException("Illegal JSON array data...");
        }
        while (nextElement(t)) {
            element.read(t);
        }
    }

    /** Moves to the next element; false at the array's end. */
    private static boolean nextElement(JsonTokenizer t) {
        int token = t.next();
        if (token == JsonTokenizer.END_ARRAY) {
            return false;
        }
        if (token == JsonTokenizer.NONE && t.atEnd()) {
            // Flink would loop here forever; see JsonTokenizer.atEnd.
            throw JsonReadException.pastEnd("an array");
        }
        return true;
    }

    @Override
    void appendNull() {
        vector.setNull(count++);
    }

    @Override
    void truncate(int entries) {
        count = entries;
        element.truncate(vector.getOffsetBuffer().getInt((long) entries * ListVector.OFFSET_WIDTH));
        // Only ever lowered: a null entry (setNull) does not advance it, and the offsets it skips are filled later.
        vector.setLastSet(Math.min(vector.getLastSet(), entries - 1));
    }
}
