package io.columnarkafka.flink.calc.eval;

/**
 * A TIMESTAMP(p) as Flink's CAST to STRING spells it ({@code DateTimeUtils#formatTimestamp(ts, p)}):
 * {@code yyyy-MM-dd HH:mm:ss}, then {@code .} and the first p digits of the nanos of the second when p > 0.
 * Each field is written with the same digit arithmetic as Flink's (the year as exactly four digits), from
 * the proleptic Gregorian calendar fields of the epoch milliseconds, with no objects.
 */
final class TimestampText {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private TimestampText() {}

    /** Bytes the text of a TIMESTAMP({@code precision}) takes. */
    static int length(int precision) {
        return 19 + (precision > 0 ? 1 + precision : 0);
    }

    /** {@link #fields} index of the year (proleptic Gregorian, 0 is 1 BC). */
    static final int YEAR = 0;
    /** {@link #fields} index of the month of the year, 1–12. */
    static final int MONTH = 1;
    /** {@link #fields} index of the day of the month. */
    static final int DAY = 2;
    /** {@link #fields} index of the hour of the day. */
    static final int HOUR = 3;
    /** {@link #fields} index of the minute of the hour. */
    static final int MINUTE = 4;
    /** {@link #fields} index of the second of the minute. */
    static final int SECOND = 5;
    /** {@link #fields} index of the nanoseconds of the second. */
    static final int NANO = 6;
    /** The size of a {@link #fields} array. */
    static final int FIELD_COUNT = 7;

    /** Writes the text of (millis, nanos of the millisecond) at {@code at}; {@code fields} is scratch. */
    static void write(long millis, int nanoOfMilli, int precision, int[] fields, byte[] to, int at) {
        fields(millis, nanoOfMilli, fields);
        int year = fields[YEAR];
        to[at] = digit(year / 1000 % 10);
        to[at + 1] = digit(year / 100 % 10);
        to[at + 2] = digit(year / 10 % 10);
        to[at + 3] = digit(year % 10);
        to[at + 4] = '-';
        two(fields[MONTH], to, at + 5);
        to[at + 7] = '-';
        two(fields[DAY], to, at + 8);
        to[at + 10] = ' ';
        two(fields[HOUR], to, at + 11);
        to[at + 13] = ':';
        two(fields[MINUTE], to, at + 14);
        to[at + 16] = ':';
        two(fields[SECOND], to, at + 17);
        if (precision > 0) {
            to[at + 19] = '.';
            int nanoOfSecond = fields[NANO];
            int divisor = 100_000_000;
            for (int d = 0; d < precision; d++) {
                to[at + 20 + d] = digit(nanoOfSecond / divisor % 10);
                divisor /= 10;
            }
        }
    }

    /**
     * The calendar and clock fields of (millis, nanos of the millisecond) as {@code LocalDateTime.ofEpochSecond} at
     * UTC gives them, into {@code into} at {@link #YEAR} ... {@link #NANO}; no objects.
     */
    static void fields(long millis, int nanoOfMilli, int[] into) {
        long days = Math.floorDiv(millis, MILLIS_PER_DAY);
        long millisOfDay = Math.floorMod(millis, MILLIS_PER_DAY);
        // days since 1970-01-01 to year, month, day (Howard Hinnant's civil_from_days, proleptic Gregorian)
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        into[YEAR] = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        into[MONTH] = month;
        into[DAY] = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        into[HOUR] = (int) (millisOfDay / 3_600_000);
        into[MINUTE] = (int) (millisOfDay / 60_000 % 60);
        into[SECOND] = (int) (millisOfDay / 1000 % 60);
        into[NANO] = (int) (millisOfDay % 1000) * 1_000_000 + nanoOfMilli;
    }

    static void two(int value, byte[] to, int at) {
        to[at] = digit(value / 10 % 10);
        to[at + 1] = digit(value % 10);
    }

    /** {@code '0' + d} as Flink appends it, also for the odd negative digit of a year before 1. */
    static byte digit(int d) {
        return (byte) ('0' + d);
    }
}
