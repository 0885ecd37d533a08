package io.columnarkafka.format.protobuf;

/**
 * A cursor over protobuf wire bytes, read as protobuf-java's {@code CodedInputStream} reads them for
 * {@code parseFrom(byte[])}: varints of at most ten bytes (a 32-bit read keeps the low 32 bits of a longer
 * one), little-endian fixed32/fixed64, length prefixes that may not be negative or run past the enclosing
 * message, tags whose field number may not be 0 and whose wire type may not be 6 or 7, and unknown groups
 * closed by their own end-group tag within 100 levels of nesting. Where protobuf-java throws an {@code
 * InvalidProtocolBufferException}, this throws {@link Malformed} with the same reason.
 */
final class PbInput {
    /** Nesting protobuf-java allows (its default recursion limit), messages and groups together. */
    static final int RECURSION_LIMIT = 100;

    /** A record protobuf-java cannot parse (or Flink cannot convert), with the field being read. */
    static final class Malformed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        /** The path of the innermost field being read when it failed, set once by the reader that catches it. */
        String field;

        Malformed(String reason) {
            super(reason, null, false, false);
        }

        /** Names the field by its column path unless a reader inside it already did. */
        Malformed at(String path) {
            if (field == null) {
                field = path;
            }
            return this;
        }

        /** Puts the name of the enclosing field in front of the path found so far. */
        Malformed within(String name) {
            field = field == null ? name : name + "." + field;
            return this;
        }
    }

    static final int START_GROUP = 3;
    static final int END_GROUP = 4;

    static final String TRUNCATED = "While parsing a protocol message, the input ended unexpectedly in the middle"
            + " of a field (InvalidProtocolBufferException)";

    byte[] buf;
    int pos;
    /** End of the message being read (the record, or a length-delimited value). */
    int limit;

    void reset(byte[] array, int from, int to) {
        buf = array;
        pos = from;
        limit = to;
    }

    private int next() {
        if (pos >= limit) {
            throw new Malformed(TRUNCATED);
        }
        return buf[pos++];
    }

    /**
     * A varint as protobuf-java's {@code readRawVarint64}. Of a ten-byte varint, protobuf-java's fast path (taken
     * when ten bytes or more remain before the limit) keeps bit 63 set whatever the tenth byte holds, its slow
     * path takes bit 63 from the tenth byte's low bit; both are reproduced, so {@link #limit} must be the
     * limit protobuf-java has there (the end of the record, nested message or packed run).
     */
    long readVarint64() {
        int start = pos;
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = next();
            result |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                if (shift == 63 && limit - start >= 10) {
                    result |= Long.MIN_VALUE;
                }
                return result;
            }
        }
        throw new Malformed("CodedInputStream encountered a malformed varint.");
    }

    /** A varint as protobuf's {@code readRawVarint32}: the low 32 bits of up to ten bytes. */
    int readVarint32() {
        return (int) readVarint64();
    }

    int readFixed32() {
        if (limit - pos < 4) {
            pos = limit;
            throw new Malformed(TRUNCATED);
        }
        int p = pos;
        pos += 4;
        return (buf[p] & 0xFF) | (buf[p + 1] & 0xFF) << 8 | (buf[p + 2] & 0xFF) << 16 | (buf[p + 3] & 0xFF) << 24;
    }

    long readFixed64() {
        long low = readFixed32() & 0xFFFFFFFFL;
        return low | (long) readFixed32() << 32;
    }

    /** The length of a length-delimited value, whose bytes are then {@code [pos, pos + length)}. */
    int readLength() {
        int length = readVarint32();
        if (length < 0) {
            throw new Malformed("CodedInputStream encountered an embedded string or message which claimed to have"
                    + " negative size.");
        }
        if (length > limit - pos) {
            pos = limit;
            throw new Malformed(TRUNCATED);
        }
        return length;
    }

    /** The next tag, or 0 at the end of the message. */
    int readTag() {
        if (pos >= limit) {
            return 0;
        }
        int tag = readVarint32();
        if (tag >>> 3 == 0) {
            throw new Malformed("Protocol message contained an invalid tag (zero).");
        }
        return tag;
    }

    /**
     * Skips the value of an unknown field (or of a known field with an unexpected wire type), checking it as
     * protobuf-java's unknown-field set parses it; {@code depth}: messages and groups enclosing the field.
     *
     * @throws Malformed also for an end-group tag, which ends a message only inside a group
     */
    void skipField(int tag, int depth) {
        switch (tag & 7) {
            case PbWire.VARINT:
                readVarint64();
                return;
            case PbWire.FIXED64:
                skipBytes(8);
                return;
            case PbWire.LENGTH_DELIMITED:
                int length = readLength(); // before reading pos: the length moves it
                pos += length;
                return;
            case START_GROUP:
                skipGroup(tag >>> 3, depth + 1);
                return;
            case PbWire.FIXED32:
                skipBytes(4);
                return;
            case END_GROUP:
                throw new Malformed("Protocol message end-group tag did not match expected tag.");
            default:
                throw new Malformed("Protocol message tag had invalid wire type.");
        }
    }

    private void skipGroup(int fieldNumber, int depth) {
        if (depth > RECURSION_LIMIT) {
            throw new Malformed("Protocol message had too many levels of nesting.");
        }
        while (true) {
            int tag = readTag();
            if (tag == 0) {
                throw new Malformed("Protocol message end-group tag did not match expected tag.");
            }
            if ((tag & 7) == END_GROUP) {
                if (tag >>> 3 != fieldNumber) {
                    throw new Malformed("Protocol message end-group tag did not match expected tag.");
                }
                return;
            }
            skipField(tag, depth);
        }
    }

    private void skipBytes(int n) {
        if (limit - pos < n) {
            pos = limit;
            throw new Malformed(TRUNCATED);
        }
        pos += n;
    }
}
