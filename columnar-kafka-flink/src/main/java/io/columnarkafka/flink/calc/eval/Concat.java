package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/** CONCAT of two or more strings: the bytes one after the other; null when any operand is null. */
final class Concat extends Node {
    private final Node[] operands;

    Concat(Node[] operands, LogicalType type) {
        super(type);
        this.operands = operands;
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        for (Node operand : operands) {
            operand.evaluate(batch, sel, n);
        }
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            int length = 0;
            boolean isNull = false;
            for (Node operand : operands) {
                isNull |= operand.out.nulls[i];
                length += isNull ? 0 : operand.out.lengths[i];
            }
            if (isNull) {
                out.nulls[i] = true;
                continue;
            }
            int at = out.reserve(length);
            int to = at;
            for (Node operand : operands) {
                Column c = operand.out;
                System.arraycopy(c.bytes, c.starts[i], out.bytes, to, c.lengths[i]);
                to += c.lengths[i];
            }
            out.setString(i, at, length);
        }
    }
}
