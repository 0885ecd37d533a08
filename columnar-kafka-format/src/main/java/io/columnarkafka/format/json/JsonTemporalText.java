package io.columnarkafka.format.json;

import static java.time.temporal.ChronoField.NANO_OF_SECOND;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;

/**
 * Parses Flink's JSON date, time and timestamp texts. The formatters are declared exactly as Flink 2.2's
 * {@code TimeFormats} declares them (the JDK's {@code java.time} with the same builders), and they are the
 * exact path: every text the fast path does not fully recognise goes through them, so their leniency
 * (e.g. {@code 24:00:00} as the next day's midnight, a {@code .} with no digits, a lower-case {@code t} in
 * ISO-8601) is Flink's. The fast path reads the canonical spellings (four-digit years, two-digit fields,
 * 0–9 fraction digits, values in their ranges) straight from the bytes: {@code HH:mm:ss} as one word, and a
 * date whose ten bytes are the last date's is not parsed again.
 *
 * <p>A parse leaves the epoch day in {@link #epochDay} and the nanosecond of the day in {@link #nanoOfDay}.
 */
final class JsonTemporalText {
    static final DateTimeFormatter SQL_TIME = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss").appendFraction(NANO_OF_SECOND, 0, 9, true).toFormatter();
    static final DateTimeFormatter SQL_TIMESTAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral(' ').append(SQL_TIME).toFormatter();
    static final DateTimeFormatter SQL_TIMESTAMP_LTZ = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral(' ').append(SQL_TIME).appendPattern("'Z'")
            .toFormatter();
    static final DateTimeFormatter ISO_TIMESTAMP = DateTimeFormatter.ISO_LOCAL_DATE_TIME;
    static final DateTimeFormatter ISO_TIMESTAMP_LTZ = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral('T').append(DateTimeFormatter.ISO_LOCAL_TIME)
            .appendPattern("'Z'").toFormatter();

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** By the number of fraction digits (1..9): the nanoseconds one unit of the last digit is. */
    private static final long[] NANOS_OF_DIGITS = {0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100,
        10, 1};
    private static final int[] DAYS_IN_MONTH = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    /** The high nibbles of the digit bytes of {@code HH:mm:ss} read as a little-endian word. */
    private static final long TIME_DIGITS = 0xF0F000F0F000F0F0L;
    /** {@code HH:mm:ss} as a little-endian word with the digits masked out: the two colons. */
    private static final long TIME_COLONS = 0x00003A00003A0000L;

    long epochDay;
    long nanoOfDay;
    /**
     * The last date {@link #date} read, as its first eight bytes ({@code yyyy-MM-}) and last two, and its epoch
     * day: a batch's timestamps mostly share their day, so a date whose ten bytes are the last one's is not parsed
     * again.
     */
    private boolean dateCached;
    private long cachedDateHead;
    private int cachedDateTail;
    private long cachedEpochDay;

    /** Flink's {@code ISO_LOCAL_DATE.parse(text)}, to {@link #epochDay}. */
    void parseDate(JsonTokenizer t) {
        if (t.stringUnread()) {
            byte[] b = t.buffer();
            int start = t.stringStart();
            if (t.limit() - start > 10 && b[start + 10] == '"' && date(b, start)) {
                t.takePlainString(start + 10);
                return;
            }
        }
        if (t.prepareText() && t.textEnd() - t.textStart() == 10 && date(t.buffer(), t.textStart())) {
            return;
        }
        LocalDate date = DateTimeFormatter.ISO_LOCAL_DATE.parse(t.text()).query(TemporalQueries.localDate());
        epochDay = date.toEpochDay();
    }

    /** Flink's {@code SQL_TIME_FORMAT.parse(text)}, to {@link #nanoOfDay}. */
    void parseTime(JsonTokenizer t) {
        if (t.prepareText() && time(t.buffer(), t.textStart(), t.textEnd(), true) == t.textEnd()) {
            return;
        }
        nanoOfDay = SQL_TIME.parse(t.text()).query(TemporalQueries.localTime()).toNanoOfDay();
    }

    /** A timestamp in Flink's format for the standard and zone kind, to {@link #epochDay} and {@link #nanoOfDay}. */
    void parseTimestamp(JsonTokenizer t, boolean iso, boolean zulu) {
        if (t.stringUnread()) {
            // Straight from the record: a canonical timestamp is plain ASCII, so if its closing quote follows
            // it, the string is exactly these bytes and need not be scanned first.
            byte[] b = t.buffer();
            int limit = t.limit();
            int stop = timestampEnd(b, t.stringStart(), limit, iso, zulu);
            if (stop >= 0 && stop < limit && b[stop] == '"') {
                t.takePlainString(stop);
                return;
            }
        }
        if (t.prepareText() && timestampEnd(t.buffer(), t.textStart(), t.textEnd(), iso, zulu) == t.textEnd()) {
            return;
        }
        DateTimeFormatter format = iso ? (zulu ? ISO_TIMESTAMP_LTZ : ISO_TIMESTAMP)
                : (zulu ? SQL_TIMESTAMP_LTZ : SQL_TIMESTAMP);
        TemporalAccessor parsed = format.parse(t.text());
        LocalDate date = parsed.query(TemporalQueries.localDate());
        LocalTime time = parsed.query(TemporalQueries.localTime());
        epochDay = date.toEpochDay();
        nanoOfDay = time.toNanoOfDay();
    }

