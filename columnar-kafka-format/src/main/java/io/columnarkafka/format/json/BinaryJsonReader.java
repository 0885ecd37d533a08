package io.columnarkafka.format.json;

import java.util.Arrays;

/**
 * BINARY and VARBINARY as Flink's {@code JsonParser::getBinaryValue}: only a JSON string, decoded as Base64
 * by Jackson's streaming decoder with its default variant (MIME-NO-LINEFEEDS: the standard alphabet,
 * padding required): whitespace and control characters are skipped only before each four-character
 * group, escapes are decoded, decoding goes on after a padded group, and a group without its padding
 * fails. The bytes go from the record into a reused buffer, then straight into the vector's buffers
 * ({@link VariableWidthBuffers}).
 */
final class BinaryJsonReader extends VariableWidthJsonReader {
    private static final int INVALID = -1;
    private static final int PADDING = -2;
    private static final int[] BASE64 = new int[128];

    static {
        Arrays.fill(BASE64, INVALID);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++) {
            BASE64[alphabet.charAt(i)] = i;
        }
        BASE64['='] = PADDING;
    }

    private byte[] out = new byte[64];
    private int length;

    BinaryJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    void readValue(JsonTokenizer t) {
        checkValue(t);
        buffers.append(count++, out, 0, length);
    }

    /** Decodes the Base64 into the reused buffer, which {@link #readValue} then appends. */
    @Override
    void checkValue(JsonTokenizer t) {
        if (!t.stringUnread()) {
            // A string here is always unread: each token is read by one converter only.
            throw new JsonReadException("Current token (" + JsonTokenizer.tokenName(t.current())
                    + ") not VALUE_STRING or VALUE_EMBEDDED_OBJECT, can not access as binary");
        }
        decode(t);
        t.finishRawString();
    }

    private void decode(JsonTokenizer t) {
        length = 0;
        while (true) {
            int ch;
            do {
                ch = t.rawStringByte();
            } while (ch <= ' ');
            int bits = value(ch);
            if (bits < 0) {
                if (ch == '"') {
                    return;
                }
                bits = escaped(t, ch, 0);
                if (bits < 0) {
                    continue;
                }
            }
            int data = bits;
            ch = t.rawStringByte();
            bits = value(ch);
            if (bits < 0) {
                bits = escaped(t, ch, 1);
            }
            data = data << 6 | bits;
            ch = t.rawStringByte();
            bits = value(ch);
            if (bits < 0) {
                if (bits != PADDING) {
                    if (ch == '"') {
                        t.unreadByte();
                        throw missingPadding();
                    }
                    bits = escaped(t, ch, 2);
                }
                if (bits == PADDING) {
                    ch = t.rawStringByte();
                    if (ch != '=' && escaped(t, ch, 3) != PADDING) {
                        throw invalid(ch, 3, "expected padding character '='");
                    }
                    put(data >> 4);
                    continue;
                }
            }
            data = data << 6 | bits;
            ch = t.rawStringByte();
            bits = value(ch);
            if (bits < 0) {
                if (bits != PADDING) {
                    if (ch == '"') {
                        t.unreadByte();
                        throw missingPadding();
                    }
                    bits = escaped(t, ch, 3);
                }
                if (bits == PADDING) {
                    data >>= 2;
                    put(data >> 8);
                    put(data);
                    continue;
                }
            }
            data = data << 6 | bits;
            put(data >> 16);
            put(data >> 8);
            put(data);
        }
    }

    private static int value(int ch) {
        return ch < 128 ? BASE64[ch] : INVALID;
    }

    /** Jackson's {@code _decodeBase64Escape}: only a backslash escape may stand for a Base64 char. */
    private static int escaped(JsonTokenizer t, int ch, int index) {
        if (ch != '\\') {
            throw invalid(ch, index, null);
        }
        int unescaped = t.decodeEscape();
        if (unescaped <= ' ' && index == 0) {
            return -1;
        }
        int bits = value(unescaped);
        if (bits == INVALID) {
            throw invalid(unescaped, index, null);
        }
        return bits;
    }

    private static JsonReadException invalid(int ch, int index, String detail) {
        return new JsonReadException("Illegal character (code 0x" + Integer.toHexString(ch) + ") in base64 content"
                + " at position " + index + (detail == null ? "" : ": " + detail));
    }

    private static JsonReadException missingPadding() {
        return new JsonReadException("Unexpected end of base64-encoded String: base64 variant 'MIME-NO-LINEFEEDS'"
                + " expects padding (one or more '=' characters) at the end");
    }

    private void put(int b) {
        if (length == out.length) {
            out = Arrays.copyOf(out, length * 2);
        }
        out[length++] = (byte) b;
    }
}
