package io.columnarkafka.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.RowTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A vector tree comes back only when its owner closes the root, and is reused only as it was built. */
class RootPoolTest {
    private static final RowType ROW = RowTypes.parse("ROW<a BIGINT, s STRING, r ROW<x INT, y STRING>>");
    private final BufferAllocator allocator = new RootAllocator();
    private final RootPool pool = new RootPool(ArrowLayout.schema(ROW));

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void aClosedRootsTreeIsReusedWithNoMemoryKept() {
        VectorSchemaRoot first = filled(pool.root(allocator), 7L);
        BigIntVector firstA = (BigIntVector) first.getVector(0);
        first.close();
        assertThat(allocator.getAllocatedMemory()).as("closing frees the buffers").isZero();
        VectorSchemaRoot second = pool.root(allocator);
        assertThat(second).as("a root object of its own").isNotSameAs(first);
        assertThat(second.getVector(0)).as("the same vector objects").isSameAs(firstA);
        assertThat(second.getSchema()).isEqualTo(ArrowLayout.schema(ROW));
        assertThat(((StructVector) second.getVector(2)).getChildrenFromFields()).hasSize(2);
        filled(second, 9L);
        assertThat(((BigIntVector) second.getVector(0)).get(0)).isEqualTo(9L);
        second.close();
    }

    @Test
    void aRootStillOwnedIsNeverLentAgain() {
        VectorSchemaRoot kept = filled(pool.root(allocator), 1L);
        VectorSchemaRoot next = filled(pool.root(allocator), 2L);
        assertThat(next.getVector(0)).isNotSameAs(kept.getVector(0));
        assertThat(((BigIntVector) kept.getVector(0)).get(0)).isEqualTo(1L);
        kept.close();
        next.close();
    }

    @Test
    void closingAStaleRootAgainLeavesTheBatchThatReusesItsTree() {
        VectorSchemaRoot stale = filled(pool.root(allocator), 1L);
        stale.close();
        VectorSchemaRoot reusing = filled(pool.root(allocator), 2L);
        assertThat(reusing.getVector(0)).isSameAs(stale.getVector(0));
        stale.close();
        assertThat(reusing.getRowCount()).isEqualTo(1);
        assertThat(((BigIntVector) reusing.getVector(0)).get(0)).isEqualTo(2L);
        reusing.close();
    }

    /** A nested vector closed on its own drops its children: that tree is not the one built, so it is not reused. */
    @Test
    void aTreeChangedByItsOwnerIsNotReused() {
        VectorSchemaRoot changed = filled(pool.root(allocator), 1L);
        changed.getVector(2).close();
        changed.close();
        VectorSchemaRoot next = pool.root(allocator);
        assertThat(next.getVector(0)).isNotSameAs(changed.getVector(0));
        assertThat(((StructVector) next.getVector(2)).getChildrenFromFields()).hasSize(2);
        next.close();
    }

    @Test
    void aTreeOfAnotherAllocatorIsNotReused() {
        VectorSchemaRoot first = filled(pool.root(allocator), 1L);
        first.close();
        try (BufferAllocator other = new RootAllocator()) {
            VectorSchemaRoot inOther = filled(pool.root(other), 2L);
            assertThat(inOther.getVector(0)).isNotSameAs(first.getVector(0));
            assertThat(other.getAllocatedMemory()).isPositive();
            inOther.close();
        }
    }

    private static VectorSchemaRoot filled(VectorSchemaRoot root, long a) {
        root.allocateNew();
        ((BigIntVector) root.getVector(0)).setSafe(0, a);
        root.setRowCount(1);
        return root;
    }
}
