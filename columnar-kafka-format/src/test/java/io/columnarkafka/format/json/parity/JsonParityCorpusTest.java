package io.columnarkafka.format.json.parity;

import static io.columnarkafka.format.arrow.FlinkValues.array;
import static io.columnarkafka.format.arrow.FlinkValues.map;
import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static io.columnarkafka.format.arrow.FlinkValues.ts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.parity.EdgeValues;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Fixed adversarial corpus: every type and every option, byte-identical to Flink's JSON serializer. */
class JsonParityCorpusTest {
    private static final ParityCheck JSON =
            new ParityCheck("json", (type, options) -> FlinkJsonOracle.of(type, options)::serialize);

    static final RowType SCALARS = RowTypes.parse("ROW<b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT,"
            + " f FLOAT, d DOUBLE, d52 DECIMAL(5, 2), d100 DECIMAL(10, 0), d102 DECIMAL(10, 2), d103 DECIMAL(10, 3),"
            + " d180 DECIMAL(18, 0), d182 DECIMAL(18, 2), d380 DECIMAL(38, 0), d3810 DECIMAL(38, 10),"
            + " d3818 DECIMAL(38, 18), d3838 DECIMAL(38, 38), c CHAR(5), s STRING, vc VARCHAR(10), bin BINARY(3),"
            + " vb BYTES, dt DATE, t0 TIME(0), t3 TIME(3), t9 TIME(9),"
            + " ts0 TIMESTAMP(0), ts1 TIMESTAMP(1), ts2 TIMESTAMP(2), ts3 TIMESTAMP(3), ts4 TIMESTAMP(4),"
            + " ts5 TIMESTAMP(5), ts6 TIMESTAMP(6), ts7 TIMESTAMP(7), ts8 TIMESTAMP(8), ts9 TIMESTAMP(9),"
            + " l0 TIMESTAMP_LTZ(0), l1 TIMESTAMP_LTZ(1), l2 TIMESTAMP_LTZ(2), l3 TIMESTAMP_LTZ(3),"
            + " l4 TIMESTAMP_LTZ(4), l5 TIMESTAMP_LTZ(5), l6 TIMESTAMP_LTZ(6), l7 TIMESTAMP_LTZ(7),"
            + " l8 TIMESTAMP_LTZ(8), l9 TIMESTAMP_LTZ(9), nn INT NOT NULL, nns STRING NOT NULL>");

    static final RowType NESTED = RowTypes.parse("ROW<id INT NOT NULL,"
            + " a ARRAY<ROW<m MAP<STRING, ARRAY<ROW<x INT, ts TIMESTAMP(9), d DECIMAL(38, 38), s STRING, f DOUBLE>>>,"
            + " n ROW<b BYTES, l TIMESTAMP_LTZ(3), dt DATE>>>,"
            + " ms MULTISET<STRING>, mm MAP<STRING, MAP<VARCHAR(5), ROW<v FLOAT, t TIME(0)>>>,"
            + " r ROW<r ROW<r ROW<s STRING, a ARRAY<ARRAY<DATE>>, dd DECIMAL(10, 2)>>>,"
            + " ai ARRAY<INT NOT NULL>, am ARRAY<MAP<VARCHAR(3), TIMESTAMP(3)>>, ks MAP<CHAR(2), BOOLEAN>,"
            + " nr ROW<x BIGINT NOT NULL, y ARRAY<MULTISET<STRING>>> NOT NULL,"
            + " ab ARRAY<BYTES>, al ARRAY<TIMESTAMP_LTZ(6)>>");

    /** Every combination of the five options, plus unusual null-key literals. */
    static Stream<Map<String, String>> options() {
        List<Map<String, String>> all = new ArrayList<>();
        for (String standard : List.of("SQL", "ISO-8601")) {
            for (String mode : List.of("FAIL", "DROP", "LITERAL")) {
                for (String plain : List.of("false", "true")) {
                    for (String ignoreNulls : List.of("false", "true")) {
                        all.add(Map.of("timestamp-format.standard", standard, "map-null-key.mode", mode,
                                "encode.decimal-as-plain-number", plain, "encode.ignore-null-fields", ignoreNulls));
                    }
                }
            }
        }
        all.add(Map.of());
        for (String literal : List.of("", "NULL-KEY", "q\"b\\s/\u0001\uD83D\uDE00", "null")) {
            all.add(Map.of("map-null-key.mode", "LITERAL", "map-null-key.literal", literal));
        }
        return all.stream();
    }

