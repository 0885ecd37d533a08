package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;

/**
 * The primitives of the protobuf wire format (protobuf.dev "Encoding"): base-128 varints, zig-zag,
 * little-endian fixed32/fixed64, and length-delimited values.
 *
 * <p>Length-delimited values (nested messages, packed fields, map entries) are written in place: one byte
 * is reserved for the length, the content is written after it, and the length is patched in; a content of
 * 128 bytes or more is moved right by the extra length bytes. This avoids a sizing pass over every nested
 * value (which would read each Arrow value twice and need per-level size caches); the move costs one
 * {@code arraycopy} of the content only for values of 128 bytes or more.
 */
final class PbWire {
    static final int MAX_VARINT = 10;
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;

    private PbWire() {}

    /** The varint bytes of the tag of {@code fieldNumber} with {@code wireType}. */
    static byte[] tag(int fieldNumber, int wireType) {
        ByteOutput out = ByteOutput.standalone(5);
        out.ensure(MAX_VARINT);
        out.putVarint(((long) fieldNumber << 3 | wireType) & 0xFFFFFFFFL);
        return out.toByteArray();
    }

    static int varintSize(long value) {
        return value == 0 ? 1 : (63 - Long.numberOfLeadingZeros(value)) / 7 + 1;
    }

    /** Reserves the length byte of a length-delimited value; returns its position for {@link #endLength}. */
    static int beginLength(ByteOutput out) {
        out.ensure(1);
        return out.pos++;
    }

    /** Patches the length of the content written since {@link #beginLength} returned {@code lengthAt}. */
    static void endLength(ByteOutput out, int lengthAt) {
        int length = out.pos - lengthAt - 1;
        if (length < 0x80) {
            out.buf[lengthAt] = (byte) length;
            return;
        }
        int extra = varintSize(length) - 1;
        out.ensure(extra);
        System.arraycopy(out.buf, lengthAt + 1, out.buf, lengthAt + 1 + extra, length);
        int end = out.pos + extra;
        out.pos = lengthAt;
        out.putVarint(length);
        out.pos = end;
    }
}
