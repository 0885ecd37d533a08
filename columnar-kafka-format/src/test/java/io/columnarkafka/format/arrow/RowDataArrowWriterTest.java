package io.columnarkafka.format.arrow;

import static io.columnarkafka.format.arrow.FlinkValues.array;
import static io.columnarkafka.format.arrow.FlinkValues.bytes;
import static io.columnarkafka.format.arrow.FlinkValues.date;
import static io.columnarkafka.format.arrow.FlinkValues.dec;
import static io.columnarkafka.format.arrow.FlinkValues.ltz;
import static io.columnarkafka.format.arrow.FlinkValues.map;
import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static io.columnarkafka.format.arrow.FlinkValues.time;
import static io.columnarkafka.format.arrow.FlinkValues.ts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.BoxedRows;
import java.nio.charset.StandardCharsets;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

class RowDataArrowWriterTest {
    private static final RowType ALL_TYPES = RowTypes.parse("ROW<"
            + "b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE,"
            + " d5 DECIMAL(5, 2), d18 DECIMAL(18, 0), d38 DECIMAL(38, 10), d38s DECIMAL(38, 38),"
            + " c CHAR(3), s STRING, bin BINARY(2), vb BYTES, dt DATE, t TIME(3),"
            + " ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9),"
            + " l0 TIMESTAMP_LTZ(0), l3 TIMESTAMP_LTZ(3), l6 TIMESTAMP_LTZ(6), l9 TIMESTAMP_LTZ(9),"
            + " a ARRAY<INT>, r ROW<x INT, y STRING>, m MAP<STRING, BIGINT>, ms MULTISET<STRING>,"
            + " deep ARRAY<ROW<m MAP<STRING, ARRAY<ROW<z DOUBLE, w ARRAY<STRING>>>>>>,"
            + " nn INT NOT NULL>");

    private static GenericRowData ordinary() {
        return row(true, (byte) 1, (short) 2, 3, 4L, 1.5f, 2.5d,
                dec("123.45", 5, 2), dec("999999999999999999", 18, 0),
                dec("-1234567890123456789012345678.0123456789", 38, 10),
                dec("0.12345678901234567890123456789012345678", 38, 38),
                str("abc"), str("h\u00e9llo \u20ac \uD83D\uDE00"), bytes("xy"), new byte[] {0, -1, 127},
                date("2020-02-29"), time("12:34:56.789"),
                ts("2020-01-02T03:04:05"), ts("2020-01-02T03:04:05.123"),
                ts("2020-01-02T03:04:05.123456"), ts("2020-01-02T03:04:05.123456789"),
                ltz("2020-01-02T03:04:05Z"), ltz("2020-01-02T03:04:05.123Z"),
                ltz("2020-01-02T03:04:05.123456Z"), ltz("2020-01-02T03:04:05.123456789Z"),
                array(1, null, 3), row(7, str("seven")), map(str("k"), 1L, null, 2L, str("v"), null),
                map(str("x"), 2, null, 1),
                array(row(map(str("a"), array(row(1.0, array(str("p"), null)), null), str("b"), null)), null),
                42);
    }

    private static GenericRowData extremes() {
        return row(false, Byte.MIN_VALUE, Short.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE,
                Float.NaN, Double.NEGATIVE_INFINITY,
                dec("-999.99", 5, 2), dec("-999999999999999999", 18, 0),
                dec("9999999999999999999999999999.9999999999", 38, 10),
                dec("-0.99999999999999999999999999999999999999", 38, 38),
                str(""), str("\u0000\u001f\u007f\"\\/"), new byte[2], new byte[0],
                date("0001-01-01"), time("23:59:59.999"),
                ts("1969-12-31T23:59:59"), ts("0001-01-01T00:00:00.001"),
                ts("9999-12-31T23:59:59.999999"), ts("1677-09-21T00:12:43.145224192"),
                ltz("1969-12-31T23:59:59Z"), ltz("1969-12-31T23:59:59.999Z"),
                ltz("0001-01-01T00:00:00.000001Z"), ltz("2262-04-11T23:47:16.854775807Z"),
                array(), row(null, null), map(), map(),
                array(row((Object) null), row(map(null, null))),
                Integer.MAX_VALUE);
    }

