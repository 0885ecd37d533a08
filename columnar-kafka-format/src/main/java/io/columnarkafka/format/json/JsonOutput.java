package io.columnarkafka.format.json;

import io.columnarkafka.format.RecordSlab;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The byte sink JSON writers write into, in the style of Jackson's {@code UTF8JsonGenerator}: a plain
 * {@code byte[]} and a position, kept in fields the JIT can hold in registers, with {@link #ensure(int)}
 * called once per value for that value's worst-case size. The array is the {@link RecordSlab}'s buffer;
 * the position is stored back into the slab at record boundaries only.
 */
final class JsonOutput {
    /** Digits of 0..99 as pairs, so number writers emit two digits per division. */
    private static final byte[] DIGIT_PAIRS = new byte[200];
    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes();

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    private RecordSlab slab;
    byte[] buf;
    int pos;
    /** Row of the batch being written, for error messages. */
    private int row;

    /** An output on its own growing array, for bytes computed once when a plan is built. */
    static JsonOutput standalone(int capacity) {
        JsonOutput out = new JsonOutput();
        out.buf = new byte[Math.max(16, capacity)];
        return out;
    }

    /** An output over a fixed scratch array that is known to be large enough. */
    static JsonOutput over(byte[] scratch) {
        JsonOutput out = new JsonOutput();
        out.buf = scratch;
        return out;
    }

    /** Starts writing a batch into {@code target}, which has just been reset. */
    void begin(RecordSlab target) {
        slab = target;
        buf = target.buffer();
        pos = target.position();
    }

    void startRecord(int batchRow) {
        row = batchRow;
        slab.position(pos);
        slab.startRecord();
    }

    void endRecord() {
        slab.position(pos);
        slab.endRecord();
    }

    int row() {
        return row;
    }

    /** Makes room for {@code extra} bytes after {@link #pos}; {@link #buf} may change. */
    void ensure(int extra) {
        if (buf.length - pos < extra) {
            if (slab == null) {
                buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, pos + extra));
            } else {
                slab.position(pos);
                buf = slab.ensure(extra);
            }
        }
    }

    /** As {@link #ensure(int)} for a size computed in longs, e.g. six output bytes per input byte. */
    void ensure(long extra) {
        if (extra > Integer.MAX_VALUE) {
            throw new IllegalStateException(
                    "a JSON value needs " + extra + " bytes, more than one Java array holds");
        }
        ensure((int) extra);
    }

    void writeByte(byte b) {
        ensure(1);
        buf[pos++] = b;
    }

    void writeBytes(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, pos, bytes.length);
        pos += bytes.length;
    }

    /** Copies {@code length} bytes of off-heap Arrow memory; the caller has ensured the room. */
    void copyFromMemory(long address, int length) {
        MemoryUtil.copyFromMemory(address, buf, pos, length);
        pos += length;
    }

    /** Writes a string's chars, which must all be ASCII, one byte each. */
    void writeAscii(String ascii) {
        int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[pos++] = (byte) ascii.charAt(i);
        }
    }

    void writeInt(int value) {
        writeLong(value);
    }

    /** Writes {@code value} in decimal, as {@code Long.toString} spells it, without a String. */
    void writeLong(long value) {
        ensure(20);
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                System.arraycopy(LONG_MIN, 0, buf, pos, LONG_MIN.length);
                pos += LONG_MIN.length;
                return;
            }
            buf[pos++] = '-';
            value = -value;
        }
        int end = pos + digitCount(value);
        writeDigitsBackwards(value, end);
        pos = end;
    }

    /** Writes a non-negative value zero-padded to {@code width} digits (wider values in full). */
    void writePadded(long value, int width) {
        int digits = digitCount(value);
        ensure(Math.max(digits, width));
        for (int i = digits; i < width; i++) {
            buf[pos++] = '0';
        }
        int end = pos + digits;
        writeDigitsBackwards(value, end);
        pos = end;
    }

    /** Writes exactly two digits of {@code value} (0..99); the caller has ensured the room. */
    void putTwoDigits(int value) {
        buf[pos] = DIGIT_PAIRS[2 * value];
        buf[pos + 1] = DIGIT_PAIRS[2 * value + 1];
        pos += 2;
    }

    private void writeDigitsBackwards(long value, int end) {
        byte[] b = buf;
        int p = end;
        while (value >= 100) {
            int pair = (int) (value % 100);
            value /= 100;
            b[--p] = DIGIT_PAIRS[2 * pair + 1];
            b[--p] = DIGIT_PAIRS[2 * pair];
        }
        if (value >= 10) {
            b[--p] = DIGIT_PAIRS[2 * (int) value + 1];
            b[--p] = DIGIT_PAIRS[2 * (int) value];
        } else {
            b[--p] = (byte) ('0' + value);
        }
    }

    /** Number of decimal digits of a non-negative long. */
    static int digitCount(long value) {
        long bound = 10;
        for (int digits = 1; digits < 19; digits++) {
            if (value < bound) {
                return digits;
            }
            bound *= 10;
        }
        return 19;
    }
}
