package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Utf8Scan;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Writes JSON strings exactly as Flink's shaded Jackson 2.18 {@code UTF8JsonGenerator} does: {@code "}
 * and {@code \} escaped; {@code \b \t \n \f \r} in short form; other characters below 0x20 as
 * <code>&#92;u00XX</code> with upper-case hex; {@code /} and 0x7F raw; other BMP characters as raw UTF-8; each
 * UTF-16 surrogate (so every character outside the BMP) as an upper-case <code>&#92;uXXXX</code> escape.
 *
 * <p>Flink first decodes a string's bytes into a Java String, which turns malformed UTF-8 into
 * U+FFFD. For valid UTF-8 the bytes are written straight from Arrow memory; a value with any malformed
 * sequence is decoded with the same JDK decoder Flink ends up using and its chars are written.
 */
final class JsonStrings {
    /** Per ASCII byte: 0 raw, a letter for a short escape, or 'u' for <code>&#92;u00XX</code>. */
    private static final byte[] ASCII_ESCAPES = new byte[128];
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    /** Worst case output bytes per input byte: a control byte becomes <code>&#92;u00XX</code>. */
    static final int MAX_BYTES_PER_BYTE = 6;
    /** Worst case output bytes per UTF-16 char: a surrogate becomes <code>&#92;uXXXX</code>. */
    private static final int MAX_BYTES_PER_CHAR = 6;

    static {
        for (int c = 0; c < 0x20; c++) {
            ASCII_ESCAPES[c] = 'u';
        }
        ASCII_ESCAPES['\b'] = 'b';
        ASCII_ESCAPES['\t'] = 't';
        ASCII_ESCAPES['\n'] = 'n';
        ASCII_ESCAPES['\f'] = 'f';
        ASCII_ESCAPES['\r'] = 'r';
        ASCII_ESCAPES['"'] = '"';
        ASCII_ESCAPES['\\'] = '\\';
    }

    private JsonStrings() {}

    /** The bytes {@code "name":} as Jackson writes a field name. */
    static byte[] fieldName(String name) {
        byte[] quoted = quoted(name);
        byte[] withColon = java.util.Arrays.copyOf(quoted, quoted.length + 1);
        withColon[quoted.length] = ':';
        return withColon;
    }

    /** The bytes of {@code s} as a quoted, escaped JSON string. */
    static byte[] quoted(String s) {
        ByteOutput out = ByteOutput.standalone(s.length() * MAX_BYTES_PER_CHAR + 2);
        out.buf[out.pos++] = '"';
        writeChars(out, s);
        out.buf[out.pos++] = '"';
        return out.toByteArray();
    }

    /**
     * Writes a string value's UTF-8 bytes, escaped, without quotes. The caller has ensured {@code
     * length * MAX_BYTES_PER_BYTE} bytes of room.
     */
    static void writeUtf8(ByteOutput out, long address, int length) {
        int start = out.pos;
        byte[] b = out.buf;
        int p = start;
        int i = 0;
        while (i < length) {
            int c = MemoryUtil.getByte(address + i) & 0xFF;
            if (c < 0x80) {
                byte escape = ASCII_ESCAPES[c];
                if (escape == 0) {
                    b[p++] = (byte) c;
                } else {
                    p = putEscape(b, p, c, escape);
                }
                i++;
                continue;
            }
            int n = Utf8Scan.sequenceLength(address + i, length - i);
            if (n <= 0) {
                out.pos = start;
                writeDecoded(out, address, length);
                return;
            }
            if (n == 4) {
                int cp = ((c & 0x07) << 18)
                        | ((MemoryUtil.getByte(address + i + 1) & 0x3F) << 12)
                        | ((MemoryUtil.getByte(address + i + 2) & 0x3F) << 6)
                        | (MemoryUtil.getByte(address + i + 3) & 0x3F);
                p = putUnicodeEscape(b, p, Character.highSurrogate(cp));
                p = putUnicodeEscape(b, p, Character.lowSurrogate(cp));
            } else {
                for (int k = 0; k < n; k++) {
                    b[p++] = MemoryUtil.getByte(address + i + k);
                }
            }
            i += n;
        }
        out.pos = p;
    }

    /** The rare path: Flink sees malformed UTF-8 through the JDK decoder; so do we. */
    private static void writeDecoded(ByteOutput out, long address, int length) {
        byte[] bytes = new byte[length];
        MemoryUtil.copyFromMemory(address, bytes, 0, length);
        String decoded = new String(bytes, StandardCharsets.UTF_8);
        out.ensure((long) decoded.length() * MAX_BYTES_PER_CHAR);
        writeChars(out, decoded);
    }

    /** Writes a Java string's chars, escaped, without quotes; ensures its own room. */
    static void writeChars(ByteOutput out, String s) {
        out.ensure((long) s.length() * MAX_BYTES_PER_CHAR);
        byte[] b = out.buf;
        int p = out.pos;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                byte escape = ASCII_ESCAPES[c];
                if (escape == 0) {
                    b[p++] = (byte) c;
                } else {
                    p = putEscape(b, p, c, escape);
                }
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                p = putUnicodeEscape(b, p, c);
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        out.pos = p;
    }

    private static int putEscape(byte[] b, int p, int c, byte escape) {
        if (escape == 'u') {
            return putUnicodeEscape(b, p, (char) c);
        }
        b[p] = '\\';
        b[p + 1] = escape;
        return p + 2;
    }

    private static int putUnicodeEscape(byte[] b, int p, char c) {
        b[p] = '\\';
        b[p + 1] = 'u';
        b[p + 2] = HEX[(c >> 12) & 0xF];
        b[p + 3] = HEX[(c >> 8) & 0xF];
        b[p + 4] = HEX[(c >> 4) & 0xF];
        b[p + 5] = HEX[c & 0xF];
        return p + 6;
    }
}
