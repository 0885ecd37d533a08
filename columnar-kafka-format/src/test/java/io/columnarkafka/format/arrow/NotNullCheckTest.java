package io.columnarkafka.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.RowTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowLayout#checkNotNull}: a null in a top-level NOT NULL column is named by column and row; among a
 * selection's rows only.
 */
class NotNullCheckTest {
    private static final RowType ROW = RowTypes.parse("ROW<id BIGINT NOT NULL, s STRING>");

    @Test
    void namesTheColumnAndTheFirstNullRowOfANotNullColumn() {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(ROW), allocator)) {
            root.allocateNew();
            BigIntVector id = (BigIntVector) root.getVector("id");
            VarCharVector s = (VarCharVector) root.getVector("s");
            for (int i = 0; i < 100; i++) {
                id.setSafe(i, i);
                s.setNull(i); // nulls in a nullable column are fine
            }
            root.setRowCount(100);
            assertThatCode(() -> ArrowLayout.checkNotNull(ROW, root)).doesNotThrowAnyException();

            id.setNull(73);
            id.setNull(90);
            assertThatThrownBy(() -> ArrowLayout.checkNotNull(ROW, root))
                    .isInstanceOfSatisfying(EncodeException.class, e -> {
                        assertThat(e.column()).isEqualTo("id");
                        assertThat(e.row()).isEqualTo(73);
                    })
                    .hasMessageContaining("BIGINT NOT NULL");
        }
    }

    /** A filter's selection: a null in a row it dropped is not written, so not an error; one it kept is. */
    @Test
    void checksTheSelectedRowsOnly() {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(ROW), allocator)) {
            root.allocateNew();
            BigIntVector id = (BigIntVector) root.getVector("id");
            for (int i = 0; i < 10; i++) {
                id.setSafe(i, i);
            }
            id.setNull(3);
            id.setNull(8);
            root.setRowCount(10);
            int[] selection = {0, 2, 4, 8, 9};
            assertThatCode(() -> ArrowLayout.checkNotNull(ROW, root, selection, 3)).doesNotThrowAnyException();
            assertThatThrownBy(() -> ArrowLayout.checkNotNull(ROW, root, selection, 4))
                    .isInstanceOfSatisfying(EncodeException.class, e -> assertThat(e.row()).isEqualTo(8));
        }
    }
}
