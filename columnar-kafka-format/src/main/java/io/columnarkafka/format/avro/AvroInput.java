package io.columnarkafka.format.avro;

/**
 * A cursor over one Avro binary record, read as Avro 1.11's {@code BinaryDecoder} reads it: zig-zag
 * varints of at most 5 (int) or 10 (long) bytes, little-endian floats, length-prefixed bytes, a boolean
 * true only for the byte 1. Reading past the record's end, an over-long varint or a negative length
 * fails with {@link Malformed}, where Avro throws.
 */
final class AvroInput {
    /** A record Avro cannot read. */
    static final class Malformed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Malformed(String reason) {
            super(reason, null, false, false);
        }
    }

    byte[] buf;
    int pos;
    int end;

    void reset(byte[] array, int offset, int length) {
        buf = array;
        pos = offset;
        end = offset + length;
    }

    private int next() {
        if (pos >= end) {
            throw new Malformed("unexpected end of the record (EOFException)");
        }
        return buf[pos++] & 0xFF;
    }

    int readInt() {
        int b = next();
        int n = b & 0x7F;
        for (int shift = 7; b > 0x7F; shift += 7) {
            if (shift > 28) {
                throw new Malformed("Invalid int encoding");
            }
            b = next();
            n ^= (b & 0x7F) << shift;
        }
        return (n >>> 1) ^ -(n & 1);
    }

    long readLong() {
        int b = next();
        long n = b & 0x7F;
        for (int shift = 7; b > 0x7F; shift += 7) {
            if (shift > 63) {
                throw new Malformed("Invalid long encoding");
            }
            b = next();
            n ^= (long) (b & 0x7F) << shift;
        }
        return (n >>> 1) ^ -(n & 1);
    }

    boolean readBoolean() {
        return next() == 1;
    }

    int readFixedInt() {
        if (end - pos < 4) {
            pos = end;
            throw new Malformed("unexpected end of the record (EOFException)");
        }
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16 | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    long readFixedLong() {
        long low = readFixedInt() & 0xFFFFFFFFL;
        return low | (long) readFixedInt() << 32;
    }

    /** The length of a string or bytes value, its bytes then at {@code [pos, pos + length)}. */
    int readLength() {
        long length = readLong();
        if (length < 0) {
            throw new Malformed("Malformed data. Length is negative: " + length);
        }
        if (length > end - pos) {
            pos = end;
            throw new Malformed("unexpected end of the record (EOFException)");
        }
        return (int) length;
    }

    /** The size of a fixed value of {@code size} bytes, its bytes then at {@code [pos, pos + size)}. */
    int readFixedLength(int size) {
        if (size > end - pos) {
            pos = end;
            throw new Malformed("unexpected end of the record (EOFException)");
        }
        return size;
    }

    /** Moves past a string or bytes value. */
    void skipLength() {
        int length = readLength();
        pos += length;
    }

    /**
     * The count of the next block of an array or map, made positive (a negative count is followed by a byte
     * size); a count past the record's end fails, as every array element and map entry takes a byte at least.
     */
    long readBlockCount() {
        long count = readLong();
        if (count < 0) {
            readLong();
            count = -count;
        }
        if (count > end - pos) {
            throw new Malformed("a block of " + count + " items past the record's end");
        }
        return count;
    }
}
