package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Op;
import org.apache.flink.table.types.logical.LogicalType;

/** NOT (null stays null) and the never-null tests IS [NOT] NULL, IS [NOT] TRUE, IS [NOT] FALSE. */
final class Predicate extends UnaryNode {
    private final Op op;

    Predicate(Op op, Node operand, LogicalType type) {
        super(operand, type);
        this.op = op;
    }

    @Override
    void computeRows(Column operandValues, int[] sel, int n) {
        boolean[] inNull = operandValues.nulls;
        // IS [NOT] NULL reads nothing but the nulls: its operand may be of any type
        long[] in = op == Op.IS_NULL || op == Op.IS_NOT_NULL ? null : operandValues.longs;
        boolean[] nulls = out.nulls;
        long[] result = out.longs;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            boolean isNull = inNull[i];
            boolean isTrue = in != null && !isNull && in[i] != 0;
            boolean isFalse = in != null && !isNull && in[i] == 0;
            boolean value;
            switch (op) {
                case NOT:
                    nulls[i] = isNull;
                    result[i] = isFalse ? 1 : 0;
                    continue;
                case IS_NULL:
                    value = isNull;
                    break;
                case IS_NOT_NULL:
                    value = !isNull;
                    break;
                case IS_TRUE:
                    value = isTrue;
                    break;
                case IS_NOT_TRUE:
                    value = !isTrue;
                    break;
                case IS_FALSE:
                    value = isFalse;
                    break;
                case IS_NOT_FALSE:
                    value = !isFalse;
                    break;
                default:
                    throw new IllegalStateException(op.name());
            }
            nulls[i] = false;
            result[i] = value ? 1 : 0;
        }
    }
}
