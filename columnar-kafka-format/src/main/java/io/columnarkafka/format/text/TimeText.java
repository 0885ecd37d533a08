package io.columnarkafka.format.text;

import io.columnarkafka.format.ByteOutput;

/** Time-of-day spelling shared by the text formats. */
public final class TimeText {
    private TimeText() {}

    /** Writes {@code HH:mm:ss}; the caller has ensured 8 bytes of room. */
    public static void writeTimeOfDay(ByteOutput out, int secondOfDay) {
        out.pos = putTimeOfDay(out.buf, out.pos, secondOfDay);
    }

    /** As {@link #writeTimeOfDay}, storing at {@code p}; returns {@code p + 8}. */
    public static int putTimeOfDay(byte[] b, int p, int secondOfDay) {
        Digits.putTwoDigits(b, p, secondOfDay / 3600);
        b[p + 2] = ':';
        Digits.putTwoDigits(b, p + 3, secondOfDay / 60 % 60);
        b[p + 5] = ':';
        Digits.putTwoDigits(b, p + 6, secondOfDay % 60);
        return p + 8;
    }

    /**
     * Writes the fraction of a second as {@code appendFraction(NANO_OF_SECOND, 0, 9, true)} does:
     * nothing for zero, else {@code .} and the nanos with trailing zeros stripped. The caller has
     * ensured 10 bytes of room.
     */
    public static void writeFraction(ByteOutput out, int nanoOfSecond) {
        out.pos = putFraction(out.buf, out.pos, nanoOfSecond);
    }

    /** As {@link #writeFraction}, storing at {@code p}; returns the position after the fraction. */
    public static int putFraction(byte[] b, int p, int nanoOfSecond) {
        if (nanoOfSecond == 0) {
            return p;
        }
        b[p++] = '.';
        int end = Digits.putPadded(b, p, nanoOfSecond, 9);
        while (b[end - 1] == '0') {
            end--;
        }
        return end;
    }
}
