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

    /** Writes the text of (millis, nanos of the millisecond) at {@code at}. */
    static void write(long millis, int nanoOfMilli, int precision, byte[] to, int at) {
        long days = Math.floorDiv(millis, MILLIS_PER_DAY);
        long millisOfDay = Math.floorMod(millis, MILLIS_PER_DAY);
        // days since 1970-01-01 to year, month, day (Howard Hinnant's civil_from_days, proleptic Gregorian)
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        int hour = (int) (millisOfDay / 3_600_000);
        int minute = (int) (millisOfDay / 60_000 % 60);
        int second = (int) (millisOfDay / 1000 % 60);
        int nanoOfSecond = (int) (millisOfDay % 1000) * 1_000_000 + nanoOfMilli;
        to[at] = digit(year / 1000 % 10);
        to[at + 1] = digit(year / 100 % 10);
        to[at + 2] = digit(year / 10 % 10);
        to[at + 3] = digit(year % 10);
        to[at + 4] = '-';
        two(month, to, at + 5);
        to[at + 7] = '-';
        two(day, to, at + 8);
        to[at + 10] = ' ';
        two(hour, to, at + 11);
        to[at + 13] = ':';
        two(minute, to, at + 14);
        to[at + 16] = ':';
        two(second, to, at + 17);
        if (precision > 0) {
            to[at + 19] = '.';
            int divisor = 100_000_000;
            for (int d = 0; d < precision; d++) {
                to[at + 20 + d] = digit(nanoOfSecond / divisor % 10);
                divisor /= 10;
            }
        }
    }

    private static void two(int value, byte[] to, int at) {
        to[at] = digit(value / 10 % 10);
        to[at + 1] = digit(value % 10);
    }

    /** {@code '0' + d} as Flink appends it, also for the odd negative digit of a year before 1. */
    private static byte digit(int d) {
        return (byte) ('0' + d);
    }
}