    static boolean nullKeysAllowed(Map<String, String> options) {
        return !options.getOrDefault("map-null-key.mode", "FAIL").equals("FAIL");
    }

    static List<RowData> scalarRows() {
        return EdgeValues.cyclingRows(SCALARS);
    }

    @ParameterizedTest
    @MethodSource("options")
    void everyScalarTypeAndEdgeValue(Map<String, String> options) {
        JSON.assertParity(SCALARS, scalarRows(), options);
        int beyond = JSON.beyondArrowNanosCases();
        JSON.assertParity(SCALARS, EdgeValues.cyclingRows(SCALARS, true), options);
        assertThat(JSON.beyondArrowNanosCases()).as("year 0001 and 9999 at precision 7-9 compared").isGreaterThan(beyond);
    }

    @ParameterizedTest
    @MethodSource("options")
    void nestedThreeLevelsDeepWithNullsAtEveryLevel(Map<String, String> options) {
        RandomValues random = new RandomValues(options.hashCode(), nullKeysAllowed(options), true);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            rows.add(random.row(NESTED));
        }
        JSON.assertParity(NESTED, rows, options);
    }

    @ParameterizedTest
    @MethodSource("options")
    void handWrittenNestedNulls(Map<String, String> options) {
        RowType type = RowTypes.parse("ROW<a ARRAY<ROW<m MAP<STRING, ARRAY<ROW<x INT, s STRING>>>>>, e ARRAY<INT>,"
                + " m MAP<STRING, INT>, r ROW<x INT>>");
        boolean nullKeys = nullKeysAllowed(options);
        Object deepMap = nullKeys ? map(null, array(row(1, null)), str("z"), null) : map(str("z"), null);
        Object topMap = nullKeys ? map(str("a"), 1, null, 2, str("b"), 3) : map(str("a"), 1);
        List<RowData> rows = List.of(
                row(null, null, null, null),
                row(array(null, row((Object) null), row(map()), row(map(str(""), null)),
                        row(map(str("k"), array(null, row(null, null), row(1, str("\u0000")))))),
                        array(), map(), row((Object) null)),
                row(array(row(map(str("a"), array(), str("b"), array(row(Integer.MIN_VALUE, str("\uD83D\uDE00")))))),
                        array(null, null), map(str("x"), null), row(0)),
                row(array(row(deepMap)), array(1), topMap, null));
        JSON.assertParity(type, rows, options);
    }

    @Test
    void nullMapKeyUnderDropAndLiteralKeepsFlinksEntryOrder() {
        RowType type = RowTypes.parse("ROW<m MAP<STRING, INT>, ms MULTISET<STRING>, r ROW<m MAP<STRING, STRING>>>");
        List<RowData> rows = List.of(
                row(map(null, 1), map(null, 2), row(map(null, null))),
                row(map(str("a"), 1, null, 2, str("b"), 3), map(str("x"), 1, null, 5), row(map(str("null"), str("v"),
                        null, str("w")))),
                row(map(str("a"), 1, null, 2), map(), row(map(str("q"), null))));
        for (String literal : List.of("null", "", "a", "\"\\\n\uD83D\uDE00")) {
            JSON.assertParity(type, rows, Map.of("map-null-key.mode", "LITERAL", "map-null-key.literal", literal));
        }
        JSON.assertParity(type, rows, Map.of("map-null-key.mode", "DROP"));
        JSON.assertParity(type, rows, Map.of("map-null-key.mode", "DROP", "encode.ignore-null-fields", "true"));
    }

    @Test
    void duplicateMapKeysLaterValueWinsInFirstPosition() {
        RowType type = RowTypes.parse("ROW<m MAP<STRING, INT>, a ARRAY<MAP<STRING, STRING>>, ms MULTISET<STRING>>");
        // MapData with repeated keys (BinaryMapData can hold them; GenericMapData cannot)
        List<RowData> rows = List.of(
                row(new ListMapData(array(str("a"), str("b"), str("a")), array(1, 2, 3)),
                        array(new ListMapData(array(str("x"), str("x")), array(str("1"), null))),
                        new ListMapData(array(str("e"), str("e")), array(5, 6))),
                row(new ListMapData(array(str("null"), null, str("k"), null), array(1, 2, 3, 4)),
                        array(new ListMapData(array(null, str("null")), array(str("n"), str("s")))),
                        new ListMapData(array(null, str("null"), null), array(7, 8, 9))));
        for (Map<String, String> options : List.of(
                Map.of("map-null-key.mode", "LITERAL"),
                Map.of("map-null-key.mode", "LITERAL", "map-null-key.literal", "k"),
                Map.of("map-null-key.mode", "DROP", "encode.ignore-null-fields", "true"))) {
            JSON.assertParity(type, rows, options);
        }
        JSON.assertParity(type, rows.subList(0, 1), Map.of());
    }

    @Test
    void oneEncoderAndOneWriterAcrossManyBatches() {
        Map<String, String> options = Map.of("map-null-key.mode", "LITERAL", "encode.ignore-null-fields", "true");
        BatchEncoder encoder = Formats.encoder("json", Projection.all(NESTED), options);
        FlinkJsonOracle oracle = FlinkJsonOracle.of(NESTED, options);
        RandomValues random = new RandomValues(42, true);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(NESTED, allocator)) {
            for (int size : new int[] {50, 1, 0, 7, 200, 3}) {
                writer.reset();
                List<RowData> rows = new ArrayList<>();
                for (int i = 0; i < size; i++) {
                    rows.add(random.row(NESTED));
                    writer.write(rows.get(i));
                }
                RecordSlab slab = encoder.encode(writer.finish());
                assertThat(slab.recordCount()).isEqualTo(size);
                for (int i = 0; i < size; i++) {
                    assertThat(ParityCheck.text(slab.copyRecord(i))).as("batch of %d, row %d", size, i)
                            .isEqualTo(ParityCheck.text(oracle.serialize(rows.get(i))));
                }
            }
        }
    }

    /** A {@link org.apache.flink.table.data.MapData} over parallel key and value arrays, duplicates allowed. */
    private record ListMapData(org.apache.flink.table.data.ArrayData keyArray,
            org.apache.flink.table.data.ArrayData valueArray) implements org.apache.flink.table.data.MapData {
        @Override
        public int size() {
            return keyArray.size();
        }
    }

    @Test
    void failModeNullMapKeyRaisesEncodeExceptionNamingColumnAndRowAndKeepsNoRecords() {
        RowType type = RowTypes.parse("ROW<id INT, r ROW<m MAP<STRING, INT>>>");
        List<RowData> good = List.of(row(1, row(map(str("a"), 1))), row(2, null));
        List<RowData> bad = List.of(row(1, row(map(str("a"), 1))), row(2, row(map())),
                row(3, row(map(str("b"), 2, null, 3))), row(4, row(map(null, 4))));
        Map<String, String> options = Map.of("map-null-key.mode", "FAIL");
        // Flink itself rejects row 2
        assertThatThrownBy(() -> FlinkJsonOracle.of(type, options).serialize(bad.get(2)))
                .hasStackTraceContaining("null key");
        BatchEncoder encoder = Formats.encoder("json", Projection.all(type), options);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter badWriter = new RowDataArrowWriter(type, allocator);
                RowDataArrowWriter goodWriter = new RowDataArrowWriter(type, allocator)) {
            bad.forEach(badWriter::write);
            VectorSchemaRoot badBatch = badWriter.finish();
            assertThatThrownBy(() -> encoder.encode(badBatch))
                    .isInstanceOfSatisfying(EncodeException.class, e -> {
                        assertThat(e.row()).isEqualTo(2);
                        assertThat(e.column()).startsWith("r");
                        assertThat(e.getMessage()).contains("row 2").contains("'r");
                    });
            // The same encoder then encodes a good batch with no records of the failed one left over.
            good.forEach(goodWriter::write);
            RecordSlab slab = encoder.encode(goodWriter.finish());
            assertThat(slab.recordCount()).isEqualTo(2);
            FlinkJsonOracle oracle = FlinkJsonOracle.of(type, options);
            for (int i = 0; i < good.size(); i++) {
                assertThat(ParityCheck.text(slab.copyRecord(i))).isEqualTo(ParityCheck.text(oracle.serialize(good.get(i))));
            }
        }
    }

    @Test
    void projectionWithStrippedKeyPrefix() {
        RowType batch = RowTypes.parse("ROW<k_id BIGINT, v DOUBLE, k_name STRING, payload ARRAY<ROW<x INT>>,"
                + " k_ts TIMESTAMP(3)>");
        Projection key = Projection.of(batch, 4, 0, 2).withNames(List.of("ts", "id", "name"));
        Projection value = Projection.of(batch, 1, 3);
        RandomValues random = new RandomValues(7, false);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            rows.add(random.row(batch));
        }
        for (Map<String, String> options : List.of(Map.<String, String>of(),
                Map.of("encode.ignore-null-fields", "true", "timestamp-format.standard", "ISO-8601"))) {
            JSON.assertParity(key, rows, options);
            JSON.assertParity(value, rows, options);
        }
    }

    @Test
    void largeArrowVectorsBuiltByHand() {
        RowType type = RowTypes.parse("ROW<s STRING, b BYTES, a ARRAY<STRING>, n ARRAY<ARRAY<INT>>>");
        List<Field> fields = List.of(
                Field.nullable("s", ArrowType.LargeUtf8.INSTANCE),
                Field.nullable("b", ArrowType.LargeBinary.INSTANCE),
                new Field("a", FieldType.nullable(ArrowType.LargeList.INSTANCE),
                        List.of(Field.nullable("element", ArrowType.LargeUtf8.INSTANCE))),
                new Field("n", FieldType.nullable(ArrowType.LargeList.INSTANCE),
                        List.of(ArrowLayout.field("element", RowTypes.parse("ROW<x ARRAY<INT>>").getTypeAt(0)))));
        List<String> strings = EdgeValues.STRINGS;
        List<RowData> rows = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator)) {
            root.allocateNew();
            LargeVarCharVector s = (LargeVarCharVector) root.getVector(0);
            LargeVarBinaryVector b = (LargeVarBinaryVector) root.getVector(1);
            LargeListVector a = (LargeListVector) root.getVector(2);
            LargeVarCharVector aElements = (LargeVarCharVector) a.getDataVector();
            LargeListVector n = (LargeListVector) root.getVector(3);
            org.apache.arrow.vector.complex.ListVector nInner =
                    (org.apache.arrow.vector.complex.ListVector) n.getDataVector();
            IntVector nInts = (IntVector) nInner.getDataVector();
            int element = 0;
            int inner = 0;
            int ints = 0;
            int count = strings.size() + 1;
            for (int r = 0; r < count; r++) {
                if (r == strings.size()) { // last row: all null
                    s.setNull(r);
                    b.setNull(r);
                    a.setNull(r);
                    n.setNull(r);
                    rows.add(row(null, null, null, null));
                    continue;
                }
                String text = strings.get(r);
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                s.setSafe(r, utf8);
                b.setSafe(r, utf8);
                // a: [text, null, previous string]
                a.startNewValue(r);
                aElements.setSafe(element++, utf8);
                aElements.setNull(element++);
                aElements.setSafe(element++, strings.get((r + 1) % strings.size()).getBytes(StandardCharsets.UTF_8));
                a.endValue(r, 3);
                // n: r % 3 inner lists: [], [r], null
                n.startNewValue(r);
                int innerCount = r % 3;
                List<Object> innerValues = new ArrayList<>();
                for (int k = 0; k < innerCount; k++) {
                    if (k == 0) {
                        nInner.startNewValue(inner);
                        nInner.endValue(inner++, 0);
                        innerValues.add(array());
                    } else {
                        nInner.startNewValue(inner);
                        nInts.setSafe(ints++, r);
                        nInner.endValue(inner++, 1);
                        innerValues.add(array(r));
                    }
                }
                n.endValue(r, innerCount);
                rows.add(row(StringData.fromString(text), utf8,
                        array(StringData.fromString(text), null,
                                StringData.fromString(strings.get((r + 1) % strings.size()))),
                        array(innerValues.toArray())));
            }
            aElements.setValueCount(element);
            nInts.setValueCount(ints);
            nInner.setValueCount(inner);
            root.setRowCount(count);
            for (Map<String, String> options : List.of(Map.<String, String>of(),
                    Map.of("encode.ignore-null-fields", "true"))) {
                JSON.assertParity(Projection.all(type), rows, root, options);
            }
        }
    }

    @Test
    void wrongArrowTypeIsRejectedBeforeAnythingIsWritten() {
        RowType type = RowTypes.parse("ROW<id BIGINT, tags ARRAY<BIGINT>>");
        BatchEncoder encoder = Formats.encoder("json", Projection.all(type), Map.of());
        try (BufferAllocator allocator = new RootAllocator()) {
            // top-level column: INT where BIGINT is expected
            RowType wrongTop = RowTypes.parse("ROW<id INT, tags ARRAY<BIGINT>>");
            try (RowDataArrowWriter writer = new RowDataArrowWriter(wrongTop, allocator)) {
                writer.write(row(1, array(1L)));
                VectorSchemaRoot batch = writer.finish();
                assertThatThrownBy(() -> encoder.encode(batch))
                        .isInstanceOfSatisfying(BatchLayoutException.class,
                                e -> assertThat(e.column()).isEqualTo("id"))
                        .hasMessageContaining("Int(64, true)")
                        .hasMessageContaining("Int(32, true)");
            }
            // nested element: ARRAY<INT> where ARRAY<BIGINT> is expected
            RowType wrongNested = RowTypes.parse("ROW<id BIGINT, tags ARRAY<INT>>");
            try (RowDataArrowWriter writer = new RowDataArrowWriter(wrongNested, allocator)) {
                writer.write(row(1L, array(1)));
                VectorSchemaRoot batch = writer.finish();
                assertThatThrownBy(() -> encoder.encode(batch))
                        .isInstanceOfSatisfying(BatchLayoutException.class,
                                e -> assertThat(e.column()).startsWith("tags"))
                        .hasMessageContaining("Int(64, true)")
                        .hasMessageContaining("Int(32, true)");
            }
            // the encoder is still usable: a correct batch encodes in full
            try (RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
                writer.write(row(1L, array(2L, null)));
                assertThat(ParityCheck.text(encoder.encode(writer.finish()).copyRecord(0)))
                        .isEqualTo(ParityCheck.text(FlinkJsonOracle.of(type, Map.of())
                                .serialize(row(1L, array(2L, null)))));
            }
            // a batch of plain Arrow vectors that never went through the writer
            try (VectorSchemaRoot batch = VectorSchemaRoot.create(new Schema(List.of(
                    Field.nullable("id", new ArrowType.Int(64, true)),
                    Field.nullable("tags", ArrowType.Utf8.INSTANCE))), allocator)) {
                ((BigIntVector) batch.getVector(0)).setSafe(0, 1L);
                batch.setRowCount(1);
                assertThatThrownBy(() -> encoder.encode(batch))
                        .isInstanceOfSatisfying(BatchLayoutException.class,
                                e -> assertThat(e.column()).isEqualTo("tags"))
                        .hasMessageContaining("List")
                        .hasMessageContaining("Utf8");
            }
        }
    }

    @Test
    void emptyBatchHasNoRecords() {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(NESTED, allocator)) {
            RecordSlab slab = Formats.encoder("json", Projection.all(NESTED), Map.of()).encode(writer.finish());
            assertThat(slab.recordCount()).isZero();
        }
    }

    @Test
    void invalidUtf8InStringDataIsDecodedAsFlinkDecodesIt() {
        RowType type = RowTypes.parse("ROW<s STRING, a ARRAY<STRING>, m MAP<STRING, STRING>>");
        StringData bad = EdgeValues.invalidUtf8();
        JSON.assertParity(type, List.of(row(bad, array(bad), map(bad, bad))), Map.of());
    }

    @Test
    void datesOutsideTheSqlRange() {
        RowType type = RowTypes.parse("ROW<d DATE>");
        List<RowData> rows = new ArrayList<>();
        for (int days : new int[] {Integer.MIN_VALUE, -719529, -1_000_000, 2_932_897, 10_000_000, Integer.MAX_VALUE}) {
            rows.add(row(days));
        }
        JSON.assertParity(type, rows, Map.of());
    }

    @ParameterizedTest
    @MethodSource("options")
    void intervalsAsFlinksIntOfMonthsAndLongOfMillis(Map<String, String> options) {
        JSON.assertParity(EdgeValues.INTERVALS, EdgeValues.intervalRows(), options);
    }

    @Test
    void timestampStandardsSpellTheSameInstantDifferently() {
        RowType type = RowTypes.parse("ROW<t TIMESTAMP(9), l TIMESTAMP_LTZ(9)>");
        List<RowData> rows = List.of(row(ts("1969-12-31T23:59:59.999999999"),
                io.columnarkafka.format.arrow.FlinkValues.ltz("1969-12-31T23:59:59.999999999Z")));
        Map<String, String> sql = new LinkedHashMap<>();
        sql.put("timestamp-format.standard", "SQL");
        JSON.assertParity(type, rows, sql);
        JSON.assertParity(type, rows, Map.of("timestamp-format.standard", "ISO-8601"));
        assertThat(ParityCheck.text(FlinkJsonOracle.of(type, sql).serialize(rows.get(0))))
                .isEqualTo("{\"t\":\"1969-12-31 23:59:59.999999999\",\"l\":\"1969-12-31 23:59:59.999999999Z\"}");
    }
}
