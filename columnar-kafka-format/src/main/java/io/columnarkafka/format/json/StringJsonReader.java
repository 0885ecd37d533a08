package io.columnarkafka.format.json;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * CHAR and VARCHAR as Flink's {@code convertToString} reads them: an object or array becomes its compact
 * JSON text (Jackson's tree {@code toString()}, see {@link JsonTreeText}); any other token its text (a
 * number as spelled, {@code true}, a field name after a value of the wrong shape). The UTF-8 bytes stored
 * are those of Flink's {@code StringData}: a plain string's bytes are copied straight from the record, one
 * with escapes is decoded straight into UTF-8 ({@link JsonTokenizer#prepareUtf8()}); any other decoded
 * string is encoded as Flink does, an unpaired surrogate becoming {@code ?}.
 *
 * <p>Values are appended straight into the vector's buffers while they have room (offsets written for
 * every entry, nulls included, so Arrow's {@code lastSet} is always the last entry); Arrow's {@code setSafe}
 * grows them when they do not.
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

    private long validity;
    private long offsets;
    private long data;
    private int valueCapacity;
    private long dataCapacity;
    /** The end of the last entry's bytes in the data buffer. */
    private int end;

    @Override
    void bind(FieldVector v) {
        vector = (BaseVariableWidthVector) v;
        count = 0;
        end = 0;
        buffersChanged();
    }

    private void buffersChanged() {
        validity = vector.getValidityBufferAddress();
        offsets = vector.getOffsetBufferAddress();
        data = vector.getDataBufferAddress();
        valueCapacity = vector.getValueCapacity();
        dataCapacity = vector.getByteCapacity();
    }

    private void append(byte[] bytes, int start, int length) {
        int i = count;
        if (i < valueCapacity && end + (long) length <= dataCapacity) {
            MemoryUtil.copyToMemory(bytes, start, data + end, length);
            end += length;
            MemoryUtil.putInt(offsets + ((long) i + 1) * 4, end);
            ArrowAppend.setValid(validity, i);
        } else {
            vector.setSafe(i, bytes, start, length);
            buffersChanged();
            end += length;
        }
        vector.setLastSet(i);
        count = i + 1;
    }

    @Override
    void readValue(JsonTokenizer t) {
        int token = t.current();
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

    @Override
    void appendNull() {
        int i = count;
        if (i >= valueCapacity) {
            vector.setNull(i); // grows the validity and offset buffers
            buffersChanged();
        }
        MemoryUtil.putInt(offsets + ((long) i + 1) * 4, end);
        ArrowAppend.setNull(validity, i);
        vector.setLastSet(i);
        count = i + 1;
    }

    @Override
    void truncate(int entries) {
        while (count < entries) {
            appendNull();
        }
        count = entries;
        end = MemoryUtil.getInt(offsets + (long) entries * 4);
        vector.setLastSet(entries - 1);
    }
}
