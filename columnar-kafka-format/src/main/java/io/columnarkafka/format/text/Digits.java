package io.columnarkafka.format.text;

import io.columnarkafka.format.ByteOutput;

/** Decimal digits of integers, written straight into a {@link ByteOutput} without a String. */
public final class Digits {
    /** Digits of 0..99 as pairs, so number writers emit two digits per division. */
    private static final byte[] DIGIT_PAIRS = new byte[200];
    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes();
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private Digits() {}

    /** 10^{@code exponent} for 0..18. */
    public static long powerOfTen(int exponent) {
        return POWERS_OF_TEN[exponent];
    }

    public static void writeInt(ByteOutput out, int value) {
        writeLong(out, value);
    }

    /** Writes {@code value} in decimal, as {@code Long.toString} spells it. */
    public static void writeLong(ByteOutput out, long value) {
        out.ensure(20);
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                System.arraycopy(LONG_MIN, 0, out.buf, out.pos, LONG_MIN.length);
                out.pos += LONG_MIN.length;
                return;
            }
            out.buf[out.pos++] = '-';
            value = -value;
        }
        int end = out.pos + digitCount(value);
        writeDigitsBackwards(out.buf, value, end);
        out.pos = end;
    }

    /** Writes a non-negative value zero-padded to {@code width} digits (wider values in full). */
    public static void writePadded(ByteOutput out, long value, int width) {
        int digits = digitCount(value);
        out.ensure(Math.max(digits, width));
        for (int i = digits; i < width; i++) {
            out.buf[out.pos++] = '0';
        }
        int end = out.pos + digits;
        writeDigitsBackwards(out.buf, value, end);
        out.pos = end;
    }

    /** Writes exactly two digits of {@code value} (0..99); the caller has ensured the room. */
    public static void putTwoDigits(ByteOutput out, int value) {
        out.buf[out.pos] = DIGIT_PAIRS[2 * value];
        out.buf[out.pos + 1] = DIGIT_PAIRS[2 * value + 1];
        out.pos += 2;
    }

    private static void writeDigitsBackwards(byte[] b, long value, int end) {
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
    public static int digitCount(long value) {
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
