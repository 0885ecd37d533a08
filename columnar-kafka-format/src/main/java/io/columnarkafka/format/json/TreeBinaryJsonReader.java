package io.columnarkafka.format.json;

import io.columnarkafka.format.text.Base64Text;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * BINARY and VARBINARY as Flink's tree deserializer reads them ({@code JsonToRowDataConverters.convertToBytes},
 * {@code JsonNode.binaryValue()}): a string node is decoded by Jackson's {@code Base64Variant.decode(String)}
 * ({@link Base64Text#decode}); any other node, an object or array included, has no binary value and is null.
 */
final class TreeBinaryJsonReader extends JsonReader {
    private final VariableWidthBuffers buffers = new VariableWidthBuffers();
    private char[] chars = new char[64];
    private byte[] out = new byte[64];

    TreeBinaryJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    void bind(FieldVector v) {
        buffers.bind((BaseVariableWidthVector) v);
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        int token = t.current();
        if (token != JsonTokenizer.VALUE_STRING) {
            if (token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY) {
                JsonRowFields.skipValue(t);
            }
            appendNull();
            return;
        }
        String text = t.text();
        int n = text.length();
        if (chars.length < n) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        text.getChars(0, n, chars, 0);
        int max = Base64Text.maxDecodedLength(n);
        if (out.length < max) {
            out = new byte[Math.max(max, out.length * 2)];
        }
        int length;
        try {
            length = Base64Text.decode(chars, 0, n, out);
        } catch (IllegalArgumentException e) {
            throw new JsonReadException("Unable to deserialize byte array. Cannot access contents of TextNode as"
                    + " binary due to broken Base64 encoding: " + e.getMessage());
        }
        buffers.append(count++, out, 0, length);
    }

    @Override
    void appendNull() {
        buffers.appendNull(count++);
    }

    @Override
    void truncate(int entries) {
        while (count < entries) {
            appendNull();
        }
        count = entries;
        buffers.truncate(entries);
    }

    /** Never called: the changelog decoders produce every field, so no tree reader is planned check-only. */
    @Override
    void checkValue(JsonTokenizer t) {
        throw new UnsupportedOperationException("a tree reader is not planned check-only: " + path);
    }
}
