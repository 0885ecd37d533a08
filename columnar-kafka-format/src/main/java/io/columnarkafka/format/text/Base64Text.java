package io.columnarkafka.format.text;

import io.columnarkafka.format.ByteOutput;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Base64 as Jackson's default variant ({@code MIME-NO-LINEFEEDS}) writes and reads binary values: the
 * standard alphabet with {@code =} padding and no line breaks.
 */
public final class Base64Text {
    private static final byte[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                    .getBytes(StandardCharsets.US_ASCII);

    private Base64Text() {}

    /** Bytes the encoding of {@code length} input bytes takes. */
    public static long encodedLength(long length) {
        return (length + 2) / 3 * 4;
    }

    /** Encodes {@code length} bytes of Arrow memory; the caller has ensured {@link #encodedLength} bytes. */
    public static void write(ByteOutput out, long address, long length) {
        byte[] b = out.buf;
        int p = out.pos;
        long end = address + length;
        long whole = address + length / 3 * 3;
        for (long a = address; a < whole; a += 3) {
            int bits = (MemoryUtil.getByte(a) & 0xFF) << 16
                    | (MemoryUtil.getByte(a + 1) & 0xFF) << 8
                    | (MemoryUtil.getByte(a + 2) & 0xFF);
            b[p] = ALPHABET[bits >>> 18];
            b[p + 1] = ALPHABET[(bits >>> 12) & 0x3F];
            b[p + 2] = ALPHABET[(bits >>> 6) & 0x3F];
            b[p + 3] = ALPHABET[bits & 0x3F];
            p += 4;
        }
        long rest = end - whole;
        if (rest > 0) {
            int bits = (MemoryUtil.getByte(whole) & 0xFF) << 16;
            if (rest == 2) {
                bits |= (MemoryUtil.getByte(whole + 1) & 0xFF) << 8;
            }
            b[p] = ALPHABET[bits >>> 18];
            b[p + 1] = ALPHABET[(bits >>> 12) & 0x3F];
            b[p + 2] = rest == 2 ? ALPHABET[(bits >>> 6) & 0x3F] : (byte) '=';
            b[p + 3] = '=';
            p += 4;
        }
        out.pos = p;
    }

    private static final int[] VALUES = new int[128];

    static {
        java.util.Arrays.fill(VALUES, -1);
        for (int i = 0; i < ALPHABET.length; i++) {
            VALUES[ALPHABET[i]] = i;
        }
    }

    /** Bytes decoding {@code chars} chars can take at most. */
    public static int maxDecodedLength(int chars) {
        return chars / 4 * 3 + 3;
    }

    /**
     * Decodes {@code in[start, end)} into {@code out} (at least {@link #maxDecodedLength} long) as Jackson's
     * default variant reads it: white space (up to U+0020) only between 4-char units, padding required,
     * units may follow a padded unit, unused bits of the last unit ignored.
     *
     * @return the number of bytes decoded
     * @throws IllegalArgumentException with Jackson's reason for broken Base64
     */
    public static int decode(char[] in, int start, int end, byte[] out) {
        int p = start;
        int n = 0;
        while (true) {
            char c;
            do {
                if (p >= end) {
                    return n;
                }
                c = in[p++];
            } while (c <= ' ');
            int data = value(c, 0);
            data = (data << 6) | value(next(in, p++, end), 1);
            c = next(in, p++, end);
            if (c == '=') {
                if (next(in, p++, end) != '=') {
                    throw new IllegalArgumentException("expected padding character '=' as character #4 of 4-char base64 unit");
                }
                out[n++] = (byte) (data >> 4);
                continue;
            }
            data = (data << 6) | value(c, 2);
            c = next(in, p++, end);
            if (c == '=') {
                data >>= 2;
                out[n++] = (byte) (data >> 8);
                out[n++] = (byte) data;
                continue;
            }
            data = (data << 6) | value(c, 3);
            out[n++] = (byte) (data >> 16);
            out[n++] = (byte) (data >> 8);
            out[n++] = (byte) data;
        }
    }

    private static char next(char[] in, int p, int end) {
        if (p >= end) {
            throw new IllegalArgumentException("Unexpected end of base64-encoded String: base64 variant"
                    + " 'MIME-NO-LINEFEEDS' expects padding (one or more '=' characters) at the end");
        }
        return in[p];
    }

    private static int value(char c, int index) {
        int v = c < 128 ? VALUES[c] : -1;
        if (v < 0) {
            throw new IllegalArgumentException("Illegal character (code 0x" + Integer.toHexString(c) + ") as character #"
                    + (index + 1) + " of 4-char base64 unit");
        }
        return v;
    }
}
