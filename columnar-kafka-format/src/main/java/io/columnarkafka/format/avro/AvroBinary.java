package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;

/**
 * The primitives of the Avro binary encoding (Avro specification 1.11, "Binary Encoding"): int and long
 * as zig-zag variable-length integers, float and double as little-endian IEEE 754 bits, bytes and string
 * as a long length followed by the bytes.
 */
final class AvroBinary {
    /** Longest zig-zag varint of a long. */
    static final int MAX_VARLONG = 10;

    private AvroBinary() {}

    /** Writes {@code value} as a zig-zag varint; the caller has ensured {@link #MAX_VARLONG} bytes. */
    static void putLong(ByteOutput out, long value) {
        out.putVarint((value << 1) ^ (value >> 63));
    }

    /** Writes {@code value} as a zig-zag varint into {@code buf} at {@code pos}; returns the position after it. */
    static int putLong(byte[] buf, int pos, long value) {
        long n = (value << 1) ^ (value >> 63);
        while ((n & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        buf[pos++] = (byte) n;
        return pos;
    }

    static void writeLong(ByteOutput out, long value) {
        out.ensure(MAX_VARLONG);
        putLong(out, value);
    }

    /** A length-prefixed byte sequence from heap bytes. */
    static void writeBytes(ByteOutput out, byte[] bytes) {
        out.ensure(MAX_VARLONG + bytes.length);
        putLong(out, bytes.length);
        System.arraycopy(bytes, 0, out.buf, out.pos, bytes.length);
        out.pos += bytes.length;
    }

    /** A length-prefixed byte sequence copied from Arrow memory. */
    static void writeBytes(ByteOutput out, long address, int length) {
        out.ensure(MAX_VARLONG + length);
        putLong(out, length);
        out.copyFromMemory(address, length);
    }
}
