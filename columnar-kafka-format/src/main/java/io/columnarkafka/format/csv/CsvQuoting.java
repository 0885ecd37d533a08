package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.util.MemoryUtil;

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
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private final int quote;
    private final int minSafe;
    /** The escape character, or a backslash when there is none; either one forces quotes. */
    private final int forcing;
    private final int escape;
    /** True if every special char is ASCII, so bytes can be compared without decoding. */
    private final boolean ascii;
    /** {@link #minSafe}, {@link #forcing}, {@link #quote} and {@link #escape} in every byte of a long. */
    private final long minSafeBytes;
    private final long forcingBytes;
    private final long quoteBytes;
    private final long escapeBytes;
    private byte[] scratch = new byte[64];

    CsvQuoting(CsvFormatOptions options) {
        this.quote = options.quoteCharacter();
        this.minSafe = Math.max(options.fieldDelimiter(), quote) + 1;
        this.escape = options.escapeCharacter();
        this.forcing = escape > 0 ? escape : '\\';
        this.ascii = minSafe <= 0x80 && forcing < 0x80;
        this.minSafeBytes = ONES * (minSafe & 0xFF);
        this.forcingBytes = ONES * (forcing & 0xFF);
        this.quoteBytes = ONES * (quote & 0xFF);
        // No escape character: a byte that never occurs in well-formed UTF-8, so nothing matches it.
        this.escapeBytes = ONES * (escape >= 0 ? escape & 0xFF : 0xFF);
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

    /** Batch flag of {@link #scan}: some byte is above 0x7F. */
    static final int NON_ASCII = 1;
    /** Batch flag of {@link #scan}: some byte forces quotes (below {@link #minSafe}, or {@link #forcing}). */
    static final int FORCING = 2;
    /** Batch flag of {@link #scan}: some byte is the quote or the escape character. */
    static final int DOUBLED = 4;
    private static final int ALL = NON_ASCII | FORCING | DOUBLED;

    /**
     * Flags ({@link #NON_ASCII}, {@link #FORCING}, {@link #DOUBLED}) of the values of one batch, all in
     * {@code [address, +length)} of Arrow memory, in one pass of eight bytes at a time: a flag that is not
     * set spares each value of the batch that check. All flags when quoting is disabled or needs decoding.
     */
    int scan(long address, long length) {
        if (quote < 0 || !ascii) {
            return ALL;
        }
        long high = 0;
        long forcingFound = 0;
        long doubledFound = 0;
        long i = 0;
        for (; i + 8 <= length; i += 8) {
            long w = MemoryUtil.getLong(address + i);
            high |= w;
            forcingFound |= below(w, minSafeBytes) | zeroByte(w ^ forcingBytes);
            doubledFound |= zeroByte(w ^ quoteBytes) | zeroByte(w ^ escapeBytes);
        }
        int flags = 0;
        for (; i < length; i++) {
            int c = MemoryUtil.getByte(address + i) & 0xFF;
            flags |= (c >= 0x80 ? NON_ASCII : 0) | (c < minSafe || c == forcing ? FORCING : 0)
                    | (c == quote || c == escape ? DOUBLED : 0);
        }
        return flags | ((high & HIGHS) != 0 ? NON_ASCII : 0) | (forcingFound != 0 ? FORCING : 0)
                | (doubledFound != 0 ? DOUBLED : 0);
    }

    /**
     * Writes the well-formed UTF-8 value at {@code [address, +length)} of Arrow memory, quoted if Jackson
     * would, without first writing it unquoted: eight bytes are checked at a time, and a value without
     * quote or escape characters is copied in one piece. {@code batchFlags} are {@link #scan}'s flags of
     * the value's batch, so that checks no byte of the batch needs are skipped.
     */
    void writeFromMemory(ByteOutput out, long address, int length, int batchFlags) {
        if (quote < 0) {
            out.ensure(length);
            out.copyFromMemory(address, length);
            return;
        }
        if (!ascii) {
            int start = out.pos;
            out.ensure(length);
            out.copyFromMemory(address, length);
            applyDecoded(out, start);
            return;
        }
        boolean needs = length > MAX_UNQUOTED_CHARS
                && ((batchFlags & NON_ASCII) == 0 || charCount(address, length) > MAX_UNQUOTED_CHARS)
                || (batchFlags & FORCING) != 0 && hasForcing(address, length);
        if (!needs) {
            out.ensure(length);
            out.copyFromMemory(address, length);
        } else if ((batchFlags & DOUBLED) == 0 || !hasDoubled(address, length)) {
            out.ensure(length + 2);
            out.buf[out.pos++] = (byte) quote;
            out.copyFromMemory(address, length);
            out.buf[out.pos++] = (byte) quote;
        } else { // rare: characters to double, as for any text already written
            int start = out.pos;
            out.ensure(length);
            out.copyFromMemory(address, length);
            quote(out, start);
        }
    }

    /** True if some byte is below {@link #minSafe} or is {@link #forcing}: Jackson quotes the value. */
    private boolean hasForcing(long address, int length) {
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            long w = MemoryUtil.getLong(address + i);
            if ((below(w, minSafeBytes) | zeroByte(w ^ forcingBytes)) != 0) {
                return true;
            }
        }
        for (; i < length; i++) {
            int c = MemoryUtil.getByte(address + i) & 0xFF;
            if (c < minSafe || c == forcing) {
                return true;
            }
        }
        return false;
    }

    /** True if some byte is the quote or the escape character, which a quoted value doubles. */
    private boolean hasDoubled(long address, int length) {
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            long w = MemoryUtil.getLong(address + i);
            if ((zeroByte(w ^ quoteBytes) | zeroByte(w ^ escapeBytes)) != 0) {
                return true;
            }
        }
        for (; i < length; i++) {
            int c = MemoryUtil.getByte(address + i) & 0xFF;
            if (c == quote || c == escape) {
                return true;
            }
        }
        return false;
    }

    private boolean hasDoubled(byte[] b, int start, int end) {
        for (int i = start; i < end; i++) {
            int c = b[i] & 0xFF;
            if (c == quote || c == escape) {
                return true;
            }
        }
        return false;
    }

    /** Non-zero if some byte of {@code w} is below {@code n} (each byte of {@code limits}, n <= 0x80). */
    private static long below(long w, long limits) {
        return (w - limits) & ~w & HIGHS;
    }

    /** Non-zero if some byte of {@code w} is zero (exact as a test, not as a position). */
    private static long zeroByte(long w) {
        return (w - ONES) & ~w & HIGHS;
    }

    /** UTF-16 length of well-formed UTF-8 in Arrow memory, as {@link #charCount(byte[], int, int)}. */
    private static int charCount(long address, int length) {
        int chars = 0;
        for (int i = 0; i < length; i++) {
            int c = MemoryUtil.getByte(address + i) & 0xFF;
            if ((c & 0xC0) != 0x80) {
                chars += c >= 0xF0 ? 2 : 1;
            }
        }
        return chars;
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
        if (!hasDoubled(out.buf, start, out.pos)) {
            // Nothing to double: shift the value one byte right in place and add the quotes.
            out.ensure(2);
            byte[] b = out.buf;
            System.arraycopy(b, start, b, start + 1, length);
            b[start] = (byte) quote;
            b[start + length + 1] = (byte) quote;
            out.pos += 2;
            return;
        }
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
