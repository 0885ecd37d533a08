package io.columnarkafka.format.json;

import java.nio.charset.StandardCharsets;

/**
 * CHAR and VARCHAR as Flink's {@code convertToString} reads them: an object or array becomes its compact
 * JSON text (Jackson's tree {@code toString()}, see {@link JsonTreeText}); any other token its text (a
 * number as spelled, {@code true}, a field name after a value of the wrong shape). The UTF-8 bytes stored
 * are those of Flink's {@code StringData}: a plain string's bytes are copied straight from the record, one
 * with escapes is decoded straight into UTF-8 ({@link JsonTokenizer#prepareUtf8()}); any other decoded
 * string is encoded as Flink does, an unpaired surrogate becoming {@code ?}.
 *
 * <p>Values are appended straight into the vector's buffers ({@link VariableWidthBuffers}).
 */
final class StringJsonReader extends VariableWidthJsonReader {
    private final boolean bigDecimalFloats;

    /**
     * @param bigDecimalFloats Flink's mapper reads floats in a tree as {@code BigDecimal} when the row
     *     type has a DECIMAL anywhere ({@code USE_BIG_DECIMAL_FOR_FLOATS}), which changes their text
     */
    StringJsonReader(String path, boolean ignoreParseErrors, boolean bigDecimalFloats) {
        super(path, ignoreParseErrors);
        this.bigDecimalFloats = bigDecimalFloats;
    }

    private void append(byte[] bytes, int start, int length) {
        buffers.append(count, bytes, start, length);
        count++;
    }

    @Override
    void readValue(JsonTokenizer t) {
        int token = t.current();
        if (token == JsonTokenizer.VALUE_STRING) {
            int length = t.copyPlainString(buffers.nextAddress(), buffers.room(count));
            if (length >= 0) {
                buffers.commit(count, length);
                count++;
                return;
            }
        }
        if (token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY) {
            byte[] tree = JsonTreeText.read(t, bigDecimalFloats).getBytes(StandardCharsets.UTF_8);
            append(tree, 0, tree.length);
        } else if (t.prepareUtf8()) {
            append(t.textBuffer(), t.textStart(), t.textEnd() - t.textStart());
        } else {
            byte[] bytes = t.text().getBytes(StandardCharsets.UTF_8);
            append(bytes, 0, bytes.length);
        }
    }

    /**
     * Only reading can fail: a string's escapes or UTF-8 (read now, inside the converter, as Flink's {@code
     * getText()} does), or a tree's float as {@code BigDecimal} ({@link JsonTreeText#check}).
     */
    @Override
    void checkValue(JsonTokenizer t) {
        int token = t.current();
        if (token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY) {
            JsonTreeText.check(t, bigDecimalFloats);
        } else {
            t.prepareText();
        }
    }
}
