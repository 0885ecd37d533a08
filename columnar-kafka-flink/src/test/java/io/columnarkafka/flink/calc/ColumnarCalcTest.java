package io.columnarkafka.flink.calc;

import static io.columnarkafka.flink.calc.Exprs.BIGINT;
import static io.columnarkafka.flink.calc.Exprs.BOOLEAN;
import static io.columnarkafka.flink.calc.Exprs.STRING;
import static io.columnarkafka.flink.calc.Exprs.call;
import static io.columnarkafka.flink.calc.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchSerializer;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A filter is a selection, column projections share buffers, and memory is owned as ArrowBatch says. */
class ColumnarCalcTest {
    private static final Exprs X = new Exprs(TestRows.ROW_TYPE);
    /** id % 3 = 0 */
    private static final Expr EVERY_THIRD = call(Op.EQUALS, BOOLEAN,
            call(Op.MOD, BIGINT, X.col("id"), lit(3L)), lit(0L));

    private BufferAllocator producer;
    private BufferAllocator calcMemory;

    @BeforeEach
    void allocators() {
        producer = ArrowMemory.newChild("calc-test-producer", 64L << 20);
        calcMemory = ArrowMemory.newChild("calc-test", 64L << 20);
    }

    @AfterEach
    void noLeaks() {
        producer.close();
        calcMemory.close();
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    private ArrowBatch bids(int rows) {
        return ArrowBatch.of(TestRows.batch(0, rows, producer), null);
    }

    @Test
    void aFilterIsASelectionAndColumnProjectionsShareTheInputBuffers() {
        CalcProgram program = new CalcProgram(TestRows.ROW_TYPE,
                List.of(X.col("id"), X.col("name"), call(Op.UPPER, STRING, X.col("name"))),
                List.of("id", "name", "loud"), EVERY_THIRD);
        ArrowBatch input = bids(100);
        VectorSchemaRoot in = input.open(producer);
        long idAddress = in.getVector(0).getDataBuffer().memoryAddress();
        long nameAddress = in.getVector(1).getDataBuffer().memoryAddress();
        try (ColumnarCalc calc = ColumnarCalc.plan(program, calcMemory); ArrowBatch out = calc.apply(input)) {
            VectorSchemaRoot root = out.open(calcMemory);
            assertThat(root.getRowCount()).as("no rows copied out").isEqualTo(100);
            assertThat(out.selectedCount(calcMemory)).isEqualTo(34);
            assertThat(out.selection()[1]).isEqualTo(3);
            assertThat(root.getVector(0).getDataBuffer().memoryAddress()).isEqualTo(idAddress);
            assertThat(root.getVector(1).getDataBuffer().memoryAddress()).isEqualTo(nameAddress);
            assertThat(calcMemory.getAllocatedMemory()).as("only the computed column").isPositive();
            List<RowData> rows = selectedRows(out, program.outputType());
            for (int k = 0; k < rows.size(); k++) {
                long id = 3L * k;
                RowData expected = TestRows.rowData(id);
                assertThat(rows.get(k).getLong(0)).isEqualTo(id);
                assertThat(rows.get(k).isNullAt(2)).isEqualTo(expected.isNullAt(1));
                if (!expected.isNullAt(1)) {
                    assertThat(rows.get(k).getString(2).toString())
                            .isEqualTo(expected.getString(1).toString().toUpperCase());
                }
            }
        }
        assertThat(input.isClosed()).as("the output owned the input").isTrue();
    }

    @Test
    void aFollowingCalcHonoursTheSelection() {
        CalcProgram first = new CalcProgram(TestRows.ROW_TYPE, List.of(X.col("id"), X.col("price")),
                List.of("id", "price"), EVERY_THIRD);
        RowType middle = first.outputType();
        Exprs m = new Exprs(middle);
        // id % 2 = 0 on the rows id % 3 = 0 left: every sixth row
        CalcProgram second = new CalcProgram(middle, List.of(call(Op.PLUS, BIGINT, m.col("id"), lit(1L))),
                List.of("next"), call(Op.EQUALS, BOOLEAN, call(Op.MOD, BIGINT, m.col("id"), lit(2L)), lit(0L)));
        try (ColumnarCalc a = ColumnarCalc.plan(first, calcMemory);
                ColumnarCalc b = ColumnarCalc.plan(second, calcMemory);
                ArrowBatch out = b.apply(a.apply(bids(60)))) {
            List<Long> next = new ArrayList<>();
            for (RowData row : selectedRows(out, second.outputType())) {
                next.add(row.getLong(0));
            }
            assertThat(next).containsExactly(1L, 7L, 13L, 19L, 25L, 31L, 37L, 43L, 49L, 55L);
        }
    }

    @Test
    void aShuffleSendsOnlyTheSelectedRows() throws Exception {
        CalcProgram program = new CalcProgram(TestRows.ROW_TYPE, List.of(X.col("id"), X.col("name")),
                List.of("id", "name"), EVERY_THIRD);
        DataOutputSerializer wire = new DataOutputSerializer(4096);
        try (ColumnarCalc calc = ColumnarCalc.plan(program, calcMemory)) {
            ArrowBatch out = calc.apply(bids(30));
            ArrowBatchSerializer.INSTANCE.serialize(out, wire);
            out.close();
        }
        assertThat(producer.getAllocatedMemory()).as("the producer's vectors are freed once written").isZero();
        try (ArrowBatch received = ArrowBatchSerializer.INSTANCE.deserialize(
                new DataInputDeserializer(wire.getCopyOfBuffer()))) {
            VectorSchemaRoot root = received.open(calcMemory);
            assertThat(received.selection()).isNull();
            assertThat(root.getRowCount()).isEqualTo(10);
            ArrowRowView view = new ArrowRowView(program.outputType());
            view.bind(root);
            for (int k = 0; k < 10; k++) {
                RowData expected = TestRows.rowData(3L * k);
                assertThat(view.row(k).getLong(0)).isEqualTo(3L * k);
                assertThat(view.row(k).isNullAt(1)).isEqualTo(expected.isNullAt(1));
            }
        }
    }

    @Test
    void nestedFieldsAreSharedWhenNoEnclosingRowIsNullAndReadOtherwise() {
        RowType type = RowTypes.parse("ROW<id INT NOT NULL, bid ROW<price BIGINT, url STRING>>");
        Exprs n = new Exprs(type);
        CalcProgram program = new CalcProgram(type, List.of(n.field("bid", "price"), n.field("bid", "url")),
                List.of("price", "url"), null);
        for (boolean nullRow : new boolean[] {false, true}) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, producer);
            for (int i = 0; i < 4; i++) {
                GenericRowData bid = GenericRowData.of((long) i, StringData.fromString("u" + i));
                writer.write(GenericRowData.of(i, nullRow && i == 2 ? null : bid));
            }
            try (ColumnarCalc calc = ColumnarCalc.plan(program, calcMemory);
                    ArrowBatch out = calc.apply(ArrowBatch.of(writer.finish(), null))) {
                List<RowData> rows = selectedRows(out, program.outputType());
                assertThat(rows.get(2).isNullAt(0)).isEqualTo(nullRow);
                assertThat(rows.get(2).isNullAt(1)).isEqualTo(nullRow);
                assertThat(rows.get(3).getLong(0)).isEqualTo(3L);
                assertThat(rows.get(3).getString(1).toString()).isEqualTo("u3");
                assertThat(calcMemory.getAllocatedMemory() > 0).as("copied only with a null row").isEqualTo(nullRow);
            }
        }
    }

    /**
     * As Nexmark's bid view: the rows whose enclosing ROW is null are the rows the condition drops, so the fields
     * are still shared, and no value is read or copied for them.
     */
    @Test
    void nestedFieldsAreSharedWhenOnlyRowsThatFailTheConditionHaveANullEnclosingRow() {
        RowType type = RowTypes.parse("ROW<event_type INT NOT NULL, bid ROW<price BIGINT, url STRING>>");
        Exprs n = new Exprs(type);
        CalcProgram program = new CalcProgram(type, List.of(n.field("bid", "price"), n.field("bid", "url")),
                List.of("price", "url"), call(Op.EQUALS, BOOLEAN, n.col("event_type"), lit(2)));
        RowDataArrowWriter writer = new RowDataArrowWriter(type, producer);
        for (int i = 0; i < 6; i++) {
            boolean isBid = i % 3 != 0;
            writer.write(GenericRowData.of(isBid ? 2 : 0,
                    isBid ? GenericRowData.of((long) i, StringData.fromString("u" + i)) : null));
        }
        try (ColumnarCalc calc = ColumnarCalc.plan(program, calcMemory);
                ArrowBatch out = calc.apply(ArrowBatch.of(writer.finish(), null))) {
            List<RowData> rows = selectedRows(out, program.outputType());
            assertThat(rows).extracting(r -> r.getLong(0)).containsExactly(1L, 2L, 4L, 5L);
            assertThat(rows).extracting(r -> r.getString(1).toString()).containsExactly("u1", "u2", "u4", "u5");
            assertThat(calcMemory.getAllocatedMemory()).as("shared, not copied").isZero();
        }
    }

    /**
     * Nexmark's {@code dateTime} through the {@code bid} view: under {@code event_type = 2} the CASE is the bid's
     * field on every passed row, and is shared like a plain field, with nothing allocated.
     */
    @Test
    void aCaseTheConditionDecidesIsSharedLikeItsBranch() {
        RowType type = RowTypes.parse("ROW<event_type INT NOT NULL, person ROW<price BIGINT>, bid ROW<price BIGINT>>");
        Exprs n = new Exprs(type);
        Expr price = call(Op.CASE, BIGINT, call(Op.EQUALS, BOOLEAN, n.col("event_type"), lit(0)),
                n.field("person", "price"), n.field("bid", "price"));
        CalcProgram program = new CalcProgram(type, List.of(price), List.of("price"),
                call(Op.EQUALS, BOOLEAN, n.col("event_type"), lit(2)));
        RowDataArrowWriter writer = new RowDataArrowWriter(type, producer);
        for (int i = 0; i < 6; i++) {
            boolean isBid = i % 3 != 0;
            writer.write(GenericRowData.of(isBid ? 2 : 0, isBid ? null : GenericRowData.of(-1L),
                    isBid ? GenericRowData.of((long) i) : null));
        }
        try (ColumnarCalc calc = ColumnarCalc.plan(program, calcMemory);
                ArrowBatch out = calc.apply(ArrowBatch.of(writer.finish(), null))) {
            List<RowData> rows = selectedRows(out, program.outputType());
            assertThat(rows).extracting(r -> r.getLong(0)).containsExactly(1L, 2L, 4L, 5L);
            assertThat(calcMemory.getAllocatedMemory()).as("shared, not copied").isZero();
        }
    }

    @Test
    void aBatchFromTheWireOpensIntoTheCalcsAllocator() throws Exception {
        DataOutputSerializer wire = new DataOutputSerializer(4096);
        ArrowBatch sent = bids(12);
        ArrowBatchSerializer.INSTANCE.serialize(sent, wire);
        sent.close();
        CalcProgram program = new CalcProgram(TestRows.ROW_TYPE, List.of(X.col("id")), List.of("id"), EVERY_THIRD);
        try (ColumnarCalc calc = ColumnarCalc.plan(program, calcMemory);
                ArrowBatch out = calc.apply(ArrowBatchSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(wire.getCopyOfBuffer())))) {
            assertThat(out.selectedCount(calcMemory)).isEqualTo(4);
            assertThat(calcMemory.getAllocatedMemory()).isPositive();
        }
    }

    @Test
    void anEmptyBatchGivesAnEmptyBatch() {
        CalcProgram program = new CalcProgram(TestRows.ROW_TYPE,
                List.of(X.col("id"), call(Op.UPPER, STRING, X.col("name"))), List.of("id", "loud"), EVERY_THIRD);
        try (ColumnarCalc calc = ColumnarCalc.plan(program, calcMemory); ArrowBatch out = calc.apply(bids(0))) {
            assertThat(out.selectedCount(calcMemory)).isZero();
            assertThat(out.open(calcMemory).getRowCount()).isZero();
        }
    }

    /** The operator ships its program to the task managers: literals in Flink's internal format survive it. */
    @Test
    void programsSurviveJavaSerialization() throws Exception {
        RowType type = RowTypes.parse("ROW<s STRING, m DECIMAL(10, 2), ts TIMESTAMP(6)>");
        Exprs p = new Exprs(type);
        CalcProgram program = new CalcProgram(type,
                List.of(call(Op.CONCAT, STRING, p.col("s"), lit("\u00e9\uD83D\uDE00")),
                        call(Op.PLUS, Exprs.decimal(12, 2), p.col("m"), Exprs.dec("-12.50")),
                        new Expr.Literal(org.apache.flink.table.data.TimestampData.fromEpochMillis(-1L, 999_000),
                                new org.apache.flink.table.types.logical.TimestampType(false, 6)),
                        new Expr.Literal(null, STRING)),
                List.of("a", "b", "c", "d"), call(Op.IS_NOT_NULL, Exprs.BOOLEAN_NOT_NULL, p.col("s")));
        byte[] bytes = org.apache.flink.util.InstantiationUtil.serializeObject(program);
        CalcProgram back = org.apache.flink.util.InstantiationUtil.deserializeObject(bytes,
                ColumnarCalcTest.class.getClassLoader());
        assertThat(back).isEqualTo(program);
        assertThat(CalcSupport.unsupported(back)).isEmpty();
    }

    /** LargeUtf8 is an accepted layout of STRING: read by expressions, shared as is, and sent as is. */
    @Test
    void largeUtf8ColumnsAreReadSharedAndSent() throws Exception {
        RowType type = RowTypes.parse("ROW<s STRING>");
        org.apache.arrow.vector.LargeVarCharVector strings = new org.apache.arrow.vector.LargeVarCharVector("s", producer);
        String[] values = {"ab", null, "\u00e9t\u00e9", ""};
        strings.allocateNew();
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                strings.setNull(i);
            } else {
                strings.setSafe(i, values[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        strings.setValueCount(values.length);
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(strings));
        Exprs p = new Exprs(type);
        CalcProgram program = new CalcProgram(type, List.of(p.col("s"), call(Op.UPPER, STRING, p.col("s"))),
                List.of("s", "loud"), call(Op.IS_NOT_NULL, Exprs.BOOLEAN_NOT_NULL, p.col("s")));
        DataOutputSerializer wire = new DataOutputSerializer(1024);
        try (ColumnarCalc calc = ColumnarCalc.plan(program, calcMemory)) {
            ArrowBatch out = calc.apply(ArrowBatch.of(root, null));
            ArrowBatchSerializer.INSTANCE.serialize(out, wire);
            out.close();
        }
        try (ArrowBatch received = ArrowBatchSerializer.INSTANCE.deserialize(
                new DataInputDeserializer(wire.getCopyOfBuffer()))) {
            List<RowData> rows = selectedRows(received, program.outputType());
            assertThat(rows).hasSize(3);
            assertThat(rows.get(1).getString(0).toString()).isEqualTo("\u00e9t\u00e9");
            assertThat(rows.get(1).getString(1).toString()).isEqualTo("\u00c9T\u00c9");
            assertThat(rows.get(2).getString(1).toString()).isEmpty();
        }
    }

    /** Copies of the output's selected rows (the view's rows are reused). */
    private List<RowData> selectedRows(ArrowBatch batch, RowType type) {
        VectorSchemaRoot root = batch.open(calcMemory);
        ArrowRowView view = new ArrowRowView(type);
        view.bind(root);
        int[] selection = batch.selection();
        List<RowData> rows = new ArrayList<>();
        org.apache.flink.table.runtime.typeutils.RowDataSerializer copier =
                new org.apache.flink.table.runtime.typeutils.RowDataSerializer(type);
        for (int k = 0; k < batch.selectedCount(calcMemory); k++) {
            rows.add(copier.copy(view.row(selection == null ? k : selection[k])));
        }
        return rows;
    }
}
