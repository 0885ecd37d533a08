package io.columnarkafka.bench.cdc;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.apache.flink.formats.common.TimeFormats;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.io.JsonStringEncoder;

/**
 * A {@link ChangeEvent} as the record Debezium writes with JSON converters and schemas off: the key {@code
 * {"id":N}}, the value the envelope {@code before}, {@code after}, {@code source} (a PostgreSQL connector's), {@code
 * op}, {@code ts_ms}, {@code transaction}; a tombstone has no value. The rows are written as Flink's {@code json}
 * format writes them with its defaults (SQL timestamps, decimals without trailing zeros, strings escaped by
 * Jackson, non-BMP characters as escaped surrogate pairs), which is what Flink's {@code debezium-json} reads: {@code DebeziumJsonTest} checks the rows against
 * Flink's serializer, and every event against Flink's deserializer. Flink reads {@code before}, {@code after} and
 * {@code op} and skips the rest, as a decoder must.
 */
final class DebeziumJson {
    /** Debezium's {@code ts_ms} of the first record; later ones are 3 ms apart. */
    private static final long FIRST_TS_MS = 1_764_547_200_000L;

    private DebeziumJson() {}

    static byte[] key(ChangeEvent event) {
        return utf8("{\"id\":" + event.id() + "}");
    }

    /** The record's value, null for a tombstone. */
    static byte[] value(ChangeEvent event) {
        if (event.op() == ChangeEvent.Op.TOMBSTONE) {
            return null;
        }
        long tsMs = FIRST_TS_MS + 3 * event.sequence();
        StringBuilder json = new StringBuilder(640).append("{\"before\":");
        row(json, event.before());
        json.append(",\"after\":");
        row(json, event.after());
        json.append(",\"source\":{\"version\":\"2.7.3.Final\",\"connector\":\"postgresql\",\"name\":\"shop\",\"ts_ms\":")
                .append(tsMs - 40).append(",\"snapshot\":\"")
                .append(event.op() == ChangeEvent.Op.READ ? "true" : "false")
                .append("\",\"db\":\"shop\",\"sequence\":\"[null,\\\"").append(2_000_000 + 64 * event.sequence())
                .append("\\\"]\",\"schema\":\"public\",\"table\":\"orders\",\"txId\":").append(700 + event.sequence())
                .append(",\"lsn\":").append(2_000_000 + 64 * event.sequence()).append(",\"xmin\":null},\"op\":\"")
                .append(event.op().code).append("\",\"ts_ms\":").append(tsMs).append(",\"transaction\":null}");
        return utf8(json.toString());
    }

    /** A row as Flink's json format writes it (its field order, nulls written as null), or {@code null}. */
    static void row(StringBuilder json, OrderRow row) {
        if (row == null) {
            json.append("null");
            return;
        }
        json.append("{\"id\":").append(row.id());
        json.append(",\"customer\":");
        string(json, row.customer());
        json.append(",\"amount\":").append(row.amount() == null ? "null" : decimal(row.amount()));
        json.append(",\"created\":\"").append(TimeFormats.SQL_TIMESTAMP_FORMAT.format(row.created())).append('"');
        json.append(",\"quantity\":").append(row.quantity());
        json.append(",\"paid\":").append(row.paid());
        json.append(",\"status\":");
        string(json, row.status());
        json.append(",\"note\":");
        string(json, row.note());
        json.append('}');
    }

    /**
     * A decimal as Flink's JSON serializer writes it: Jackson's node factory strips its trailing zeros (12.50 is 12.5,
     * 100.00 is 1E+2), and the number is written as BigDecimal's string.
     */
    private static String decimal(BigDecimal value) {
        return value.stripTrailingZeros().toString();
    }

    /**
     * A JSON string as Jackson's UTF-8 generator writes it for Flink (and for Debezium's JSON converter): quotes,
     * backslashes and control characters escaped, other characters as UTF-8, but a character outside the BMP as its
     * two surrogates, each a six-character escape (backslash, u, four upper-case hex digits).
     */
    private static void string(StringBuilder json, String text) {
        if (text == null) {
            json.append("null");
            return;
        }
        json.append('"');
        for (char c : JsonStringEncoder.getInstance().quoteAsString(text)) {
            if (Character.isSurrogate(c)) {
                json.append(String.format("\\u%04X", (int) c));
            } else {
                json.append(c);
            }
        }
        json.append('"');
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
