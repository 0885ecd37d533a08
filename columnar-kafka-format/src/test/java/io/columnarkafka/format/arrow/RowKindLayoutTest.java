package io.columnarkafka.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.RowTypes;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * {@link RowKindLayout}: a changelog batch's rows are its columns before the row-kind column, each row's kind read from
 * that column ({@code RowKind.toByteValue()}); an insert-only batch's rows are all its columns, their kinds untouched.
 */
class RowKindLayoutTest {
    @Test
    void aChangelogBatchsRowsLeaveTheKindColumnOutAndTakeTheirKindsFromIt() {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = changelogBatch(allocator)) {
            RowKindLayout layout = RowKindLayout.of(2, true);

            VectorSchemaRoot rows = layout.rows(batch);
            assertThat(rows.getSchema().getFields()).extracting(Field::getName).containsExactly("id", "v");
            assertThat(rows.getRowCount()).isEqualTo(4);
            TinyIntVector kinds = layout.kinds(batch);
            assertThat(kinds.getName()).isEqualTo(RowKindVector.SCAN_COLUMN);

            RowKind[] expected = {RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE};
            for (int row = 0; row < expected.length; row++) {
                RowData withKind = RowKindLayout.withKind(GenericRowData.of(1L, 2L), kinds, row);
                assertThat(withKind.getRowKind()).as("row %d", row).isEqualTo(expected[row]);
            }
        }
    }

    @Test
    void anInsertOnlyBatchsRowsAreAllItsColumnsAndKeepTheirKinds() {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = VectorSchemaRoot.create(
                        ArrowLayout.schema(RowTypes.parse("ROW<id BIGINT, v BIGINT>")), allocator)) {
            RowKindLayout layout = RowKindLayout.of(2, false);

            assertThat(layout.rows(batch)).isSameAs(batch);
            assertThat(layout.kinds(batch)).isNull();
            GenericRowData row = GenericRowData.ofKind(RowKind.DELETE, 1L, 2L);
            assertThat(RowKindLayout.withKind(row, null, 0).getRowKind()).isEqualTo(RowKind.DELETE);
        }
    }

    @Test
    void aNullKindNamesTheColumnAndTheRow() {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = changelogBatch(allocator)) {
            TinyIntVector kinds = RowKindLayout.of(2, true).kinds(batch);
            kinds.setNull(2);

            assertThatThrownBy(() -> RowKindLayout.withKind(GenericRowData.of(1L, 2L), kinds, 2))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(RowKindVector.SCAN_COLUMN)
                    .hasMessageContaining("row 2");
        }
    }

    /** Four rows of (id, v) and their kinds +I, -U, +U, -D in the column after them. */
    private static VectorSchemaRoot changelogBatch(BufferAllocator allocator) {
        BigIntVector id = new BigIntVector("id", allocator);
        BigIntVector v = new BigIntVector("v", allocator);
        TinyIntVector kinds = new TinyIntVector(
                Field.nullable(RowKindVector.SCAN_COLUMN, new ArrowType.Int(8, true)), allocator);
        RowKind[] rowKinds = {RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE};
        for (int row = 0; row < rowKinds.length; row++) {
            id.setSafe(row, row);
            v.setSafe(row, 10L * row);
            RowKindVector.set(kinds, row, rowKinds[row]);
        }
        List<FieldVector> vectors = List.of(id, v, kinds);
        vectors.forEach(vector -> vector.setValueCount(rowKinds.length));
        return new VectorSchemaRoot(vectors);
    }
}