    private static GenericRowData allNull() {
        GenericRowData row = new GenericRowData(ALL_TYPES.getFieldCount());
        row.setField(ALL_TYPES.getFieldCount() - 1, 0);
        return row;
    }

    @Test
    void everyTypeRoundTripsThroughArrowGetters() {
        List<RowData> rows = List.of(ordinary(), allNull(), extremes(), ordinary());
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowDataArrowWriter writer = new RowDataArrowWriter(ALL_TYPES, allocator)) {
                rows.forEach(writer::write);
                VectorSchemaRoot root = writer.finish();
                assertThat(root.getSchema()).isEqualTo(ArrowLayout.schema(ALL_TYPES));
                assertRows(root, rows);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void preEpochTimestampsStayExactInEveryUnit() {
        RowType type = RowTypes.parse("ROW<s TIMESTAMP(0), ms TIMESTAMP(3), us TIMESTAMP(6), ns TIMESTAMP(9)>");
        // -1 ms in TIMESTAMP(0) (its unit is milliseconds: Flink's binary row keeps them), -1 ms, -1 us, -1 ns.
        GenericRowData justBefore = row(ts("1969-12-31T23:59:59.999"), ts("1969-12-31T23:59:59.999"),
                ts("1969-12-31T23:59:59.999999"), ts("1969-12-31T23:59:59.999999999"));
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(justBefore);
            VectorSchemaRoot root = writer.finish();
            assertThat(PlainValues.fromArrow(root.getFieldVectors(), type, 0)).containsExactly(-1L, -1L, -1L, -1L);
        }
    }

