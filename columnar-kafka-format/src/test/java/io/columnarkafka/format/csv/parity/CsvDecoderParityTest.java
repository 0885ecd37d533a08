package io.columnarkafka.format.csv.parity;

import static io.columnarkafka.format.csv.parity.FlinkCsvOracle.CSV_DECODE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.parity.EdgeValues;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code csv} decoder value for value against Flink's {@link
 * org.apache.flink.formats.csv.CsvRowDataDeserializationSchema} (flink-csv 2.2.0; 2.2.1 was never published):
 * every type and option on records Flink's serializer wrote, then malformed records (wrong field counts, bad
 * numbers, dates and Base64, unterminated quotes, escapes at the end, comments, other encodings), with and
 * without {@code ignore-parse-errors}.
 */
class CsvDecoderParityTest {
    private static final RowType SCALARS = CsvParityCorpusTest.SCALARS;
    private static final RowType NESTED = CsvParityCorpusTest.NESTED;

    /** Flink's CSV for {@code rows} under {@code options}, one record per row. */
    static List<byte[]> written(RowType type, List<RowData> rows, Map<String, String> options) {
        Map<String, String> writing = new HashMap<>(options);
        writing.remove("allow-comments");
        writing.remove("ignore-parse-errors");
        ParityCheck.Oracle serializer = FlinkCsvOracle.of(type, writing);
        List<byte[]> records = new ArrayList<>();
        for (RowData row : rows) {
            records.add(serializer.serialize(row));
        }
        return records;
    }

    static Stream<Map<String, String>> options() {
        return Stream.concat(CsvParityCorpusTest.options(), Stream.of(Map.of("null-literal", "NULL",
                "ignore-parse-errors", "true"), Map.of("allow-comments", "true", "null-literal", "\\N")));
    }

    @ParameterizedTest
    @MethodSource("options")
    void recordsFlinkWroteDecodeAsFlinkReadsThem(Map<String, String> options) {
        for (RowType type : List.of(SCALARS, NESTED)) {
            List<RowData> rows = new ArrayList<>(type == SCALARS ? EdgeValues.cyclingRows(type) : List.of());
            RandomValues random = new RandomValues(options.hashCode(), false);
            for (int i = 0; i < 20; i++) {
                rows.add(random.row(type));
            }
            List<byte[]> records = written(type, rows, options);
            records.add(null);
            DecoderParityCheck.Result result = CSV_DECODE.assertParity(type, options, records);
            assertThat(result.comparedRows() + result.rejectedRecords() + result.recordsWithoutRows())
                    .isEqualTo(records.size());
        }
    }

    @Test
    void nonNullValuesRoundTripWithoutRejections() {
        // With a null literal every value Flink writes reads back; this pins that most records compare.
        Map<String, String> options = Map.of("null-literal", "NULL");
        List<byte[]> records = written(SCALARS, EdgeValues.cyclingRows(SCALARS), options);
        DecoderParityCheck.Result result = CSV_DECODE.assertParity(SCALARS, options, records);
        assertThat(result.comparedRows()).isGreaterThanOrEqualTo(records.size() - 3);
    }

    private static final List<String> MALFORMED = List.of("", "\n", "\r\n", " ", "1", "1,", "1,x", "1,x,", "1,x,,",
            "1,x, ", "1,x,y", " 1 ,x", "\"1\",\"x\"", "\"1\" ,x", "\"1\"y,x", "\"1", "1,\"x", "1,\"x\"\"", "1,x\n2,y,z",
            "1,x\r3", "\r\n1,x", "#c\n1,x", "#c", " #c\n1,x", "  \n\n1,x", "1,x#y", " \n1,x", "x,1", "1,a\\,b", "1,a\\",
            "1,a\\n\\t\\0\\r\\q", "1,\"a\\\"b\"", "1,\"a\"\"b\"", "\ufeff1,x", ",", ",,", "1,\"\"", " 1,x", "N,N", "1,N",
            "\"N\",x", "1,\"N\"", "+1,x", "-0,x", "0x1,x", "2147483648,x", "-2147483648,x", "99999999999,x", "1.0,x",
            "\u0661,x", "1\u00a0,x", "1,\u00e9\uD83D\uDE00", "1,\"multi\nline\"", "1,\"multi\r\nline\"",
            "1,'quoted'", "1|x", "1;x");

    static Stream<Map<String, String>> malformedOptions() {
        List<Map<String, String>> all = new ArrayList<>();
        for (String ignore : List.of("false", "true")) {
            all.add(Map.of("ignore-parse-errors", ignore));
            all.add(Map.of("ignore-parse-errors", ignore, "allow-comments", "true"));
            all.add(Map.of("ignore-parse-errors", ignore, "null-literal", "N", "escape-character", "\\"));
            all.add(Map.of("ignore-parse-errors", ignore, "quote-character", "'", "field-delimiter", "|"));
            all.add(Map.of("ignore-parse-errors", ignore, "disable-quote-character", "true", "field-delimiter", ";"));
        }
        return all.stream();
    }

    @ParameterizedTest
    @MethodSource("malformedOptions")
    void malformedRecordsAreRejectedOrSkippedAsFlinkDoes(Map<String, String> options) {
        List<byte[]> records = new ArrayList<>();
        MALFORMED.forEach(s -> records.add(s.getBytes(StandardCharsets.UTF_8)));
        DecoderParityCheck.Result result = CSV_DECODE.assertParity(RowTypes.parse("ROW<a INT, b STRING>"), options,
                records);
        if (options.get("ignore-parse-errors").equals("true")) {
            assertThat(result.rejectedRecords()).isZero();
            assertThat(result.recordsWithoutRows()).as("records skipped").isPositive();
        } else {
            assertThat(result.rejectedRecords()).isPositive();
        }
        assertThat(result.comparedRows()).isPositive();
    }

