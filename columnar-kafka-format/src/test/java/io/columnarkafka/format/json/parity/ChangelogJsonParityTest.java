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
import io.columnarkafka.format.json.ChangelogEnvelope;
import io.columnarkafka.format.parity.EdgeValues;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * debezium-json, canal-json, maxwell-json and ogg-json: the envelope per row kind and every JSON option,
 * byte-identical to Flink 2.2.1's serializer of each format ({@link ChangelogJsonOracle}). Row kinds reach the
 * encoder through a TINYINT column of the batch ({@code row-kind.column}) holding {@link RowKind#toByteValue()};
 * without it every row is an INSERT.
 */
class ChangelogJsonParityTest {
    static final String KIND = "_kind";

    /** Every format with every option set of the JSON corpus, the row-kind column named. */
    static Stream<Arguments> formatsAndOptions() {
        List<Arguments> all = new ArrayList<>();
        for (ChangelogEnvelope envelope : ChangelogEnvelope.values()) {
            for (Map<String, String> o : JsonParityCorpusTest.options().toList()) {
                Map<String, String> withKind = new HashMap<>(o);
                withKind.put("row-kind.column", KIND);
                all.add(Arguments.of(envelope, withKind));
            }
        }
        return all.stream();
    }

    /** {@code type} plus the row-kind column last, rows carrying their kind both ways. */
    static RowType withKind(RowType type) {
        List<RowType.RowField> fields = new ArrayList<>(type.getFields());
        fields.add(new RowType.RowField(KIND, new TinyIntType()));
        return new RowType(fields);
    }

    /** {@code values} as rows of kind {@code kind}, the kind also in the last column. */
    static GenericRowData withKind(RowData values, int fieldCount, RowKind kind) {
        GenericRowData row = new GenericRowData(kind, fieldCount + 1);
        for (int f = 0; f < fieldCount; f++) {
            row.setField(f, ((GenericRowData) values).getField(f));
        }
        row.setField(fieldCount, kind.toByteValue());
        return row;
    }

    private static List<RowData> rows(RowType type, long seed, int count) {
        RandomValues random = new RandomValues(seed, false, true);
        RowKind[] kinds = RowKind.values();
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(withKind(random.row(type), type.getFieldCount(), kinds[i % kinds.length]));
        }
        return rows;
    }

    static Projection withoutKind(RowType batchType) {
        return Projection.of(batchType, IntStream.range(0, batchType.getFieldCount() - 1).toArray());
    }

    @ParameterizedTest
    @MethodSource("formatsAndOptions")
    void everyRowKindScalarAndNestedTypesEveryOption(ChangelogEnvelope envelope, Map<String, String> options) {
        ParityCheck check = ChangelogJsonOracle.parityCheck(envelope);
        for (RowType type : List.of(JsonParityCorpusTest.SCALARS, JsonParityCorpusTest.NESTED)) {
            RowType batchType = withKind(type);
            assertThat(check.assertParity(withoutKind(batchType), rows(type, options.hashCode(), 40), options))
                    .as("bytes compared, not rejected").isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(ChangelogEnvelope.class)
    void insertOnlyBatchesNeedNoRowKindColumn(ChangelogEnvelope envelope) {
        ParityCheck check = ChangelogJsonOracle.parityCheck(envelope);
        RowType type = RowTypes.parse("ROW<id BIGINT, name STRING, d DECIMAL(10, 2)>");
        List<RowData> rows = List.of(row(1L, str("a"), null), row(null, null, null));
        assertThat(check.assertParity(type, rows, Map.of())).isTrue();
        assertThat(check.assertParity(type, rows, Map.of("encode.ignore-null-fields", "true",
                "ignore-parse-errors", "true"))).isTrue();
    }

    @Test
    void envelopesAreTheDocumentedOnes() {
        // The oracle decides parity; this pins what the formats look like, so a reader of the docs sees it.
        RowType batchType = withKind(RowTypes.parse("ROW<id BIGINT>"));
        List<RowData> rows = List.of(withKind(GenericRowData.of(1L), 1, RowKind.UPDATE_AFTER),
                withKind(GenericRowData.of(2L), 1, RowKind.UPDATE_BEFORE));
        Map<ChangelogEnvelope, List<String>> expected = Map.of(
                ChangelogEnvelope.DEBEZIUM, List.of("{\"before\":null,\"after\":{\"id\":1},\"op\":\"c\"}",
                        "{\"before\":{\"id\":2},\"after\":null,\"op\":\"d\"}"),
                ChangelogEnvelope.OGG, List.of("{\"before\":null,\"after\":{\"id\":1},\"op_type\":\"I\"}",
                        "{\"before\":{\"id\":2},\"after\":null,\"op_type\":\"D\"}"),
                ChangelogEnvelope.CANAL, List.of("{\"data\":[{\"id\":1}],\"type\":\"INSERT\"}",
                        "{\"data\":[{\"id\":2}],\"type\":\"DELETE\"}"),
                ChangelogEnvelope.MAXWELL, List.of("{\"data\":{\"id\":1},\"type\":\"insert\"}",
                        "{\"data\":{\"id\":2},\"type\":\"delete\"}"));
        for (ChangelogEnvelope envelope : ChangelogEnvelope.values()) {
            var flink = ChangelogJsonOracle.open(envelope, RowTypes.parse("ROW<id BIGINT>"), Map.of());
            List<String> written = new ArrayList<>();
            for (RowData row : rows) {
                GenericRowData value = GenericRowData.ofKind(row.getRowKind(), row.getLong(0));
                written.add(new String(flink.serialize(value), StandardCharsets.UTF_8));
            }
            assertThat(written).as(envelope.identifier()).isEqualTo(expected.get(envelope));
            assertThat(ChangelogJsonOracle.parityCheck(envelope)
                    .assertParity(withoutKind(batchType), rows, Map.of("row-kind.column", KIND))).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(ChangelogEnvelope.class)
    void intervals(ChangelogEnvelope envelope) {
        assertThat(ChangelogJsonOracle.parityCheck(envelope)
                .assertParity(EdgeValues.INTERVALS, EdgeValues.intervalRows(), Map.of())).isTrue();
    }

    @ParameterizedTest
    @EnumSource(ChangelogEnvelope.class)
    void keyProjection(ChangelogEnvelope envelope) {
        RowType batchType = withKind(RowTypes.parse("ROW<id BIGINT, name STRING, v DOUBLE>"));
        List<RowData> rows = rows(RowTypes.parse("ROW<id BIGINT, name STRING, v DOUBLE>"), 3, 8);
        assertThat(ChangelogJsonOracle.parityCheck(envelope)
                .assertParity(Projection.of(batchType, 1, 0), rows, Map.of("row-kind.column", KIND))).isTrue();
    }

    @Test
    void canalAcceptsItsDeserializationOnlyOptionsWithoutEffect() {
        RowType type = RowTypes.parse("ROW<id BIGINT, name STRING>");
        List<RowData> rows = List.of(row(1L, str("a")), row(null, null));
        assertThat(ChangelogJsonOracle.parityCheck(ChangelogEnvelope.CANAL).assertParity(type, rows,
                Map.of("database.include", "db.*", "table.include", "t[0-9]", "ignore-parse-errors", "true"))).isTrue();
        for (ChangelogEnvelope other : List.of(ChangelogEnvelope.DEBEZIUM, ChangelogEnvelope.MAXWELL,
                ChangelogEnvelope.OGG)) {
            assertThatThrownBy(() -> Formats.encoder(other.identifier(), Projection.all(type),
                    Map.of("database.include", "db.*"))).as(other.identifier())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("database.include");
        }
    }

    @ParameterizedTest
    @EnumSource(ChangelogEnvelope.class)
    void refusesBadOptionsBadRowKindColumnsAndBadKinds(ChangelogEnvelope envelope) {
        RowType type = RowTypes.parse("ROW<id BIGINT, k INT>");
        List<Map<String, String>> bad = new ArrayList<>(List.of(Map.of("row-kind.column", "k"),
                Map.of("row-kind.column", "missing"), Map.of("no-such", "x"),
                Map.of("encode.ignore-null-fields", "maybe")));
        // schema-include is debezium-json's option, refused when true as Flink refuses it; unknown elsewhere
        bad.add(Map.of("schema-include", "true"));
        for (Map<String, String> options : bad) {
            assertThatThrownBy(() -> Formats.encoder(envelope.identifier(), Projection.of(type, 0), options))
                    .as("%s", options).isInstanceOf(IllegalArgumentException.class);
        }
        RowType batchType = withKind(RowTypes.parse("ROW<id BIGINT>"));
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(batchType, allocator)) {
            writer.write(GenericRowData.of(1L, (byte) 0));
            writer.write(GenericRowData.of(2L, (byte) 7));
            var encoder = Formats.encoder(envelope.identifier(), withoutKind(batchType), Map.of("row-kind.column", KIND));
            assertThatThrownBy(() -> encoder.encode(writer.finish()))
                    .isInstanceOfSatisfying(EncodeException.class, e -> assertThat(e.row()).isEqualTo(1));
        }
    }
}
