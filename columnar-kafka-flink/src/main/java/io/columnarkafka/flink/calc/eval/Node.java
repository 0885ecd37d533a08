package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/**
 * One compiled expression: evaluates itself for the selected rows of the current batch into its own
 * {@link Column}. Dispatch is one virtual call per node per batch; the loops inside are monomorphic.
 * A node evaluates its operands only for the rows Flink's generated code would evaluate them for (AND,
 * OR and CASE narrow the selection), so an error Flink never raises is never raised here either. A node that
 * several expressions read (a common sub-expression) computes each row once per batch ({@link HeldRows}).
 */
abstract class Node {
    final LogicalType type;
    final Column out;
    /** Set when more than one expression reads this node ({@link #share}); null otherwise. */
    private HeldRows held;

    Node(LogicalType type) {
        this.type = type;
        this.out = new Column(Repr.of(type));
    }

    /** More than one expression reads this node: from now on it computes each row of a batch at most once. */
    final void share() {
        if (held == null) {
            held = new HeldRows();
        }
    }

    /** True when more than one expression reads this node. */
    final boolean isShared() {
        return held != null;
    }

    /** Evaluates rows {@code sel[0..n)} of {@code batch}; {@link #out} is sized for the batch. */
    final void evaluate(InputBatch batch, int[] sel, int n) {
        if (holdsBatch(batch)) {
            return;
        }
        if (held == null) {
            startBatch(batch);
            compute(batch, sel, n);
            return;
        }
        // a shared node keeps the rows earlier readers of this batch asked for, its strings' bytes among them
        if (held.isNew(batch)) {
            startBatch(batch);
        }
        Selection missing = held.missing(batch, sel, n);
        if (missing.count > 0) {
            compute(batch, missing.rows, missing.count);
            held.hold(missing);
        }
    }

    private void startBatch(InputBatch batch) {
        out.ensure(batch.rowCount());
        if (out.repr == Repr.STRING) {
            out.used = 0;
        }
    }

    abstract void compute(InputBatch batch, int[] sel, int n);

    /** True when the node already holds its values for every row of this batch any caller may ask for. */
    boolean holdsBatch(InputBatch batch) {
        return false;
    }
}
