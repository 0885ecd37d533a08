package io.columnarkafka.format.raw.parity;

import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.EdgeValues;
import io.columnarkafka.format.parity.ParityCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.formats.raw.RawFormatSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every type Flink's raw format writes, every charset kind and both byte orders, byte-identical to Flink
 * 2.2.1's {@link RawFormatSerializationSchema} (flink-table-runtime), null values as null records.
 */
class RawParityCorpusTest {
    private static final ParityCheck RAW = new ParityCheck("raw", RawParityCorpusTest::oracle);

    private static ParityCheck.Oracle oracle(RowType type, Map<String, String> options) {
        RawFormatSerializationSchema schema = new RawFormatSerializationSchema(type.getTypeAt(0),
                options.getOrDefault("charset", "UTF-8"),
                !options.getOrDefault("endianness", "big-endian").equals("little-endian"));
        try {
            schema.open(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema::serialize;
    }

    static Stream<String> types() {
        return Stream.of("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "CHAR(5)", "STRING",
                "VARCHAR(10)", "BINARY(3)", "BYTES", "INT NOT NULL", "STRING NOT NULL");
    }

    static Stream<Map<String, String>> options() {
        List<Map<String, String>> all = new ArrayList<>();
        all.add(Map.of());
        all.add(Map.of("endianness", "little-endian"));
        all.add(Map.of("endianness", "big-endian"));
        for (String charset : List.of("UTF-16", "UTF-16LE", "ISO-8859-1", "US-ASCII", "windows-1252", "GBK",
                "utf8", "UTF-32")) {
            all.add(Map.of("charset", charset));
        }
        return all.stream();
    }

    @ParameterizedTest
    @MethodSource("types")
    void everyTypeEdgeValuesAndNullsInEveryOption(String typeName) {
        RowType type = RowTypes.parse("ROW<v " + typeName + ">");
        LogicalType valueType = type.getTypeAt(0);
        List<RowData> rows = new ArrayList<>();
        for (Object value : EdgeValues.of(valueType)) {
            rows.add(GenericRowData.of(value));
        }
        if (valueType.isNullable()) {
            rows.add(1, GenericRowData.of((Object) null));
            rows.add(GenericRowData.of((Object) null));
        }
        options().forEach(options -> RAW.assertParity(type, rows, options));
    }

    @ParameterizedTest
    @MethodSource("options")
    void malformedUtf8IsKeptInUtf8AndDecodedForOtherCharsets(Map<String, String> options) {
        RowType type = RowTypes.parse("ROW<v STRING>");
        RAW.assertParity(type, List.of(row(EdgeValues.invalidUtf8()), row(str("ascii")),
                row(str("\u00e9\uD83D\uDE00")), row((Object) null)), options);
        RAW.assertParity(type, List.of(row(str("all ascii")), row(str("in this batch"))), options);
    }

    @Test
    void keyProjectionOfOneColumn() {
        RowType type = RowTypes.parse("ROW<id BIGINT, name STRING, payload BYTES>");
        List<RowData> rows = List.of(row(1L, str("a"), new byte[] {1}), row(null, str("b"), null),
                row(Long.MIN_VALUE, null, new byte[0]));
        RAW.assertParity(Projection.of(type, 0), rows, Map.of());
        RAW.assertParity(Projection.of(type, 1), rows, Map.of("charset", "UTF-16"));
        RAW.assertParity(Projection.of(type, 2), rows, Map.of());
    }

    @Test
    void refusesWhatFlinkRefuses() {
        RowType two = RowTypes.parse("ROW<a INT, b INT>");
        assertThatThrownBy(() -> Formats.encoder("raw", Projection.all(two), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("single physical column");
        for (String t : List.of("DECIMAL(10, 2)", "DATE", "TIMESTAMP(3)", "ARRAY<INT>", "ROW<x INT>")) {
            RowType type = RowTypes.parse("ROW<v " + t + ">");
            assertThatThrownBy(() -> new RawFormatSerializationSchema(type.getTypeAt(0), "UTF-8", true))
                    .as("Flink refuses %s", t).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> Formats.encoder("raw", Projection.all(type), Map.of()))
                    .as(t).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'raw' format");
        }
        RowType one = RowTypes.parse("ROW<v STRING>");
        for (Map<String, String> bad : List.of(Map.of("charset", "NO-SUCH"), Map.of("endianness", "BIG-ENDIAN"),
                Map.of("line-delimiter", "\n"))) {
            assertThatThrownBy(() -> Formats.encoder("raw", Projection.all(one), bad))
                    .as("%s", bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
