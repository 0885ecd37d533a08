package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Op;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * {@code = <> < <= > >=}, null when either side is null, as Flink's generated code compares:
 * <ul>
 *   <li>integers, BOOLEAN, DATE: Java's {@code long} comparison;
 *   <li>DOUBLE (either side; an integer side widened): Java's primitive {@code double} operators, so NaN
 *       is unequal to everything and {@code -0.0 = 0.0};
 *   <li>DECIMAL (an integer side as scale 0): by value, both sides brought to the larger scale (a literal side once,
 *       not per row);
 *   <li>strings: the UTF-8 bytes, unsigned, then the length ({@code BinaryStringData#compareTo});
 *   <li>TIMESTAMP: milliseconds, then nanos of the millisecond.
 * </ul>
 */
final class Comparison extends Node {
    enum Domain { LONG, DOUBLE, DECIMAL, STRING, TIMESTAMP }

    private final Op op;
    private final Domain domain;
    private final Node left;
    private final Node right;
    private final int leftShift;
    private final int rightShift;
    private final DecimalScaler scaler = new DecimalScaler();
    /** For DECIMAL with a non-null literal on the right (left): its value at the common scale; null otherwise. */
    private final DecimalScaler rightConstant;
    private final DecimalScaler leftConstant;

    /** For DECIMAL, {@code leftShift}/{@code rightShift} bring both sides to a common scale. */
    Comparison(Op op, Domain domain, Node left, Node right, int leftShift, int rightShift, LogicalType type) {
        super(type);
        this.op = op;
        this.domain = domain;
        this.left = left;
        this.right = right;
        this.leftShift = leftShift;
        this.rightShift = rightShift;
        this.rightConstant = domain == Domain.DECIMAL ? scaledLiteral(right, rightShift) : null;
        this.leftConstant = domain == Domain.DECIMAL && rightConstant == null ? scaledLiteral(left, leftShift) : null;
    }

    /** The value of {@code side} at the common scale if it is a non-null literal, else null. */
    private static DecimalScaler scaledLiteral(Node side, int shift) {
        if (!(side instanceof LiteralNode literal) || literal.isNull()) {
            return null;
        }
        DecimalScaler value = new DecimalScaler();
        value.high = literal.highValue();
        value.low = literal.longValue();
        return value.scale(shift);
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        left.evaluate(batch, sel, n);
        right.evaluate(batch, sel, n);
        Column a = left.out;
        Column b = right.out;
        boolean[] nulls = out.nulls;
        long[] result = out.longs;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            boolean isNull = a.nulls[i] || b.nulls[i];
            nulls[i] = isNull;
            if (!isNull) {
                result[i] = test(a, b, i) ? 1 : 0;
            }
        }
    }

    private boolean test(Column a, Column b, int i) {
        if (domain == Domain.DOUBLE) {
            double x = DoubleArithmetic.valueAt(a, i);
            double y = DoubleArithmetic.valueAt(b, i);
            switch (op) {
                case EQUALS:
                    return x == y;
                case NOT_EQUALS:
                    return x != y;
                case LESS_THAN:
                    return x < y;
                case LESS_THAN_OR_EQUAL:
                    return x <= y;
                case GREATER_THAN:
                    return x > y;
                case GREATER_THAN_OR_EQUAL:
                    return x >= y;
                default:
                    throw new IllegalStateException(op.name());
            }
        }
        int c = compareAt(a, b, i);
        switch (op) {
            case EQUALS:
                return c == 0;
            case NOT_EQUALS:
                return c != 0;
            case LESS_THAN:
                return c < 0;
            case LESS_THAN_OR_EQUAL:
                return c <= 0;
            case GREATER_THAN:
                return c > 0;
            case GREATER_THAN_OR_EQUAL:
                return c >= 0;
            default:
                throw new IllegalStateException(op.name());
        }
    }

    private int compareAt(Column a, Column b, int i) {
        switch (domain) {
            case LONG:
                return Long.compare(a.longs[i], b.longs[i]);
            case TIMESTAMP:
                int millis = Long.compare(a.longs[i], b.longs[i]);
                return millis != 0 ? millis : Integer.compare(a.nanos[i], b.nanos[i]);
            case STRING:
                return Utf8.compare(a.bytes, a.starts[i], a.lengths[i], b.bytes, b.starts[i], b.lengths[i]);
            case DECIMAL:
                if (rightConstant != null) {
                    scaler.load(a, i).scale(leftShift);
                    return Decimal128.compare(scaler.high, scaler.low, rightConstant.high, rightConstant.low);
                }
                if (leftConstant != null) {
                    scaler.load(b, i).scale(rightShift);
                    return Decimal128.compare(leftConstant.high, leftConstant.low, scaler.high, scaler.low);
                }
                scaler.load(b, i).scale(rightShift);
                long bh = scaler.high;
                long bl = scaler.low;
                scaler.load(a, i).scale(leftShift);
                return Decimal128.compare(scaler.high, scaler.low, bh, bl);
            default:
                throw new IllegalStateException(domain.name());
        }
    }
}
