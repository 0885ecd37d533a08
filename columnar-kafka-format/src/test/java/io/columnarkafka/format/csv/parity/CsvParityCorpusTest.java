package io.columnarkafka.format.csv.parity;

import static io.columnarkafka.format.arrow.FlinkValues.array;
import static io.columnarkafka.format.arrow.FlinkValues.dec;
import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static io.columnarkafka.format.csv.parity.FlinkCsvOracle.CSV;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.EdgeValues;
import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.formats.csv.CsvRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fixed adversarial corpus: every type Flink's CSV format writes and every serialization option,
 * byte-identical to Flink's {@code CsvRowDataSerializationSchema} (flink-csv 2.2.0; 2.2.1 was never
 * published to Maven Central).
 */
class CsvParityCorpusTest {
    static final RowType SCALARS = RowTypes.parse("ROW<b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT,"
            + " f FLOAT, d DOUBLE, d52 DECIMAL(5, 2), d100 DECIMAL(10, 0), d102 DECIMAL(10, 2),"
            + " d180 DECIMAL(18, 0), d182 DECIMAL(18, 2), d380 DECIMAL(38, 0), d3810 DECIMAL(38, 10),"
            + " d3838 DECIMAL(38, 38), c CHAR(5), s STRING, vc VARCHAR(10), bin BINARY(3), vb BYTES, dt DATE,"
            + " t0 TIME(0), t3 TIME(3), ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9),"
            + " l0 TIMESTAMP_LTZ(0), l3 TIMESTAMP_LTZ(3), l6 TIMESTAMP_LTZ(6), l9 TIMESTAMP_LTZ(9),"
            + " nn INT NOT NULL, nns STRING NOT NULL>");

    static final RowType NESTED = RowTypes.parse("ROW<id INT NOT NULL, ai ARRAY<INT>, as ARRAY<STRING>,"
            + " ad ARRAY<DOUBLE>, adec ARRAY<DECIMAL(10, 2)>, ats ARRAY<TIMESTAMP(9)>, al ARRAY<TIMESTAMP_LTZ(3)>,"
            + " adt ARRAY<DATE>, at ARRAY<TIME(3)>, ab ARRAY<BYTES>, abool ARRAY<BOOLEAN>, ann ARRAY<BIGINT NOT NULL>,"
            + " r ROW<x INT, s STRING, f FLOAT, d DECIMAL(38, 18), b BYTES, ts TIMESTAMP(6), z BOOLEAN>,"
            + " rn ROW<s STRING NOT NULL> NOT NULL>");

    /** Each option alone at unusual values, and combinations that interact in the quoting rules. */
    static Stream<Map<String, String>> options() {
        List<Map<String, String>> all = new ArrayList<>();
        all.add(Map.of());
        for (String delimiter : List.of(";", "|", "\\t", "\t", " ", "\u00e9", "0", "-", "\\u0001", "\\001", "\\'")) {
            all.add(Map.of("field-delimiter", delimiter));
        }
        for (String quote : List.of("'", "\\", "~", "*")) {
            all.add(Map.of("quote-character", quote));
        }
        all.add(Map.of("disable-quote-character", "true"));
        all.add(Map.of("disable-quote-character", "true", "escape-character", "\\"));
        all.add(Map.of("disable-quote-character", "false"));
        for (String escape : List.of("\\", "*", "\"", "a", "\u00e9")) {
            all.add(Map.of("escape-character", escape));
        }
        for (String delimiter : List.of("|", ",", "\u00e9", " ", "\"")) {
            all.add(Map.of("array-element-delimiter", delimiter));
        }
        for (String literal : List.of("NULL", "n,u\"l", "\\N", " ", "\uD83D\uDE00")) {
            all.add(Map.of("null-literal", literal));
        }
        all.add(Map.of("write-bigdecimal-in-scientific-notation", "true"));
        all.add(Map.of("write-bigdecimal-in-scientific-notation", "false"));
        all.add(Map.of("ignore-parse-errors", "true", "allow-comments", "true"));
        all.add(Map.of("field-delimiter", "|", "quote-character", "'", "escape-character", "\\",
                "array-element-delimiter", ",", "null-literal", "NULL", "write-bigdecimal-in-scientific-notation",
                "true"));
        all.add(Map.of("field-delimiter", ";", "quote-character", ";", "escape-character", ";"));
        return all.stream();
    }

    @ParameterizedTest
    @MethodSource("options")
    void everyScalarTypeAndEdgeValue(Map<String, String> options) {
        CSV.assertParity(SCALARS, EdgeValues.cyclingRows(SCALARS), options);
        int beyond = CSV.beyondArrowNanosCases();
        CSV.assertParity(SCALARS, EdgeValues.cyclingRows(SCALARS, true), options);
        assertThat(CSV.beyondArrowNanosCases()).as("year 0001 and 9999 at precision 7-9 compared").isGreaterThan(beyond);
    }

