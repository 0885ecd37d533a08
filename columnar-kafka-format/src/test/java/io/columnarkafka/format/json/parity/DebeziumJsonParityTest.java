package io.columnarkafka.format.json.parity;

import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.json.JsonFormatOptions;
import io.columnarkafka.format.parity.EdgeValues;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions.MapNullKeyMode;
import org.apache.flink.formats.json.debezium.DebeziumJsonSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * debezium-json: the envelope per row kind and every JSON option, byte-identical to Flink 2.2.1's {@link
 * DebeziumJsonSerializationSchema}. Row kinds reach the encoder through a TINYINT column of the batch
 * ({@code row-kind.column}) holding {@link RowKind#toByteValue()}; without it every row is an INSERT.
 */
class DebeziumJsonParityTest {
    private static final String KIND = "_kind";
    private static final ParityCheck DEBEZIUM = new ParityCheck("debezium-json", DebeziumJsonParityTest::oracle);

    private static ParityCheck.Oracle oracle(RowType type, Map<String, String> options) {
        Map<String, String> json = new HashMap<>(options);
        json.remove("row-kind.column");
        json.remove("schema-include");
        JsonFormatOptions o = JsonFormatOptions.fromMap(json);
        DebeziumJsonSerializationSchema schema = new DebeziumJsonSerializationSchema(type,
                o.timestampFormat() == JsonFormatOptions.TimestampFormat.SQL
                        ? TimestampFormat.SQL : TimestampFormat.ISO_8601,
                MapNullKeyMode.valueOf(o.mapNullKeyMode().name()), o.mapNullKeyLiteral(),
                o.decimalAsPlainNumber(), o.ignoreNullFields());
        try {
            schema.open(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema::serialize;
    }

    static List<Map<String, String>> options() {
        List<Map<String, String>> all = new ArrayList<>();
        for (Map<String, String> o : JsonParityCorpusTest.options().toList()) {
            Map<String, String> withKind = new HashMap<>(o);
            withKind.put("row-kind.column", KIND);
            all.add(withKind);
        }
        return all;
    }

    /** {@code type} plus the row-kind column last, rows carrying their kind both ways. */
    private static RowType withKind(RowType type) {
        List<RowType.RowField> fields = new ArrayList<>(type.getFields());
        fields.add(new RowType.RowField(KIND, new TinyIntType()));
        return new RowType(fields);
    }

    private static List<RowData> rows(RowType type, long seed, int count) {
        RandomValues random = new RandomValues(seed, false, true);
        RowKind[] kinds = RowKind.values();
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            GenericRowData values = random.row(type);
            GenericRowData row = new GenericRowData(kinds[i % kinds.length], type.getFieldCount() + 1);
            for (int f = 0; f < type.getFieldCount(); f++) {
                row.setField(f, values.getField(f));
            }
            row.setField(type.getFieldCount(), kinds[i % kinds.length].toByteValue());
            rows.add(row);
        }
        return rows;
    }

    private static Projection withoutKind(RowType batchType) {
        return Projection.of(batchType, IntStream.range(0, batchType.getFieldCount() - 1).toArray());
    }

    @ParameterizedTest
    @MethodSource("options")
    void everyRowKindScalarAndNestedTypesEveryOption(Map<String, String> options) {
        for (RowType type : List.of(JsonParityCorpusTest.SCALARS, JsonParityCorpusTest.NESTED)) {
            RowType batchType = withKind(type);
            DEBEZIUM.assertParity(withoutKind(batchType), rows(type, options.hashCode(), 40), options);
        }
    }

    @Test
    void insertOnlyBatchesNeedNoRowKindColumn() {
        RowType type = RowTypes.parse("ROW<id BIGINT, name STRING, d DECIMAL(10, 2)>");
        List<RowData> rows = List.of(row(1L, str("a"), null), row(null, null, null));
        DEBEZIUM.assertParity(type, rows, Map.of());
        DEBEZIUM.assertParity(type, rows, Map.of("encode.ignore-null-fields", "true", "schema-include", "false"));
    }

    @Test
    void intervals() {
        DEBEZIUM.assertParity(EdgeValues.INTERVALS, EdgeValues.intervalRows(), Map.of());
    }

    @Test
    void keyProjection() {
        RowType batchType = withKind(RowTypes.parse("ROW<id BIGINT, name STRING, v DOUBLE>"));
        List<RowData> rows = rows(RowTypes.parse("ROW<id BIGINT, name STRING, v DOUBLE>"), 3, 8);
        DEBEZIUM.assertParity(Projection.of(batchType, 1, 0), rows, Map.of("row-kind.column", KIND));
    }

    @Test
    void refusesSchemaIncludeBadRowKindColumnsAndBadKinds() {
        RowType type = RowTypes.parse("ROW<id BIGINT, k INT>");
        for (Map<String, String> bad : List.of(Map.of("schema-include", "true"),
                Map.of("row-kind.column", "k"), Map.of("row-kind.column", "missing"), Map.of("no-such", "x"))) {
            assertThatThrownBy(() -> Formats.encoder("debezium-json", Projection.of(type, 0), bad))
                    .as("%s", bad).isInstanceOf(IllegalArgumentException.class);
        }
        RowType batchType = withKind(RowTypes.parse("ROW<id BIGINT>"));
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(batchType, allocator)) {
            writer.write(GenericRowData.of(1L, (byte) 0));
            writer.write(GenericRowData.of(2L, (byte) 7));
            var encoder = Formats.encoder("debezium-json", withoutKind(batchType), Map.of("row-kind.column", KIND));
            assertThatThrownBy(() -> encoder.encode(writer.finish()))
                    .isInstanceOfSatisfying(EncodeException.class, e -> assertThat(e.row()).isEqualTo(1));
        }
    }
}
