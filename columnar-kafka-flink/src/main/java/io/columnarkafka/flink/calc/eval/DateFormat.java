package io.columnarkafka.flink.calc.eval;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * DATE_FORMAT(timestamp, literal pattern) as {@code DateTimeUtils#formatTimestamp(ts, pattern)}: the
 * timestamp as a UTC local date-time, formatted by {@link DateTimeFormatter#ofPattern(String)} (default
 * locale), the formatter built once. Java's formatter is the definition of the pattern letters: a pattern of
 * numeric fields ({@link NumericDatePattern}) is written from the timestamp's fields with no objects, in the
 * bytes Java's formatter prints; any other pattern, and a year that pattern does not write, takes a
 * {@link LocalDateTime} and a String per row, as in Flink.
 */
final class DateFormat extends UnaryNode {
    private final DateTimeFormatter formatter;
    /** Null when the pattern is not one of numeric fields. */
    private final NumericDatePattern numeric;
    private final int[] fields = new int[TimestampText.FIELD_COUNT];

    DateFormat(Node operand, DateTimeFormatter formatter, NumericDatePattern numeric, LogicalType type) {
        super(operand, type);
        this.formatter = formatter;
        this.numeric = numeric;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (in.nulls[i]) {
                out.nulls[i] = true;
                continue;
            }
            if (numeric != null) {
                TimestampText.fields(in.longs[i], in.nanos[i], fields);
                if (NumericDatePattern.fits(fields)) {
                    int at = out.reserve(numeric.maxLength());
                    out.setString(i, at, numeric.write(fields, out.bytes, at));
                    continue;
                }
            }
            long millis = in.longs[i];
            int nanoOfSecond = (int) Math.floorMod(millis, 1000L) * 1_000_000 + in.nanos[i];
            LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L), nanoOfSecond, ZoneOffset.UTC);
            byte[] text = formatter.format(time).getBytes(StandardCharsets.UTF_8);
            out.appendString(i, text, 0, text.length);
        }
    }
}
