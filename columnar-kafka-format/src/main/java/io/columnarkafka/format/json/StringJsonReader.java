package io.columnarkafka.format.json;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * CHAR and VARCHAR as Flink's {@code convertToString} reads them: an object or array becomes its compact
 * JSON text (Jackson's tree {@code toString()}, see {@link JsonTreeText}); any other token its text (a
 * number as spelled, {@code true}, a field name after a value of the wrong shape). The UTF-8 bytes stored
 * are those of Flink's {@code StringData}: a plain string's bytes are copied straight from the record, one
 * with escapes is decoded straight into UTF-8 ({@link JsonTokenizer#prepareUtf8()}); any other decoded
 * string is encoded as Flink does, an unpaired surrogate becoming {@code ?}.
 */
final class StringJsonReader extends JsonReader {
    private final boolean bigDecimalFloats;
    private BaseVariableWidthVector vector;

    /**
     * @param bigDecimalFloats Flink's mapper reads floats in a tree as {@code BigDecimal} when the row
     *     type has a DECIMAL anywhere ({@code USE_BIG_DECIMAL_FOR_FLOATS}), which changes their text
     */
    StringJsonReader(String path, boolean ignoreParseErrors, boolean bigDecimalFloats) {
        super(path, ignoreParseErrors);
        this.bigDecimalFloats = bigDecimalFloats;
    }

    @Override
    void bind(FieldVector v) {
        vector = (BaseVariableWidthVector) v;
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        int token = t.current();
        if (token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY) {
            byte[] tree = JsonTreeText.read(t, bigDecimalFloats).getBytes(StandardCharsets.UTF_8);
            vector.setSafe(count++, tree, 0, tree.length);
        } else if (t.prepareUtf8()) {
            vector.setSafe(count++, t.textBuffer(), t.textStart(), t.textEnd() - t.textStart());
        } else {
            byte[] bytes = t.text().getBytes(StandardCharsets.UTF_8);
            vector.setSafe(count++, bytes, 0, bytes.length);
        }
    }

    @Override
    void appendNull() {
        vector.setNull(count++);
    }

    @Override
    void truncate(int entries) {
        count = entries;
        // Only ever lowered: a null entry (setNull) does not advance it, and the offsets it skips are filled later.
        vector.setLastSet(Math.min(vector.getLastSet(), entries - 1));
    }
}
