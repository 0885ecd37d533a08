package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/**
 * One compiled expression: evaluates itself for the selected rows of the current batch into its own
 * {@link Column}. Dispatch is one virtual call per node per batch; the loops inside are monomorphic.
 * A node evaluates its operands only for the rows Flink's generated code would evaluate them for (AND,
 * OR and CASE narrow the selection), so an error Flink never raises is never raised here either.
 */
abstract class Node {
    final LogicalType type;
    final Column out;

    Node(LogicalType type) {
        this.type = type;
        this.out = new Column(Repr.of(type));
    }

    /** Evaluates rows {@code sel[0..n)} of {@code batch}; {@link #out} is sized for the batch. */
    final void evaluate(InputBatch batch, int[] sel, int n) {
        if (holdsBatch(batch)) {
            return;
        }
        out.ensure(batch.rowCount());
        if (out.repr == Repr.STRING) {
            out.used = 0;
        }
        compute(batch, sel, n);
    }

    abstract void compute(InputBatch batch, int[] sel, int n);

    /** True when the node already holds its values for every row of this batch any caller may ask for. */
    boolean holdsBatch(InputBatch batch) {
        return false;
    }
}