    private static final List<String> BAD_VALUES = List.of("TRUE", "yes", " true ", "1", "200", "-129", "1.5", " 1.5",
            "1.5 ", "1e3", "0x1p3", "NaN", "-Infinity", "1f", "1d", "abc", "", " ", "1.005", "1234.567", "1E2", "+.5",
            "2020-02-03", "2020-2-3", "2020-02-31", " 2020-02-03", "99999-01-01", "01:02:03", "1:02:03", "01:02",
            "01:02:03.4567", "24:00:00", "2020-01-02 03:04:05", "2020-01-02 03:04:05.123", "2020-01-02T03:04:05",
            " 2020-01-02 03:04:05Z ", "2020-01-02 03:04:05.1Z", "AQ==", "AQ", " AQ==", "A Q==", "AQ= =", "AQID",
            "AQI=x", "AQ==AQ==", "====", "A", "AR==", "\u00e9", "1;2", "1;;2", "N", "1;N", "a;b;c");

    @ParameterizedTest
    @MethodSource("malformedOptions")
    void everyTypeOnValuesItMayRejectMatchesFlink(Map<String, String> options) {
        RowType type = RowTypes.parse("ROW<b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE,"
                + " d52 DECIMAL(5, 2), d380 DECIMAL(38, 0), s STRING, bin BYTES, dt DATE, t0 TIME(0), t2 TIME(2),"
                + " t3 TIME(3), ts9 TIMESTAMP(9), l9 TIMESTAMP_LTZ(9),"
                + " ai ARRAY<INT>, r ROW<x INT, y STRING>>");
        char delimiter = options.getOrDefault("field-delimiter", ",").charAt(0);
        List<byte[]> records = new ArrayList<>();
        for (String value : BAD_VALUES) {
            if (value.indexOf(delimiter) >= 0) {
                continue;
            }
            String[] fields = new String[type.getFieldCount()];
            Arrays.fill(fields, value);
            records.add(String.join(String.valueOf(delimiter), fields).getBytes(StandardCharsets.UTF_8));
        }
        DecoderParityCheck.Result result = CSV_DECODE.assertParity(type, options, records);
        assertThat(result.comparedRows() + result.rejectedRecords()).isEqualTo(records.size());
    }

    /**
     * Flink keeps every fraction digit of the text in its {@code TimestampData}, whatever the declared
     * precision; so does the decoded column (Flink's millis + nanos of the milli), read through the row view.
     */
    @Test
    void timestampDigitsBeyondThePrecisionAreKept() throws Exception {
        RowType type = RowTypes.parse("ROW<ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), l6 TIMESTAMP_LTZ(6)>");
        byte[] record = "1969-12-31 23:59:59.123456789,1969-12-31 23:59:59.123456789,2020-01-02 03:04:05.123456789Z"
                .getBytes(StandardCharsets.UTF_8);
        RowData flink = FlinkCsvOracle.deserializer(type, Map.of()).deserialize(record);
        assertThat(flink.getTimestamp(1, 3).getNanoOfMillisecond()).as("Flink keeps the nanos").isEqualTo(456789);
        try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                io.columnarkafka.format.DecodedBatch batch = Formats.decoder("csv", type, Map.of())
                        .decode(DecoderParityCheck.views(List.of(record)), allocator)) {
            io.columnarkafka.format.arrow.ArrowRowView view = new io.columnarkafka.format.arrow.ArrowRowView(type);
            view.bind(batch.root());
            int[] precisions = {0, 3, 6};
            for (int c = 0; c < precisions.length; c++) {
                assertThat(view.row(0).getTimestamp(c, precisions[c])).as("column %d", c)
                        .isEqualTo(flink.getTimestamp(c, precisions[c]));
            }
            assertThat(view.row(0).getTimestamp(0, 0).getNanoOfMillisecond()).isEqualTo(456789);
        }
    }

    @Test
    void encodingsJacksonDetects() {
        RowType type = RowTypes.parse("ROW<a STRING>");
        List<byte[]> records = new ArrayList<>(List.of(new byte[] {(byte) 0xC0, (byte) 0x80},
                new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0x80},
                new byte[] {'a', (byte) 0xE2, (byte) 0x82}, new byte[] {0, 0, 0, 'a'}, new byte[] {0, 'a'},
                new byte[] {'a', 0}, new byte[] {(byte) 0xFE, (byte) 0xFF, 0, 'a'}, new byte[] {(byte) 0xFF, (byte) 0xFE,
                'a', 0}, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'a'}, new byte[] {'a', 0, 'b', 0},
                new byte[] {0, 0, (byte) 0xFE, (byte) 0xFF, 0, 0, 0, 'a'}, new byte[] {'a', (byte) 0xC3, (byte) 0xA9}));
        records.add(EdgeValues.invalidUtf8().toBytes());
        CSV_DECODE.assertParity(type, Map.of(), records);
        CSV_DECODE.assertParity(type, Map.of("ignore-parse-errors", "true"), records);
    }

    @Test
    void refusesWhatFlinkRefuses() {
        for (String t : List.of("MAP<STRING, INT>", "MULTISET<STRING>", "ARRAY<ARRAY<INT>>", "ROW<x ARRAY<INT>>",
                "TIME(6)")) {
            RowType type = RowTypes.parse("ROW<v " + t + ">");
            assertThatThrownBy(() -> FlinkCsvOracle.deserializer(type, Map.of())).as("Flink refuses %s", t)
                    .isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> Formats.decoder("csv", type, Map.of())).as(t)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
