package io.columnarkafka.format.text;

import io.columnarkafka.format.ByteOutput;

/**
 * Writes an epoch day as {@code ISO_LOCAL_DATE} spells it: {@code yyyy-MM-dd}, years after 9999 with
 * a {@code +}, negative years with a {@code -}, at least four year digits. The bytes of the last day
 * written are kept, so a run of values on the same day (the usual case in a batch of timestamps) costs
 * one array copy instead of a calendar computation.
 *
 * <p>The calendar arithmetic is the proleptic Gregorian civil-from-days computation (as in Howard
 * Hinnant's date algorithms), which agrees with {@code LocalDate.ofEpochDay} on every day.
 *
 * <p>Not thread-safe: one per writer.
 */
public final class DateText {
    private static final long DAYS_PER_ERA = 146_097;
    /** Days from 0000-03-01 to 1970-01-01. */
    private static final long EPOCH_SHIFT = 719_468;

    /** Most bytes a date takes: a sign, 17 year digits (of a long epoch day) and {@code -MM-dd}. */
    public static final int MAX_BYTES = 24;

    private final byte[] cached = new byte[MAX_BYTES];
    private final ByteOutput scratch = ByteOutput.over(cached);
    private long cachedDay = Long.MIN_VALUE;
    private int cachedLength;

    /** Writes the date of {@code epochDay}, without quotes. */
    public void write(ByteOutput out, long epochDay) {
        out.ensure(MAX_BYTES);
        out.pos = put(out.buf, out.pos, epochDay);
    }

    /**
     * Stores the date of {@code epochDay} at {@code p} and returns the position after it; the caller has
     * made room for {@link #MAX_BYTES}.
     */
    public int put(byte[] b, int p, long epochDay) {
        if (epochDay != cachedDay) {
            format(epochDay);
        }
        System.arraycopy(cached, 0, b, p, cachedLength);
        return p + cachedLength;
    }

    private void format(long epochDay) {
        long z = epochDay + EPOCH_SHIFT;
        long era = Math.floorDiv(z, DAYS_PER_ERA);
        long dayOfEra = z - era * DAYS_PER_ERA;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long shiftedMonth = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
        int month = (int) (shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);

        scratch.pos = 0;
        if (year > 9999) {
            scratch.buf[scratch.pos++] = '+';
        } else if (year < 0) {
            scratch.buf[scratch.pos++] = '-';
        }
        Digits.writePadded(scratch, Math.abs(year), 4);
        scratch.buf[scratch.pos++] = '-';
        Digits.putTwoDigits(scratch, month);
        scratch.buf[scratch.pos++] = '-';
        Digits.putTwoDigits(scratch, day);
        cachedLength = scratch.pos;
        cachedDay = epochDay;
    }
}
