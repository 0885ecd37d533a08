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

    /** Most bytes {@link #putLong} stores: a sign and 19 digits. */
    public static final int MAX_LONG_BYTES = 20;

    /** Writes {@code value} in decimal, as {@code Long.toString} spells it. */
    public static void writeLong(ByteOutput out, long value) {
        out.ensure(MAX_LONG_BYTES);
        out.pos = putLong(out.buf, out.pos, value);
    }

    /**
     * Stores {@code value} in decimal at {@code p} and returns the position after it; the caller has
     * made room for {@link #MAX_LONG_BYTES}.
     */
    public static int putLong(byte[] b, int p, long value) {
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                System.arraycopy(LONG_MIN, 0, b, p, LONG_MIN.length);
                return p + LONG_MIN.length;
            }
            b[p++] = '-';
            value = -value;
        }
        int end = p + digitCount(value);
        writeDigitsBackwards(b, value, end);
        return end;
    }

    /** Writes a non-negative value zero-padded to {@code width} digits (wider values in full). */
    public static void writePadded(ByteOutput out, long value, int width) {
        out.ensure(Math.max(digitCount(value), width));
        out.pos = putPadded(out.buf, out.pos, value, width);
    }

    /** As {@link #writePadded}, storing at {@code p}; returns the position after the digits. */
    public static int putPadded(byte[] b, int p, long value, int width) {
        int digits = digitCount(value);
        for (int i = digits; i < width; i++) {
            b[p++] = '0';
        }
        int end = p + digits;
        writeDigitsBackwards(b, value, end);
        return end;
    }

    /** Writes exactly two digits of {@code value} (0..99); the caller has ensured the room. */
    public static void putTwoDigits(ByteOutput out, int value) {
        putTwoDigits(out.buf, out.pos, value);
        out.pos += 2;
    }

    /** Stores exactly two digits of {@code value} (0..99) at {@code p}. */
    public static void putTwoDigits(byte[] b, int p, int value) {
        b[p] = DIGIT_PAIRS[2 * value];
        b[p + 1] = DIGIT_PAIRS[2 * value + 1];
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
