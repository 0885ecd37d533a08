package io.columnarkafka.format.json;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Validity (and BOOLEAN value) bits written straight into a vector's buffers, for readers that append into buffers
 * they have checked have room (Arrow's {@code setSafe} checks capacity and bounds on every value).
 */
final class ArrowAppend {
    private ArrowAppend() {}

    static void setValid(long validity, int index) {
        long at = validity + (index >> 3);
        MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) | (1 << (index & 7))));
    }

    static void setNull(long validity, int index) {
        long at = validity + (index >> 3);
        MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) & ~(1 << (index & 7))));
    }

    /** Bit {@code index} of a bit-packed buffer (validity, or a BOOLEAN vector's values). */
    static boolean bit(long buffer, int index) {
        return (MemoryUtil.getByte(buffer + (index >> 3)) & (1 << (index & 7))) != 0;
    }

    /** Bit {@code index} of a bit-packed buffer (a BOOLEAN vector's values) set to {@code value}. */
    static void setBit(long buffer, int index, boolean value) {
        if (value) {
            setValid(buffer, index);
        } else {
            setNull(buffer, index);
        }
    }
}
