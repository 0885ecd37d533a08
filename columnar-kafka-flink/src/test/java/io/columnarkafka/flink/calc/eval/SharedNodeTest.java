package io.columnarkafka.flink.calc.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import io.columnarkafka.format.RowTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.junit.jupiter.api.Test;

/**
 * Common sub-expressions: equal calls compile to one node, and a shared node computes each row of a batch once, only
 * where a reader asks for it. The values are compared with Flink's in {@code
 * CalcParityProperties#sharedSubexpressionsGiveFlinksRows}.
 */
class SharedNodeTest {
    private static final RowType INPUT = RowTypes.parse("ROW<i INT, j INT>");
    private static final LogicalType INT = new IntType();

    @Test
    void aSharedNodeComputesEachRowOnceAndOnlyTheRowsItIsAskedFor() {
        try (BufferAllocator allocator = new RootAllocator(); IntVector column = new IntVector("x", allocator)) {
            column.allocateNew(10);
            column.setValueCount(10);
            VectorSchemaRoot root = VectorSchemaRoot.of(column);
            InputBatch batch = new InputBatch();
            CountingNode node = new CountingNode(10);
            node.share();

            batch.bind(root);
            node.evaluate(batch, new int[] {1, 3, 5}, 3);
            node.evaluate(batch, new int[] {3, 4, 5, 6}, 4);
            node.evaluate(batch, new int[] {1, 6}, 2);
            assertThat(node.computed).containsExactly(0, 1, 0, 1, 1, 1, 1, 0, 0, 0);
            assertThat(node.out.longs[4]).isEqualTo(node.valueOf(4, batch));

            batch.bind(root); // the next batch: no row is held for it
            node.evaluate(batch, new int[] {1, 2}, 2);
            node.evaluate(batch, new int[] {2}, 1);
            assertThat(node.computed).containsExactly(0, 2, 1, 1, 1, 1, 1, 0, 0, 0);
            assertThat(node.out.longs[1]).isEqualTo(node.valueOf(1, batch));
        }
    }

    @Test
    void aNodeOneExpressionReadsComputesWhatItIsAskedFor() {
        try (BufferAllocator allocator = new RootAllocator(); IntVector column = new IntVector("x", allocator)) {
            column.allocateNew(4);
            column.setValueCount(4);
            InputBatch batch = new InputBatch();
            batch.bind(VectorSchemaRoot.of(column));
            CountingNode node = new CountingNode(4);
            node.evaluate(batch, new int[] {0, 1}, 2);
            node.evaluate(batch, new int[] {1, 2}, 2);
            assertThat(node.computed).containsExactly(1, 2, 1, 0);
        }
    }

    @Test
    void equalCallsCompileToOneNodeThatEveryReaderReads() throws Exception {
        Compiler compiler = new Compiler(INPUT);
        List<ColumnLoad> firstReads = new ArrayList<>();
        Node quotient = compiler.compileReading(quotient(), firstReads);
        List<ColumnLoad> secondReads = new ArrayList<>();
        Node again = compiler.compileReading(quotient(), secondReads);
        assertThat(again).isSameAs(quotient);
        assertThat(secondReads).as("the loads a later reader of the shared call reads").isEqualTo(firstReads)
                .hasSize(2);

        Node asBigint = compiler.compileReading(cast(new BigIntType()), new ArrayList<>());
        Node asSmallint = compiler.compileReading(cast(new SmallIntType()), new ArrayList<>());
        assertThat(asSmallint).as("the same operation on the same operands, typed otherwise").isNotSameAs(asBigint);
    }

    /** A fresh {@code i / j}: equal to every other, the same instance as none. */
    private static Expr quotient() {
        return Expr.Call.of(Op.DIVIDE, INT, new Expr.Column(0, INT), new Expr.Column(1, INT));
    }

    private static Expr cast(LogicalType type) {
        return Expr.Call.of(Op.CAST, type, new Expr.Column(0, INT));
    }

    /** Counts how often it computes each row; a row's value is its position and the batch's generation. */
    private static final class CountingNode extends Node {
        final int[] computed;

        CountingNode(int rows) {
            super(new BigIntType());
            computed = new int[rows];
        }

        long valueOf(int row, InputBatch batch) {
            return row + 1_000 * batch.generation();
        }

        @Override
        void compute(InputBatch batch, int[] sel, int n) {
            for (int k = 0; k < n; k++) {
                computed[sel[k]]++;
                out.nulls[sel[k]] = false;
                out.longs[sel[k]] = valueOf(sel[k], batch);
            }
        }
    }
}