    /**
     * A canonical timestamp from {@code start}, read no further than {@code end}: sets {@link #epochDay} and
     * {@link #nanoOfDay} and returns where it ends, or -1. (A fraction stops at a non-digit, at 9 digits or
     * at {@code end}: the caller checks what follows.)
     */
    private int timestampEnd(byte[] b, int start, int end, boolean iso, boolean zulu) {
        if (end - start < 19 || !date(b, start) || b[start + 10] != (iso ? 'T' : ' ')) {
            return -1;
        }
        int stop = time(b, start + 11, end, false);
        if (!zulu || stop < 0) {
            return stop;
        }
        return stop < end && b[stop] == 'Z' ? stop + 1 : -1;
    }

    /**
     * {@code yyyy-MM-dd} with a valid day at {@code p} (ten bytes there, in {@code b}); sets {@link #epochDay}.
     */
    private boolean date(byte[] b, int p) {
        long head = JsonTokenizer.word(b, p);
        int tail = (b[p + 8] & 0xFF) | (b[p + 9] & 0xFF) << 8;
        if (dateCached && head == cachedDateHead && tail == cachedDateTail) {
            epochDay = cachedEpochDay;
            return true;
        }
        if (!dateUncached(b, p)) {
            return false;
        }
        dateCached = true;
        cachedDateHead = head;
        cachedDateTail = tail;
        cachedEpochDay = epochDay;
        return true;
    }

    /** {@link #date} without the cache. */
    private boolean dateUncached(byte[] b, int p) {
        int year = digits4(b, p);
        if (year < 0 || b[p + 4] != '-' || b[p + 7] != '-') {
            return false;
        }
        int month = digits2(b, p + 5);
        int day = digits2(b, p + 8);
        if (month < 1 || month > 12 || day < 1) {
            return false;
        }
        int length = month == 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month];
        if (day > length) {
            return false;
        }
        epochDay = epochDay(year, month, day);
        return true;
    }

    /**
     * {@code HH:mm:ss} plus an optional {@code .} and 1–9 digits at {@code p}, in range; sets {@link
     * #nanoOfDay} and returns the end position, or -1.
     */
    private int time(byte[] b, int p, int end, boolean alone) {
        if (end - p < 8) {
            return -1;
        }
        // HH:mm:ss as one word: its six digits tested at once (a byte a carry could disturb follows a non-digit,
        // which fails by itself, or a colon, which does not carry), the colons compared exactly
        long word = JsonTokenizer.word(b, p);
        if ((JsonTokenizer.notDigitBytes(word) & TIME_DIGITS) != 0 || (word & 0x0000FF0000FF0000L) != TIME_COLONS) {
            return -1;
        }
        long values = word - JsonTokenizer.ASCII_ZEROS;
        int hour = (int) (values & 0xFF) * 10 + (int) (values >>> 8 & 0xFF);
        int minute = (int) (values >>> 24 & 0xFF) * 10 + (int) (values >>> 32 & 0xFF);
        int second = (int) (values >>> 48 & 0xFF) * 10 + (int) (values >>> 56 & 0xFF);
        if (hour > 23 || minute > 59 || second > 59) {
            return -1;
        }
        int i = p + 8;
        long nanos = 0;
        if (i < end && b[i] == '.') {
            int first = ++i;
            int last = Math.min(end, first + 9);
            int fraction = 0;
            int digit;
            while (i < last && (digit = b[i] - '0') >= 0 && digit <= 9) {
                fraction = fraction * 10 + digit;
                i++;
            }
            if (i == first) {
                return -1;
            }
            nanos = fraction * NANOS_OF_DIGITS[i - first];
        }
        nanoOfDay = (hour * 3600L + minute * 60L + second) * NANOS_PER_SECOND + nanos;
        return i;
    }

    private static int digits4(byte[] b, int p) {
        int hi = digits2(b, p);
        int lo = digits2(b, p + 2);
        return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
    }

    private static int digits2(byte[] b, int p) {
        int d1 = b[p] - '0';
        int d2 = b[p + 1] - '0';
        return d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9 ? -1 : d1 * 10 + d2;
    }

    private static boolean isLeap(int year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    /** Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days-from-civil). */
    private static long epochDay(int year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }
}
