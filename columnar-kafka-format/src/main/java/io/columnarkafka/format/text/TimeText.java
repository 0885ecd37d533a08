package io.columnarkafka.format.text;

import io.columnarkafka.format.ByteOutput;

/** Time-of-day spelling shared by the text formats. */
public final class TimeText {
    private TimeText() {}

    /** Writes {@code HH:mm:ss}; the caller has ensured 8 bytes of room. */
    public static void writeTimeOfDay(ByteOutput out, int secondOfDay) {
        Digits.putTwoDigits(out, secondOfDay / 3600);
        out.buf[out.pos++] = ':';
        Digits.putTwoDigits(out, secondOfDay / 60 % 60);
        out.buf[out.pos++] = ':';
        Digits.putTwoDigits(out, secondOfDay % 60);
    }

    /**
     * Writes the fraction of a second as {@code appendFraction(NANO_OF_SECOND, 0, 9, true)} does:
     * nothing for zero, else {@code .} and the nanos with trailing zeros stripped. The caller has
     * ensured 10 bytes of room.
     */
    public static void writeFraction(ByteOutput out, int nanoOfSecond) {
        if (nanoOfSecond != 0) {
            out.buf[out.pos++] = '.';
            Digits.writePadded(out, nanoOfSecond, 9);
            while (out.buf[out.pos - 1] == '0') {
                out.pos--;
            }
        }
    }
}
