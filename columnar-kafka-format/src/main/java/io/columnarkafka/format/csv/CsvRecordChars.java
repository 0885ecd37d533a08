package io.columnarkafka.format.csv;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The characters of one CSV record as Flink's Jackson CSV parser reads them from the record's bytes:
 * the encoding detected from the first bytes as Jackson's bootstrapper does (a UTF-8, UTF-16 or UTF-32
 * byte order mark is skipped; zero bytes at the start select UTF-16 or UTF-32), UTF-8 decoded as
 * Jackson's {@code UTF8Reader} decodes it (an invalid start or continuation byte, or a sequence cut off
 * at the end, fails the record; overlong forms and surrogates pass). The buffer is reused across records.
 */
final class CsvRecordChars {
    char[] chars = new char[256];
    int length;

    /**
     * Decodes {@code bytes[offset, offset + count)}.
     *
     * @return null, or why the record cannot be read
     */
    String decode(byte[] bytes, int offset, int count) {
        length = 0;
        int end = offset + count;
        if (count >= 4) {
            int quad = (bytes[offset] & 0xFF) << 24 | (bytes[offset + 1] & 0xFF) << 16
                    | (bytes[offset + 2] & 0xFF) << 8 | (bytes[offset + 3] & 0xFF);
            switch (quad) {
                case 0x0000FEFF:
                    return utf32(bytes, offset + 4, end, true);
                case 0xFFFE0000:
                    return utf32(bytes, offset + 4, end, false);
                case 0x0000FFFE:
                case 0xFEFF0000:
                    return "Unsupported UCS-4 endianness detected";
                default:
                    break;
            }
            int high = quad >>> 16;
            if (high == 0xFEFF) {
                return utf16(bytes, offset + 2, end, StandardCharsets.UTF_16BE);
            }
            if (high == 0xFFFE) {
                return utf16(bytes, offset + 2, end, StandardCharsets.UTF_16LE);
            }
            if ((quad >>> 8) == 0xEFBBBF) {
                return utf8(bytes, offset + 3, end);
            }
            if ((quad >> 8) == 0) {
                return utf32(bytes, offset, end, true);
            }
            if ((quad & 0x00FFFFFF) == 0) {
                return utf32(bytes, offset, end, false);
            }
            if ((quad & ~0x00FF0000) == 0 || (quad & ~0x0000FF00) == 0) {
                return "Unsupported UCS-4 endianness detected";
            }
            return byZeros(bytes, offset, end, high);
        }
        if (count >= 2) {
            return byZeros(bytes, offset, end, (bytes[offset] & 0xFF) << 8 | (bytes[offset + 1] & 0xFF));
        }
        return utf8(bytes, offset, end);
    }

    /** UTF-16 if one of the first two bytes is zero, else UTF-8. */
    private String byZeros(byte[] bytes, int offset, int end, int first16) {
        if ((first16 & 0xFF00) == 0) {
            return utf16(bytes, offset, end, StandardCharsets.UTF_16BE);
        }
        if ((first16 & 0x00FF) == 0) {
            return utf16(bytes, offset, end, StandardCharsets.UTF_16LE);
        }
        return utf8(bytes, offset, end);
    }

    /** UTF-16 as a JDK reader decodes it (malformed units become U+FFFD); never fails. */
    private String utf16(byte[] bytes, int offset, int end, Charset charset) {
        String text = new String(bytes, offset, end - offset, charset);
        ensure(text.length());
        text.getChars(0, text.length(), chars, 0);
        length = text.length();
        return null;
    }

    private String utf32(byte[] bytes, int offset, int end, boolean bigEndian) {
        ensure((end - offset) / 2 + 2);
        int n = 0;
        for (int p = offset; p < end; p += 4) {
            if (p + 4 > end) {
                return "Unexpected EOF in the middle of a 4-byte UTF-32 char";
            }
            int c = bigEndian
                    ? (bytes[p] & 0xFF) << 24 | (bytes[p + 1] & 0xFF) << 16 | (bytes[p + 2] & 0xFF) << 8 | (bytes[p + 3] & 0xFF)
                    : (bytes[p + 3] & 0xFF) << 24 | (bytes[p + 2] & 0xFF) << 16 | (bytes[p + 1] & 0xFF) << 8 | (bytes[p] & 0xFF);
            if (c > 0xFFFF) {
                if (c > 0x10FFFF) {
                    return "Invalid UTF-32 character 0x" + Integer.toHexString(c) + " (above 0x10FFFF)";
                }
                c -= 0x10000;
                chars[n++] = (char) (0xD800 + (c >> 10));
                chars[n++] = (char) (0xDC00 | (c & 0x3FF));
            } else {
                chars[n++] = (char) c;
            }
        }
        length = n;
        return null;
    }

    private String utf8(byte[] bytes, int offset, int end) {
        ensure(end - offset);
        char[] out = chars;
        int n = 0;
        int p = offset;
        while (p < end) {
            int c = bytes[p++];
            if (c >= 0) {
                out[n++] = (char) c;
                continue;
            }
            c &= 0xFF;
            int needed;
            if ((c & 0xE0) == 0xC0) {
                c &= 0x1F;
                needed = 1;
            } else if ((c & 0xF0) == 0xE0) {
                c &= 0x0F;
                needed = 2;
            } else if ((c & 0xF8) == 0xF0) {
                c &= 0x07;
                needed = 3;
            } else {
                return "Invalid UTF-8 start byte 0x" + Integer.toHexString(c);
            }
            if (p + needed > end) {
                return "End-of-input after first " + (end - p + 1) + " byte(s) of a UTF-8 character: needed at least "
                        + (p + needed - end) + " more";
            }
            for (int k = 0; k < needed; k++) {
                int d = bytes[p++] & 0xFF;
                if ((d & 0xC0) != 0x80) {
                    return "Invalid UTF-8 middle byte 0x" + Integer.toHexString(d);
                }
                c = (c << 6) | (d & 0x3F);
            }
            if (needed == 3) {
                c -= 0x10000;
                out[n++] = (char) (0xD800 + (c >> 10));
                c = 0xDC00 | (c & 0x3FF);
            }
            out[n++] = (char) c;
        }
        length = n;
        return null;
    }

    private void ensure(int capacity) {
        if (chars.length < capacity) {
            chars = Arrays.copyOf(chars, Math.max(capacity, chars.length * 2));
        }
    }
}
