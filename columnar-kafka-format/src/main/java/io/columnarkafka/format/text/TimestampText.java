package io.columnarkafka.format.text;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * Spells an Arrow Timestamp value (SECOND, MILLISECOND, MICROSECOND or NANOSECOND since the epoch) as
 * Flink's {@code TimeFormats} do: the date ({@code ISO_LOCAL_DATE}), a separator ({@code ' '} for SQL,
 * {@code 'T'} for ISO-8601), {@code HH:mm:ss}, then the fraction of the second with trailing zeros
 * stripped (none if zero) whatever the declared precision, and an optional {@code Z}.
 *
 * <p>Values reach Flink as {@code TimestampData} (epoch millis plus nanos of the milli). Formats read it
 * either through {@code toLocalDateTime()}, whose day is {@code (int) (millis / 86400000)} (reproduced
 * here, including its wrap-around for days beyond the int range), or through {@code toInstant()} at
 * UTC, whose day is the exact floor division.
 *
 * <p>Not thread-safe: one per writer (it caches the last day).
 */
public final class TimestampText {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private final DateText dates = new DateText();
    /**
     * Date, separator and {@code HH:mm:ss} of the last second written: consecutive values of a batch
     * usually fall in the same second, which then costs one array copy.
     */
    private final ByteOutput prefix = ByteOutput.standalone(32);
    /** Epoch millisecond at which the cached second starts (a multiple of 1000). */
    private long prefixStart;
    private final String path;
    private final TimeUnit unit;
    private final boolean instantDay;
    private final boolean zulu;
    private final byte separator;

    private TimestampText(String path, TimeUnit unit, byte separator, boolean instantDay, boolean zulu) {
        this.path = path;
        this.unit = unit;
        this.separator = separator;
        this.instantDay = instantDay;
        this.zulu = zulu;
        formatPrefix(0);
    }

    /** As {@code TimestampData.toLocalDateTime()} formatted; {@code zulu} appends a {@code Z}. */
    public static TimestampText localDateTime(String path, TimeUnit unit, char separator, boolean zulu) {
        return new TimestampText(path, unit, (byte) separator, false, zulu);
    }

    /** As {@code TimestampData.toInstant().atOffset(UTC)} formatted, with a {@code Z}. */
    public static TimestampText instantAtUtc(String path, TimeUnit unit, char separator) {
        return new TimestampText(path, unit, (byte) separator, true, true);
    }

    /** Most bytes a value takes: the date, the separator, {@code HH:mm:ss}, up to 10 of fraction, {@code Z}. */
    public static final int MAX_BYTES = DateText.MAX_BYTES + 1 + 8 + 10 + 1;

    /**
     * Writes {@code value}, without quotes.
     *
     * @throws EncodeException if a SECOND value does not fit epoch milliseconds
     */
    public void write(ByteOutput out, long value) {
        out.ensure(MAX_BYTES);
        out.pos = put(out, out.pos, value);
    }

    /**
     * Stores {@code value} into {@code out.buf} at {@code p} and returns the position after it; the
     * caller has made room for {@link #MAX_BYTES}.
     *
     * @throws EncodeException if a SECOND value does not fit epoch milliseconds
     */
    public int put(ByteOutput out, int p, long value) {
        long millis;
        int nanoOfMilli;
        switch (unit) {
            case SECOND:
                if (value > Long.MAX_VALUE / 1000 || value < Long.MIN_VALUE / 1000) {
                    throw new EncodeException(path, out.row(),
                            "TIMESTAMP value " + value + " s does not fit epoch milliseconds");
                }
                millis = value * 1000;
                nanoOfMilli = 0;
                break;
            case MILLISECOND:
                millis = value;
                nanoOfMilli = 0;
                break;
            case MICROSECOND:
                millis = Math.floorDiv(value, 1000L);
                nanoOfMilli = (int) Math.floorMod(value, 1000L) * 1000;
                break;
            default:
                millis = Math.floorDiv(value, 1_000_000L);
                nanoOfMilli = (int) Math.floorMod(value, 1_000_000L);
                break;
        }
        return put(out, p, millis, nanoOfMilli);
    }

    /**
     * Stores Flink's pair, epoch {@code millis} and {@code nanoOfMilli} (0–999,999), whatever this text's
     * unit (the {@code WideTimestamps} layout), as {@link #put(ByteOutput, int, long)} does.
     */
    public int put(ByteOutput out, int p, long millis, int nanoOfMilli) {
        // A second never straddles days, so every value of the cached second has the cached prefix.
        // (Compared without subtracting, which could wrap; near Long.MAX_VALUE the sum wraps and the
        // prefix is merely formatted again.)
        if (millis < prefixStart || millis >= prefixStart + 1000) {
            formatPrefix(millis);
        }
        long millisOfSecond = millis - prefixStart;
        byte[] b = out.buf;
        System.arraycopy(prefix.buf, 0, b, p, prefix.pos);
        p += prefix.pos;
        if (nanoOfMilli == 0) {
            p = putMillis(b, p, (int) millisOfSecond);
        } else {
            p = TimeText.putFraction(b, p, (int) millisOfSecond * 1_000_000 + nanoOfMilli);
        }
        if (zulu) {
            b[p++] = 'Z';
        }
        return p;
    }

    /** Keeps the bytes of date, separator and {@code HH:mm:ss} of the second of epoch milli {@code millis}. */
    private void formatPrefix(long millis) {
        long day;
        int millisOfDay;
        if (instantDay) {
            day = Math.floorDiv(millis, MILLIS_PER_DAY);
            millisOfDay = (int) Math.floorMod(millis, MILLIS_PER_DAY);
        } else {
            int flinkDay = (int) (millis / MILLIS_PER_DAY);
            millisOfDay = (int) (millis % MILLIS_PER_DAY);
            if (millisOfDay < 0) {
                flinkDay--;
                millisOfDay += (int) MILLIS_PER_DAY;
            }
            day = flinkDay;
        }
        prefix.pos = 0;
        dates.write(prefix, day);
        prefix.ensure(9);
        prefix.buf[prefix.pos++] = separator;
        TimeText.writeTimeOfDay(prefix, millisOfDay / 1000);
        prefixStart = millis - millisOfDay % 1000;
    }

    /**
     * The fraction of a whole number of milliseconds, as {@link TimeText#putFraction} spells it: nothing
     * for zero, else {@code .} and the three digits with trailing zeros stripped.
     */
    private static int putMillis(byte[] b, int p, int millis) {
        if (millis == 0) {
            return p;
        }
        b[p] = '.';
        b[p + 1] = (byte) ('0' + millis / 100);
        int tens = millis / 10 % 10;
        int ones = millis % 10;
        if (ones != 0) {
            b[p + 2] = (byte) ('0' + tens);
            b[p + 3] = (byte) ('0' + ones);
            return p + 4;
        }
        if (tens != 0) {
            b[p + 2] = (byte) ('0' + tens);
            return p + 3;
        }
        return p + 2;
    }
}