    @Test
    void intervalsAreRejectedAsFlinkRejectsThem() {
        // Flink's CSV schema converter has no INTERVAL: its error, and the encoder's, at planning.
        assertThatThrownBy(() -> FlinkCsvOracle.of(EdgeValues.INTERVALS, Map.of()))
                .hasMessageContaining("Unsupported type 'INTERVAL YEAR(2) TO MONTH' for field 'ym'");
        assertThatThrownBy(() -> Formats.encoder("csv", Projection.all(EdgeValues.INTERVALS), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'ym'");
    }

    @ParameterizedTest
    @MethodSource("options")
    void arraysAndRowsOneLevelDeepWithNulls(Map<String, String> options) {
        RandomValues random = new RandomValues(options.hashCode(), false, true);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            rows.add(random.row(NESTED));
        }
        CSV.assertParity(NESTED, rows, options);
    }

    @Test
    void keyProjectionWritesOnlyTheKeyColumns() {
        RowType type = RowTypes.parse("ROW<id BIGINT, name STRING, tags ARRAY<STRING>, ts TIMESTAMP(3)>");
        List<RowData> rows = List.of(
                row(1L, str("a, b"), array(str("x"), null), TimestampData.fromEpochMillis(5)),
                row(null, str("q\"q"), null, null));
        CSV.assertParity(Projection.of(type, 1, 0).withNames(List.of("name", "id")), rows, Map.of());
        CSV.assertParity(Projection.of(type, 2), rows, Map.of("field-delimiter", "|"));
    }

    @Test
    void decimalsAtFullPrecision() {
        RowType type = RowTypes.parse("ROW<a DECIMAL(38, 0), b DECIMAL(38, 38), c DECIMAL(19, 1), d DECIMAL(1, 0)>");
        List<RowData> rows = List.of(
                row(dec("99999999999999999999999999999999999999", 38, 0),
                        dec("0.99999999999999999999999999999999999999", 38, 38),
                        dec("-999999999999999999.9", 19, 1), dec("9", 1, 0)),
                row(dec("-10000000000000000000000000000000000000", 38, 0),
                        dec("-0.00000000000000000000000000000000000010", 38, 38),
                        dec("922337203685477580.7", 19, 1), dec("0", 1, 0)));
        CSV.assertParity(type, rows, Map.of());
        CSV.assertParity(type, rows, Map.of("write-bigdecimal-in-scientific-notation", "true"));
    }

    @Test
    void invalidUtf8IsWrittenAsFlinkDecodesIt() {
        RowType type = RowTypes.parse("ROW<s STRING, a ARRAY<STRING>>");
        CSV.assertParity(type, List.of(row(EdgeValues.invalidUtf8(), array(EdgeValues.invalidUtf8())),
                row(str("ok"), array(str("fine")))), Map.of());
    }

    @Test
    void timeOutsideTheDayFailsLikeFlink() {
        RowType type = RowTypes.parse("ROW<t TIME(3)>");
        CSV.assertParity(type, List.of(row(1000), row(-1)), Map.of());
        CSV.assertParity(type, List.of(row(86_400_000)), Map.of());
    }

    @Test
    void mapMultisetAndDeepNestingAreRefusedWithFlinksMessages() {
        for (String type : List.of("ROW<m MAP<STRING, INT>>", "ROW<m MULTISET<STRING>>", "ROW<a ARRAY<ARRAY<INT>>>",
                "ROW<r ROW<x ARRAY<INT>>>", "ROW<a ARRAY<ROW<x INT>>>", "ROW<a ARRAY<MAP<STRING, INT>>>")) {
            RowType rowType = RowTypes.parse(type);
            String flinkMessage = flinkRefusal(rowType);
            assertThatThrownBy(() -> Formats.encoder("csv", Projection.all(rowType), Map.of()))
                    .as(type).isInstanceOf(IllegalArgumentException.class).hasMessage(flinkMessage);
        }
    }

    /** As Flink's {@code CsvCommons.validateFormatOptions}: delimiters, quote and escape are single chars. */
    @Test
    void invalidOptionsAreRefused() {
        for (Map<String, String> options : List.of(Map.of("field-delimiter", ";;"), Map.of("field-delimiter", "\\"), Map.of("quote-character", ""),
                Map.of("escape-character", "ab"), Map.of("array-element-delimiter", ""),
                Map.of("array-element-delimiter", "||"), Map.of("array-element-delimiter", "\uD83D\uDE00"), Map.of("quote-character", "'", "disable-quote-character", "true"),
                Map.of("no-such-option", "x"), Map.of("ignore-parse-errors", "maybe"))) {
            assertThatThrownBy(() -> Formats.encoder("csv", Projection.all(SCALARS), options))
                    .as("%s", options).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static String flinkRefusal(RowType type) {
        try {
            new CsvRowDataSerializationSchema.Builder(type).build();
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return e.getMessage();
        }
        throw new AssertionError("Flink accepts " + type);
    }

    @Test
    void optionsMapIsNotMutated() {
        Map<String, String> options = new HashMap<>(Map.of("field-delimiter", ";"));
        Formats.encoder("csv", Projection.all(SCALARS), options);
        org.assertj.core.api.Assertions.assertThat(options).containsExactly(Map.entry("field-delimiter", ";"));
    }
}
