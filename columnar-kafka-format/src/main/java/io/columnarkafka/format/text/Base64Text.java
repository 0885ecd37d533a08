package io.columnarkafka.format.text;

import io.columnarkafka.format.ByteOutput;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Base64 as Jackson's default variant writes binary values: the standard alphabet with {@code =}
 * padding and no line breaks.
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
}
