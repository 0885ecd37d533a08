package io.columnarkafka.format.arrow;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.RowTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** The remembered schema must never let a batch of another layout through. */
class SchemaCheckTest {
    private static final RowType ROW = RowTypes.parse("ROW<a BIGINT, s STRING, r ROW<x INT>>");
    private static final RowType OTHER = RowTypes.parse("ROW<a BIGINT, s STRING, r ROW<x BIGINT>>");

    @Test
    void rejectsAnotherLayoutAfterOneHasPassed() {
        SchemaCheck check = new SchemaCheck(ROW);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot first = VectorSchemaRoot.create(ArrowLayout.schema(ROW), allocator);
                VectorSchemaRoot equal = VectorSchemaRoot.create(ArrowLayout.schema(ROW), allocator);
                VectorSchemaRoot other = VectorSchemaRoot.create(ArrowLayout.schema(OTHER), allocator)) {
            check.check(first);
            check.check(first);
            check.check(equal);
            assertThatThrownBy(() -> check.check(other))
                    .isInstanceOf(BatchLayoutException.class)
                    .hasMessageContaining("r.x");
            // A failed batch is not remembered: it fails again, and the good ones still pass.
            assertThatThrownBy(() -> check.check(other)).isInstanceOf(BatchLayoutException.class);
            assertThatCode(() -> check.check(first)).doesNotThrowAnyException();
            assertThatCode(() -> check.check(equal)).doesNotThrowAnyException();
        }
    }
}
