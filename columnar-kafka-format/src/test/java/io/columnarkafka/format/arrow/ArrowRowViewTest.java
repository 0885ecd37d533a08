package io.columnarkafka.format.arrow;

import static io.columnarkafka.format.arrow.FlinkValues.array;
import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.RowTypes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.impl.UnionLargeListWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class ArrowRowViewTest {
    private static final RowType TYPE = RowTypes.parse("ROW<s STRING, b BYTES, a ARRAY<BIGINT>>");

    @Test
    void readsTheLargeVariantsOfStringsBytesAndLists() {
        try (BufferAllocator allocator = new RootAllocator();
                LargeVarCharVector s = new LargeVarCharVector("s", allocator);
                LargeVarBinaryVector b = new LargeVarBinaryVector("b", allocator);
                LargeListVector a = new LargeListVector(Field.nullable("a", ArrowType.LargeList.INSTANCE),
                        allocator, null)) {
            s.setSafe(0, "h\u00e9llo \uD83D\uDE00".getBytes(StandardCharsets.UTF_8));
            s.setNull(1);
            b.setSafe(0, new byte[] {0, -1, 7});
            b.setSafe(1, new byte[0]);
            a.addOrGetVector(FieldType.nullable(new ArrowType.Int(64, true)));
            UnionLargeListWriter writer = a.getWriter();
            writer.setPosition(0);
            writer.startList();
            writer.bigInt().writeBigInt(Long.MIN_VALUE);
            writer.bigInt().writeNull();
            writer.endList();
            writer.setPosition(1);
            writer.startList();
            writer.endList();
            writer.setValueCount(2);
            s.setValueCount(2);
            b.setValueCount(2);
            try (VectorSchemaRoot batch = VectorSchemaRoot.of(s, b, a)) {
                batch.setRowCount(2);
                ArrowRowView view = new ArrowRowView(TYPE);
                view.bind(batch);
                RowData first = view.row(0);
                assertThat(first.getString(0).toString()).isEqualTo("h\u00e9llo \uD83D\uDE00");
                assertThat(first.getBinary(1)).containsExactly(0, -1, 7);
                ArrayData longs = first.getArray(2);
                assertThat(longs.size()).isEqualTo(2);
                assertThat(longs.getLong(0)).isEqualTo(Long.MIN_VALUE);
                assertThat(longs.isNullAt(1)).isTrue();
                RowData second = view.row(1);
                assertThat(second.isNullAt(0)).isTrue();
                assertThat(second.getBinary(1)).isEmpty();
                assertThat(second.getArray(2).size()).isZero();
            }
        }
    }

    @Test
    void valuesReadFromTheViewOutliveTheBatchButTheViewDoesNot() {
        StringData kept;
        byte[] keptBytes;
        ArrowRowView view = new ArrowRowView(TYPE);
        RowData reused;
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(TYPE, allocator)) {
            writer.write(row(str("abc"), new byte[] {1, 2}, array(1L)));
            writer.write(row(str("def"), null, null));
            view.bind(writer.finish());
            reused = view.row(0);
            kept = reused.getString(0);
            keptBytes = reused.getBinary(1);
            assertThat(view.row(1)).as("one reused row object").isSameAs(reused);
            assertThat(reused.getString(0).toString()).isEqualTo("def");
            assertThat(view.row(1, RowKind.DELETE).getRowKind()).isEqualTo(RowKind.DELETE);
            assertThat(view.row(0).getRowKind()).isEqualTo(RowKind.INSERT);
        }
        assertThat(kept.toString()).isEqualTo("abc");
        assertThat(keptBytes).containsExactly(1, 2);
        // Arrow's bounds checks (on by default) refuse to read a freed buffer: an error, never garbage.
        assertThatThrownBy(() -> reused.getLong(0)).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> reused.getString(0)).isInstanceOf(RuntimeException.class);
    }

    @Test
    void aBatchOfAnotherLayoutIsRejectedNamingTheColumn() {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(
                        RowTypes.parse("ROW<s STRING, b INT, a ARRAY<BIGINT>>"), allocator)) {
            VectorSchemaRoot batch = writer.finish();
            assertThatThrownBy(() -> new ArrowRowView(TYPE).bind(batch))
                    .isInstanceOf(BatchLayoutException.class)
                    .hasMessageContaining("b");
        }
    }

    @Test
    void aProjectedViewReadsTheChosenColumnsInItsOrder() {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(TYPE, allocator)) {
            writer.write(row(str("abc"), new byte[] {1, 2}, array(7L)));
            ArrowRowView view = new ArrowRowView(TYPE, new int[] {2, 0});
            assertThat(view.viewType().getFieldNames()).containsExactly("a", "s");
            view.bind(writer.finish());
            RowData projected = view.row(0);
            assertThat(projected.getArity()).isEqualTo(2);
            assertThat(projected.getArray(0).getLong(0)).isEqualTo(7L);
            assertThat(projected.getString(1).toString()).isEqualTo("abc");
        }
    }

    @Test
    void anOutOfRangeRowIsRefused() {
        ArrowRowView view = new ArrowRowView(TYPE);
        assertThatThrownBy(() -> view.row(0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(List.of(view.rowType())).containsExactly(TYPE);
    }
}
