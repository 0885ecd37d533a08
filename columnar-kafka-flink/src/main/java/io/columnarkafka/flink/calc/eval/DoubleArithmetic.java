package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Op;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * {@code + - * / %} and unary minus with a DOUBLE result, as Flink's generated Java: integer operands are
 * widened to double and the IEEE operation runs as is (no error on division by zero; {@code %} is Java's
 * floating remainder).
 */
final class DoubleArithmetic extends Node {
    private final Op op;
    private final Node left;
    private final Node right;

    /** {@code right} is null for UNARY_MINUS. */
    DoubleArithmetic(Op op, Node left, Node right, LogicalType type) {
        super(type);
        this.op = op;
        this.left = left;
        this.right = right;
    }

    /** Row {@code i} of a LONG or DOUBLE column, as a double. */
    static double valueAt(Column c, int i) {
        return c.repr == Repr.DOUBLE ? c.doubles[i] : (double) c.longs[i];
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        left.evaluate(batch, sel, n);
        Column a = left.out;
        boolean[] nulls = out.nulls;
        double[] result = out.doubles;
        if (right == null) {
            for (int k = 0; k < n; k++) {
                int i = sel[k];
                nulls[i] = a.nulls[i];
                result[i] = -valueAt(a, i);
            }
            return;
        }
        right.evaluate(batch, sel, n);
        Column b = right.out;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            boolean isNull = a.nulls[i] || b.nulls[i];
            nulls[i] = isNull;
            if (isNull) {
                continue;
            }
            double x = valueAt(a, i);
            double y = valueAt(b, i);
            switch (op) {
                case PLUS:
                    result[i] = x + y;
                    break;
                case MINUS:
                    result[i] = x - y;
                    break;
                case TIMES:
                    result[i] = x * y;
                    break;
                case DIVIDE:
                    result[i] = x / y;
                    break;
                case MOD:
                    result[i] = x % y;
                    break;
                default:
                    throw new IllegalStateException(op.name());
            }
        }
    }
}
