package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * LOWER and UPPER as {@link BinaryStringData#toLowerCase()} / {@link BinaryStringData#toUpperCase()}: an all-ASCII
 * string maps byte by byte with {@link Character#toLowerCase(int)} (locale-free); any other string of valid UTF-8
 * goes through Java's {@link String#toLowerCase()} / {@link String#toUpperCase()} in the default locale. (Flink
 * takes that Java path for every string it built from a Java String; the two agree on ASCII except in the tr, az
 * and lt locales, where the compiler refuses these functions.)
 *
 * <p>Java's conversion outside those locales maps each code point on its own, except the few that
 * {@link CodePointCases} leaves to the whole string (a capital sigma's lower case depends on the letters around
 * it; a sharp s upper-cases to two letters). So valid UTF-8 without such a code point is converted code point by
 * code point, from the bytes to the bytes, with no object per row. Any other value, malformed UTF-8 among them
 * (which Flink keeps byte for byte where no byte starts a sequence, and otherwise decodes with its own decoder),
 * is converted by Flink's own {@link BinaryStringData} over its bytes.
 */
final class CaseConversion extends UnaryNode {
    private final boolean lower;

    CaseConversion(boolean lower, Node operand, LogicalType type) {
        super(operand, type);
        this.lower = lower;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        byte[] ascii = CodePointCases.ascii(lower);
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (in.nulls[i]) {
                out.nulls[i] = true;
                continue;
            }
            int start = in.starts[i];
            int length = in.lengths[i];
            if (Utf8.isAscii(in.bytes, start, length)) {
                int at = out.reserve(length);
                byte[] to = out.bytes;
                for (int b = 0; b < length; b++) {
                    to[at + b] = ascii[in.bytes[start + b]];
                }
                out.setString(i, at, length);
            } else if (!convertCodePoints(in.bytes, start, length, i, ascii)) {
                BinaryStringData value = BinaryStringData.fromBytes(in.bytes, start, length);
                byte[] converted = (lower ? value.toLowerCase() : value.toUpperCase()).toBytes();
                out.appendString(i, converted, 0, converted.length);
            }
        }
    }

    /**
     * Writes row {@code row}'s conversion of the UTF-8 bytes [start, start + length) code point by code point;
     * false, writing nothing, at malformed UTF-8 or a code point Java converts with its string around it.
     */
    private boolean convertCodePoints(byte[] bytes, int start, int length, int row, byte[] ascii) {
        // A code point's case partner takes at most 3 bytes per 2 of its own (U+0250 -> U+2C6F), 4 for 4.
        int at = out.reserve(length * 2);
        byte[] to = out.bytes;
        int w = at;
        int end = start + length;
        for (int r = start; r < end; ) {
            int b0 = bytes[r] & 0xFF;
            int cp;
            if (b0 < 0x80) {
                to[w++] = ascii[b0];
                r++;
                continue;
            } else if (b0 >= 0xC2 && b0 <= 0xDF && r + 1 < end && continuation(bytes[r + 1])) {
                cp = (b0 & 0x1F) << 6 | (bytes[r + 1] & 0x3F);
                r += 2;
            } else if (b0 >= 0xE0 && b0 <= 0xEF && r + 2 < end && continuation(bytes[r + 1])
                    && continuation(bytes[r + 2])) {
                cp = (b0 & 0x0F) << 12 | (bytes[r + 1] & 0x3F) << 6 | (bytes[r + 2] & 0x3F);
                if (cp < 0x800 || Character.isSurrogate((char) cp)) {
                    return false; // an overlong form or a surrogate: not UTF-8
                }
                r += 3;
            } else if (b0 >= 0xF0 && b0 <= 0xF4 && r + 3 < end && continuation(bytes[r + 1])
                    && continuation(bytes[r + 2]) && continuation(bytes[r + 3])) {
                cp = (b0 & 0x07) << 18 | (bytes[r + 1] & 0x3F) << 12 | (bytes[r + 2] & 0x3F) << 6
                        | (bytes[r + 3] & 0x3F);
                if (cp < 0x10000 || cp > Character.MAX_CODE_POINT) {
                    return false;
                }
                r += 4;
            } else {
                return false;
            }
            int mapped = CodePointCases.convert(cp, lower);
            if (mapped < 0) {
                return false;
            }
            w = writeUtf8(to, w, mapped);
        }
        out.setString(row, at, w - at);
        return true;
    }

    private static boolean continuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /** Writes code point {@code cp} (not a surrogate) as UTF-8 at {@code w}; where it ends. */
    private static int writeUtf8(byte[] to, int w, int cp) {
        if (cp < 0x80) {
            to[w] = (byte) cp;
            return w + 1;
        }
        if (cp < 0x800) {
            to[w] = (byte) (0xC0 | cp >>> 6);
            to[w + 1] = (byte) (0x80 | cp & 0x3F);
            return w + 2;
        }
        if (cp < 0x10000) {
            to[w] = (byte) (0xE0 | cp >>> 12);
            to[w + 1] = (byte) (0x80 | cp >>> 6 & 0x3F);
            to[w + 2] = (byte) (0x80 | cp & 0x3F);
            return w + 3;
        }
        to[w] = (byte) (0xF0 | cp >>> 18);
        to[w + 1] = (byte) (0x80 | cp >>> 12 & 0x3F);
        to[w + 2] = (byte) (0x80 | cp >>> 6 & 0x3F);
        to[w + 3] = (byte) (0x80 | cp & 0x3F);
        return w + 4;
    }
}
