package io.columnarkafka.format.json;

import io.columnarkafka.format.text.Base64Text;

/**
 * BINARY and VARBINARY as Flink's tree deserializer reads them ({@code JsonToRowDataConverters.convertToBytes},
 * {@code JsonNode.binaryValue()}): a string node is decoded by Jackson's {@code Base64Variant.decode(String)}
 * ({@link Base64Text#decode}); any other node, an object or array included, has no binary value and is null.
 */
final class TreeBinaryJsonReader extends VariableWidthJsonReader {
    private char[] chars = new char[64];
    private byte[] out = new byte[64];

    TreeBinaryJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    void readValue(JsonTokenizer t) {
        if (t.current() != JsonTokenizer.VALUE_STRING) {
            skipStructure(t);
            appendNull();
            return;
        }
        int length = decode(t); // may grow out
        buffers.append(count++, out, 0, length);
    }

    /** As {@link #readValue}, writing nothing: Flink's tree converter decodes a field nobody reads all the same. */
    @Override
    void checkValue(JsonTokenizer t) {
        if (t.current() != JsonTokenizer.VALUE_STRING) {
            skipStructure(t);
            return;
        }
        decode(t);
    }

    private static void skipStructure(JsonTokenizer t) {
        int token = t.current();
        if (token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY) {
            JsonRowFields.skipValue(t);
        }
    }

    /** Decodes the current string's Base64 into {@link #out}; returns the number of bytes. */
    private int decode(JsonTokenizer t) {
        int n = textChars(t);
        int max = Base64Text.maxDecodedLength(n);
        if (out.length < max) {
            out = new byte[Math.max(max, out.length * 2)];
        }
        try {
            return Base64Text.decode(chars, 0, n, out);
        } catch (IllegalArgumentException e) {
            throw new JsonReadException("Unable to deserialize byte array. Cannot access contents of TextNode as"
                    + " binary due to broken Base64 encoding: " + e.getMessage());
        }
    }

    /**
     * Puts the current string's text into {@link #chars}, returning its length: its UTF-8 bytes (escapes decoded
     * by the tokenizer) widened, without a String, when they are ASCII, as Base64 is; otherwise (a value that
     * will fail, or a string the tokenizer keeps as Jackson's chars) the chars of its text, so an illegal
     * character is reported by its char code as Jackson reports it.
     */
    private int textChars(JsonTokenizer t) {
        if (t.prepareUtf8()) {
            byte[] bytes = t.textBuffer();
            int start = t.textStart();
            int n = t.textEnd() - start;
            ensureChars(n);
            int i = 0;
            while (i < n && bytes[start + i] >= 0) {
                chars[i] = (char) bytes[start + i];
                i++;
            }
            if (i == n) {
                return n;
            }
        }
        String text = t.text();
        int n = text.length();
        ensureChars(n);
        text.getChars(0, n, chars, 0);
        return n;
    }

    private void ensureChars(int n) {
        if (chars.length < n) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
    }
}