    @Test
    void resetReusesBuffersForTheNextBatch() {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(ALL_TYPES, allocator)) {
            for (int i = 0; i < 5000; i++) { // beyond the initial capacity of every vector
                writer.write(i % 2 == 0 ? ordinary() : extremes());
            }
            assertThat(writer.finish().getRowCount()).isEqualTo(5000);
            writer.reset();
            assertThat(writer.rowCount()).isZero();
            List<RowData> second = List.of(allNull(), extremes(), allNull());
            second.forEach(writer::write);
            VectorSchemaRoot root = writer.finish();
            assertRows(root, second);
        }
    }

    @Test
    void binaryRowDataIsRead() {
        RowType type = RowTypes.parse("ROW<i INT, l BIGINT, d DECIMAL(10, 2), t TIMESTAMP(3), b BOOLEAN>");
        BinaryRowData binary = new BinaryRowData(5);
        byte[] memory = new byte[BinaryRowData.calculateFixPartSizeInBytes(5)];
        binary.pointTo(MemorySegmentFactory.wrap(memory), 0, memory.length);
        binary.setInt(0, -5);
        binary.setNullAt(1);
        binary.setDecimal(2, dec("-12345678.90", 10, 2), 10);
        binary.setTimestamp(3, ts("1969-12-31T23:59:59.999"), 3);
        binary.setBoolean(4, true);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(binary);
            VectorSchemaRoot root = writer.finish();
            assertThat(PlainValues.fromArrow(root.getFieldVectors(), type, 0))
                    .containsExactly(-5L, null, new BigDecimal("-12345678.90"), -1L, true);
        }
    }

    private static BinaryRowData binary(RowType type, RowData row) {
        return new RowDataSerializer(type).toBinaryRow(row).copy(); // toBinaryRow reuses one row
    }

    @Test
    void binaryRowsAreReadDirectlyIntoTheSameBatchAsTheirGenericForm() {
        List<RowData> generic = new ArrayList<>();
        List<RowData> binary = new ArrayList<>();
        List<RowData> boxed = new ArrayList<>();
        for (int i = 0; i < 5000; i++) { // beyond the initial capacity of every vector
            GenericRowData row = List.of(ordinary(), allNull(), extremes()).get(i % 3);
            generic.add(row);
            // every fourth row stays generic: the two paths alternate within one batch
            binary.add(i % 4 == 3 ? row : binary(ALL_TYPES, row));
            // BoxedWrapperRowData, what a chained Calc emits, and generic rows alternate too
            boxed.add(i % 2 == 0 ? BoxedRows.of(ALL_TYPES, row) : row);
        }
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowDataArrowWriter viaGetters = new RowDataArrowWriter(ALL_TYPES, allocator);
                    RowDataArrowWriter direct = new RowDataArrowWriter(ALL_TYPES, allocator);
                    RowDataArrowWriter viaBoxed = new RowDataArrowWriter(ALL_TYPES, allocator)) {
                for (int round = 0; round < 2; round++) { // the second batch reuses the buffers
                    viaGetters.reset();
                    direct.reset();
                    viaBoxed.reset();
                    generic.forEach(viaGetters::write);
                    binary.forEach(direct::write);
                    boxed.forEach(viaBoxed::write);
                    assertThat(direct.directRowCount()).isEqualTo(3750);
                    assertThat(viaGetters.directRowCount()).isZero();
                    assertThat(viaGetters.unplannedRowCount() + direct.unplannedRowCount()
                            + viaBoxed.unplannedRowCount()).as("rows outside the plan").isZero();
                    VectorSchemaRoot expected = viaGetters.finish();
                    VectorSchemaRoot actual = direct.finish();
                    assertThat(actual.equals(expected)).as("batches equal").isTrue();
                    assertThat(viaBoxed.finish().equals(expected)).as("boxed rows' batch equal").isTrue();
                    assertFirstRows(actual, binary.subList(0, 6));
                    assertFirstRows(viaBoxed.finish(), boxed.subList(0, 6));
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void shortStringsInlineInTheSlotAndLongOnesInTheVariablePart() {
        RowType type = RowTypes.parse("ROW<a STRING, b BYTES, c STRING, d STRING>");
        List<String> strings = List.of("", "1234567", "12345678", "\uD83D\uDE00\u00e9", "\u00e9\u00e9\u00e9\u00e9");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            for (String text : strings) {
                writer.write(binary(type, row(str(text), text.getBytes(StandardCharsets.UTF_8), null, str(text + text))));
            }
            VectorSchemaRoot root = writer.finish();
            assertThat(writer.directRowCount()).isEqualTo(strings.size());
            for (int i = 0; i < strings.size(); i++) {
                String text = strings.get(i);
                assertThat(PlainValues.fromArrow(root.getFieldVectors(), type, i)).containsExactly(
                        text, HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8)), null, text + text);
            }
        }
    }

    @Test
    void binaryRowAtAnOffsetOfALargerSegmentIsReadDirectly() {
        RowType type = RowTypes.parse("ROW<i INT, s STRING, ts TIMESTAMP(6), d DECIMAL(18, 3)>");
        BinaryRowData source = binary(type, row(-7, str("a string longer than seven bytes"),
                ts("1969-12-31T23:59:59.999999"), dec("-123456789012345.678", 18, 3)));
        byte[] memory = new byte[source.getSizeInBytes() + 40];
        source.getSegments()[0].get(source.getOffset(), memory, 24, source.getSizeInBytes());
        BinaryRowData atOffset = new BinaryRowData(4);
        atOffset.pointTo(MemorySegmentFactory.wrap(memory), 24, source.getSizeInBytes());
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(atOffset);
            assertThat(writer.directRowCount()).isOne();
            assertThat(PlainValues.fromArrow(writer.finish().getFieldVectors(), type, 0)).containsExactly(
                    -7L, "a string longer than seven bytes", -1L, new BigDecimal("-123456789012345.678"));
        }
    }

    @Test
    void binaryRowAcrossSegmentsTakesTheGetterPath() {
        RowType type = RowTypes.parse("ROW<i INT, s STRING>");
        BinaryRowData source = binary(type, row(5, str("twenty bytes of text")));
        int half = 32; // the fixed part (8 + 2 * 8 bytes) in the first segment, the string split
        byte[] first = new byte[half];
        byte[] second = new byte[half];
        source.getSegments()[0].get(source.getOffset(), first, 0, half);
        source.getSegments()[0].get(source.getOffset() + half, second, 0, source.getSizeInBytes() - half);
        BinaryRowData split = new BinaryRowData(2);
        split.pointTo(new MemorySegment[] {MemorySegmentFactory.wrap(first), MemorySegmentFactory.wrap(second)},
                0, source.getSizeInBytes());
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(split);
            writer.write(source);
            assertThat(writer.directRowCount()).isOne();
            VectorSchemaRoot root = writer.finish();
            assertThat(PlainValues.fromArrow(root.getFieldVectors(), type, 0)).containsExactly(5L, "twenty bytes of text");
            assertThat(PlainValues.fromArrow(root.getFieldVectors(), type, 1)).containsExactly(5L, "twenty bytes of text");
        }
    }

    @Test
    void aFailingColumnOfABinaryRowNamesTheColumnAndRow() {
        RowType type = RowTypes.parse("ROW<i INT, s STRING, ts TIMESTAMP(9)>");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(binary(type, row(1, str("x"), ts("2262-04-11T23:47:16.854775807"))));
            assertThatThrownBy(() -> writer.write(binary(type, row(2, str("y"), ts("9999-12-31T23:59:59.999999999")))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("column 'ts', row 1: ")
                    .hasMessageContaining("outside the range of Arrow nanosecond timestamps");
            assertThatThrownBy(() -> writer.write(binary(type, row(3, str("z"), null))))
                    .isInstanceOf(IllegalStateException.class);
            writer.reset();
            writer.write(binary(type, row(3, str("z"), null)));
            assertThat(PlainValues.fromArrow(writer.finish().getFieldVectors(), type, 0)).containsExactly(3L, "z", null);
        }
    }

    @Test
    void binaryStringsAtAnOffsetAndAcrossSegmentsAreCopiedWhole() {
        RowType type = RowTypes.parse("ROW<s STRING, u STRING, a ARRAY<STRING>>");
        byte[] utf8 = "__h\u00e9llo".getBytes(StandardCharsets.UTF_8);
        BinaryStringData atOffset = BinaryStringData.fromAddress(
                new MemorySegment[] {MemorySegmentFactory.wrap(utf8)}, 2, utf8.length - 2);
        byte[] left = "ab\u00e9".getBytes(StandardCharsets.UTF_8);
        BinaryStringData split = BinaryStringData.fromAddress(new MemorySegment[] {
            MemorySegmentFactory.wrap(left), MemorySegmentFactory.wrap("cd".getBytes(StandardCharsets.UTF_8))},
                1, left.length + 1);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(row(atOffset, split, array(split, atOffset)));
            VectorSchemaRoot root = writer.finish();
            assertThat(PlainValues.fromArrow(root.getFieldVectors(), type, 0)).containsExactly(
                    "h\u00e9llo", "b\u00e9cd", List.of("b\u00e9cd", "h\u00e9llo"));
        }
    }

    @Test
    void nullMapKeysAreCarriedAsUnsetValidityBitsInTheNonNullableKeyVector() {
        RowType type = RowTypes.parse("ROW<m MAP<STRING, INT>>");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(row(map(str("a"), 1, null, 2)));
            VectorSchemaRoot root = writer.finish();
            MapVector map = (MapVector) root.getVector(0);
            StructVector entries = (StructVector) map.getDataVector();
            assertThat(entries.getField().getChildren().get(0).isNullable()).isFalse();
            assertThat(entries.getChildByOrdinal(0).isNull(0)).isFalse();
            assertThat(entries.getChildByOrdinal(0).isNull(1)).isTrue();
            assertThat(entries.getChildByOrdinal(1).getObject(1)).isEqualTo(2);
        }
    }

    @Test
    void nanosecondTimestampOutsideArrowRangeIsRejectedNamingColumnAndRow() {
        RowType type = RowTypes.parse("ROW<i INT, r ROW<ts TIMESTAMP(9)>>");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(row(1, row(ts("2262-04-11T23:47:16.854775807"))));
            writer.write(row(1, row(ts("1677-09-21T00:12:43.145224192"))));
            assertThatThrownBy(() -> writer.write(row(2, row(ts("9999-12-31T23:59:59.999999999")))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("column 'r', row 2")
                    .hasMessageContaining("column 'r.ts'")
                    .hasMessageContaining("outside the range of Arrow nanosecond timestamps");
            assertThatThrownBy(() -> writer.write(row(3, row(ts("1677-09-21T00:12:43.145224191")))))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(writer::finish).isInstanceOf(IllegalStateException.class);
            writer.reset();
            writer.write(row(3, row(ts("1970-01-01T00:00:00.000000001"))));
            assertThat(PlainValues.fromArrow(writer.finish().getFieldVectors(), type, 0))
                    .containsExactly(3L, List.of(1L));
            writer.reset();
            assertThatThrownBy(() -> writer.write(row(4, row(ts("1677-09-21T00:12:43.145224191")))))
                    .hasMessageContaining("column 'r', row 0");
        }
    }

    @Test
    void wrongInternalDataNamesTheColumnAndRow() {
        RowType type = RowTypes.parse("ROW<i INT, s STRING>");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            assertThatThrownBy(() -> writer.write(row(1, "a java.lang.String, not StringData")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("column 's', row 0: ");
        }
    }

    @Test
    void genericAndBoxedRowsTakeThePlanAndARowOfAnotherArityEachColumnsWriter() {
        RowType type = RowTypes.parse("ROW<i INT, s STRING>");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(row(1, str("planned")));
            writer.write(BoxedRows.of(type, row(2, str("boxed"))));
            writer.write(row(3, str("wider"), "a third field the writers never read"));
            assertThat(writer.unplannedRowCount()).isOne();
            assertThat(writer.directRowCount()).isZero();
            VectorSchemaRoot root = writer.finish();
            assertThat(PlainValues.fromArrow(root.getFieldVectors(), type, 1)).containsExactly(2L, "boxed");
            assertThat(PlainValues.fromArrow(root.getFieldVectors(), type, 2)).containsExactly(3L, "wider");
        }
    }

    private static void assertRows(VectorSchemaRoot root, List<RowData> rows) {
        assertThat(root.getRowCount()).isEqualTo(rows.size());
        assertFirstRows(root, rows);
    }

    private static void assertFirstRows(VectorSchemaRoot root, List<RowData> rows) {
        List<FieldVector> columns = root.getFieldVectors();
        for (int i = 0; i < rows.size(); i++) {
            List<Object> expected = PlainValues.fromFlink(rows.get(i), ALL_TYPES);
            List<Object> actual = PlainValues.fromArrow(columns, ALL_TYPES, i);
            for (int c = 0; c < expected.size(); c++) {
                assertThat(actual.get(c))
                        .as("row %d column %s", i, ALL_TYPES.getFieldNames().get(c))
                        .isEqualTo(expected.get(c));
            }
        }
    }

    @Test
    void rowKindColumnHoldsEachRowsKindAfterTheColumns() {
        RowType type = RowTypes.parse("ROW<id INT, name STRING>");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, "kind", allocator)) {
            org.apache.flink.types.RowKind[] kinds = org.apache.flink.types.RowKind.values();
            for (int i = 0; i < kinds.length; i++) {
                GenericRowData row = row(i, str("r" + i));
                row.setRowKind(kinds[i]);
                writer.write(row);
            }
            VectorSchemaRoot batch = writer.finish();
            assertThat(batch.getSchema()).isEqualTo(
                    ArrowLayout.schema(RowDataArrowWriter.withRowKindColumn(type, "kind")));
            org.apache.arrow.vector.TinyIntVector kind = (org.apache.arrow.vector.TinyIntVector) batch.getVector(2);
            for (int i = 0; i < kinds.length; i++) {
                assertThat(kind.get(i)).isEqualTo(kinds[i].toByteValue());
                assertThat(batch.getVector(0).getObject(i)).isEqualTo(i);
            }
            writer.reset();
            assertThat(writer.finish().getRowCount()).isZero();
        }
        assertThatThrownBy(() -> RowDataArrowWriter.withRowKindColumn(type, "name"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("row-kind column 'name' clashes");
    }
}
