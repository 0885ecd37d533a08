package io.columnarkafka.flink.calc.eval;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * DATE_FORMAT(timestamp, literal pattern) as {@code DateTimeUtils#formatTimestamp(ts, pattern)}: the
 * timestamp as a UTC local date-time, formatted by {@link DateTimeFormatter#ofPattern(String)} (default
 * locale), the formatter built once. Java's formatter is the definition of the pattern letters, so each row
 * takes a {@link LocalDateTime} and a String, as in Flink.
 */
final class DateFormat extends UnaryNode {
    private final DateTimeFormatter formatter;

    DateFormat(Node operand, DateTimeFormatter formatter, LogicalType type) {
        super(operand, type);
        this.formatter = formatter;
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
            int nanoOfSecond = (int) Math.floorMod(millis, 1000L) * 1_000_000 + in.nanos[i];
            LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L), nanoOfSecond, ZoneOffset.UTC);
            byte[] text = formatter.format(time).getBytes(StandardCharsets.UTF_8);
            out.appendString(i, text, 0, text.length);
        }
    }
}
