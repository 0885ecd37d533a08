package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/** A node of one operand: the operand is evaluated for the same rows first, then {@link #computeRows}. */
abstract class UnaryNode extends Node {
    final Node operand;

    UnaryNode(Node operand, LogicalType type) {
        super(type);
        this.operand = operand;
    }

    @Override
    final void compute(InputBatch batch, int[] sel, int n) {
        operand.evaluate(batch, sel, n);
        computeRows(operand.out, sel, n);
    }

    /** Computes rows {@code sel[0..n)} from the operand's values {@code in}. */
    abstract void computeRows(Column in, int[] sel, int n);
}
