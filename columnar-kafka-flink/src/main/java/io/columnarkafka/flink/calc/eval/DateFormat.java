package io.columnarkafka.flink.calc.eval;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * DATE_FORMAT(timestamp, literal pattern) as {@code DateTimeUtils#formatTimestamp(ts, pattern)}: the
 * timestamp as a UTC local date-time, formatted by {@link DateTimeFormatter#ofPattern(String)} (default
 * locale), the formatter built once. Java's formatter is the definition of the pattern letters, so a row
 * takes a {@link LocalDateTime} and a String, as in Flink; except that a pattern of date fields only ({@link
 * #datesOnly}, e.g. Nexmark q15's {@code yyyy-MM-dd}) gives the same text for every instant of a UTC day, so
 * the text of the last day formatted is kept and rows of the same day take no objects.
 */
final class DateFormat extends UnaryNode {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** Pattern letters of date fields (era, years, quarters, months, weeks, days): none reads the time of day. */
    private static final String DATE_LETTERS = "GuyDMLdQqYwWEecF";

    private final DateTimeFormatter formatter;
    /** True if the pattern reads no time of day, so a row's text is its UTC day's. */
    private final boolean datesOnly;
    /** The UTC day (epoch days) whose text {@link #dayText} holds; Long.MIN_VALUE before the first. */
    private long day = Long.MIN_VALUE;
    private byte[] dayText;

    DateFormat(Node operand, DateTimeFormatter formatter, boolean datesOnly, LogicalType type) {
        super(operand, type);
        this.formatter = formatter;
        this.datesOnly = datesOnly;
    }

    /**
     * True if {@code pattern} has no letter outside {@link #DATE_LETTERS} (quoted text aside): its text is a
     * function of the date alone. Any other letter (time of day, fraction, day period, zone, or one this list does
     * not know) keeps the row-by-row path.
     */
    static boolean datesOnly(String pattern) {
        boolean quoted = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\'') {
                quoted = !quoted; // '' (a quote) toggles twice
            } else if (!quoted && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) && DATE_LETTERS.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (in.nulls[i]) {
                out.nulls[i] = true;
                continue;
            }
            long millis = in.longs[i];
            byte[] text;
            if (datesOnly) {
                long rowDay = Math.floorDiv(millis, MILLIS_PER_DAY);
                if (rowDay != day) {
                    dayText = format(millis, in.nanos[i]);
                    day = rowDay;
                }
                text = dayText;
            } else {
                text = format(millis, in.nanos[i]);
            }
            out.appendString(i, text, 0, text.length);
        }
    }

    private byte[] format(long millis, int nanosOfMilli) {
        int nanoOfSecond = (int) Math.floorMod(millis, 1000L) * 1_000_000 + nanosOfMilli;
        LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L), nanoOfSecond, ZoneOffset.UTC);
        return formatter.format(time).getBytes(StandardCharsets.UTF_8);
    }
}
