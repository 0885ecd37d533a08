package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import java.nio.charset.StandardCharsets;

/**
 * Jackson 2.18 {@code CsvEncoder}'s quoting of a string value, as Flink configures it (no strict
 * check, no line separator), applied to text already written to the output:
 * <ul>
 *   <li>never with {@code disable-quote-character};
 *   <li>else if the value has more than 24 UTF-16 chars;
 *   <li>or if any char is below {@code max(delimiter, quote) + 1}, or is the escape character, or (when
 *       no escape character is set) a backslash.
 * </ul>
 * A quoted value is wrapped in the quote character with every quote character, and every escape
 * character, doubled. The value is checked in place in the output; only a value that needs quotes is
 * copied and rewritten.
 */
final class CsvQuoting {
    private static final int MAX_UNQUOTED_CHARS = 24;

    private final int quote;
    private final int minSafe;
    /** The escape character, or a backslash when there is none; either one forces quotes. */
    private final int forcing;
    private final int escape;
    /** True if every special char is ASCII, so bytes can be compared without decoding. */
    private final boolean ascii;
    private byte[] scratch = new byte[64];

    CsvQuoting(CsvFormatOptions options) {
        this.quote = options.quoteCharacter();
        this.minSafe = Math.max(options.fieldDelimiter(), quote) + 1;
        this.escape = options.escapeCharacter();
        this.forcing = escape > 0 ? escape : '\\';
        this.ascii = minSafe <= 0x80 && forcing < 0x80;
    }

    /** Quotes the value written at {@code [start, out.pos)} if Jackson would. */
    void apply(ByteOutput out, int start) {
        if (quote < 0) {
            return;
        }
        if (!ascii) {
            applyDecoded(out, start);
            return;
        }
        byte[] b = out.buf;
        int end = out.pos;
        boolean needs = end - start > MAX_UNQUOTED_CHARS && charCount(b, start, end) > MAX_UNQUOTED_CHARS;
        for (int i = start; i < end && !needs; i++) {
            int c = b[i] & 0xFF;
            needs = c < minSafe || c == forcing;
        }
        if (needs) {
            quote(out, start);
        }
    }

    /** UTF-16 length of well-formed UTF-8: one per sequence, two for a 4-byte one. */
    private static int charCount(byte[] b, int start, int end) {
        int chars = 0;
        for (int i = start; i < end; i++) {
            int c = b[i] & 0xFF;
            if ((c & 0xC0) != 0x80) {
                chars += c >= 0xF0 ? 2 : 1;
            }
        }
        return chars;
    }

    private void quote(ByteOutput out, int start) {
        int length = out.pos - start;
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        System.arraycopy(out.buf, start, scratch, 0, length);
        out.pos = start;
        out.ensure(2L * length + 2);
        byte[] b = out.buf;
        int p = start;
        b[p++] = (byte) quote;
        for (int i = 0; i < length; i++) {
            byte c = scratch[i];
            int unsigned = c & 0xFF;
            if (unsigned == quote || unsigned == escape) {
                b[p++] = c;
            }
            b[p++] = c;
        }
        b[p++] = (byte) quote;
        out.pos = p;
    }

    /** A delimiter, quote or escape character beyond ASCII: Jackson's char logic on the decoded value. */
    private void applyDecoded(ByteOutput out, int start) {
        String value = new String(out.buf, start, out.pos - start, StandardCharsets.UTF_8);
        boolean needs = value.length() > MAX_UNQUOTED_CHARS;
        for (int i = 0; i < value.length() && !needs; i++) {
            char c = value.charAt(i);
            needs = c < minSafe || c == forcing;
        }
        if (!needs) {
            return;
        }
        StringBuilder quoted = new StringBuilder(value.length() + 8).append((char) quote);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == quote || c == escape) {
                quoted.append(c);
            }
            quoted.append(c);
        }
        out.pos = start;
        out.writeBytes(quoted.append((char) quote).toString().getBytes(StandardCharsets.UTF_8));
    }
}
