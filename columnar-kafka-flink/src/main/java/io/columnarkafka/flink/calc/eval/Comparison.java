package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Op;
import java.util.Arrays;
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

    private final Domain domain;
    /** The operator's result for each order of the sides: less, equal, greater, unordered (a NaN side). */
    private final boolean whenLess;
    private final boolean whenEqual;
    private final boolean whenGreater;
    private final boolean whenUnordered;
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
        this.domain = domain;
        boolean notEquals = op == Op.NOT_EQUALS;
        this.whenLess = notEquals || op == Op.LESS_THAN || op == Op.LESS_THAN_OR_EQUAL;
        this.whenEqual = op == Op.EQUALS || op == Op.LESS_THAN_OR_EQUAL || op == Op.GREATER_THAN_OR_EQUAL;
        this.whenGreater = notEquals || op == Op.GREATER_THAN || op == Op.GREATER_THAN_OR_EQUAL;
        this.whenUnordered = notEquals;
        if (!whenLess && !whenEqual && !whenGreater) {
            throw new IllegalArgumentException(op.name() + " is no comparison");
        }
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
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            nulls[i] = a.nulls[i] || b.nulls[i];
        }
        // a loop per domain, the operator an outcome per order: no switch per row
        switch (domain) {
            case LONG:
                compareLongs(a, b, sel, n);
                break;
            case DOUBLE:
                compareDoubles(a, b, sel, n);
                break;
            case DECIMAL:
                compareDecimals(a, b, sel, n);
                break;
            case STRING:
                if (whenLess == whenGreater) {
                    compareStringsForEquality(a, b, sel, n);
                } else {
                    compareOthers(a, b, sel, n);
                }
                break;
            default:
                compareOthers(a, b, sel, n);
                break;
        }
    }

    private void compareLongs(Column a, Column b, int[] sel, int n) {
        boolean[] nulls = out.nulls;
        long[] result = out.longs;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (!nulls[i]) {
                result[i] = holds(Long.compare(a.longs[i], b.longs[i])) ? 1 : 0;
            }
        }
    }

    /** Java's primitive operators: a NaN side is unordered, {@code -0.0} equals {@code 0.0}. */
    private void compareDoubles(Column a, Column b, int[] sel, int n) {
        boolean[] nulls = out.nulls;
        long[] result = out.longs;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (!nulls[i]) {
                double x = DoubleArithmetic.valueAt(a, i);
                double y = DoubleArithmetic.valueAt(b, i);
                boolean holds = x < y ? whenLess : x > y ? whenGreater : x == y ? whenEqual : whenUnordered;
                result[i] = holds ? 1 : 0;
            }
        }
    }

    private void compareDecimals(Column a, Column b, int[] sel, int n) {
        boolean[] nulls = out.nulls;
        long[] result = out.longs;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (!nulls[i]) {
                result[i] = holds(compareDecimalsAt(a, b, i)) ? 1 : 0;
            }
        }
    }

    private int compareDecimalsAt(Column a, Column b, int i) {
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
    }

    /** {@code =} and {@code <>}: equal strings are equal bytes, lengths first, which tell most unequal ones apart. */
    private void compareStringsForEquality(Column a, Column b, int[] sel, int n) {
        boolean[] nulls = out.nulls;
        long[] result = out.longs;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (!nulls[i]) {
                boolean equal = Arrays.equals(a.bytes, a.starts[i], a.starts[i] + a.lengths[i],
                        b.bytes, b.starts[i], b.starts[i] + b.lengths[i]);
                result[i] = (equal ? whenEqual : whenLess) ? 1 : 0;
            }
        }
    }

    /** STRING and TIMESTAMP. */
    private void compareOthers(Column a, Column b, int[] sel, int n) {
        boolean[] nulls = out.nulls;
        long[] result = out.longs;
        boolean strings = domain == Domain.STRING;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (!nulls[i]) {
                int c = strings
                        ? Utf8.compare(a.bytes, a.starts[i], a.lengths[i], b.bytes, b.starts[i], b.lengths[i])
                        : compareTimestampsAt(a, b, i);
                result[i] = holds(c) ? 1 : 0;
            }
        }
    }

    /** Milliseconds, then nanos of the millisecond. */
    private static int compareTimestampsAt(Column a, Column b, int i) {
        int millis = Long.compare(a.longs[i], b.longs[i]);
        return millis != 0 ? millis : Integer.compare(a.nanos[i], b.nanos[i]);
    }

    /** Whether an order {@code c} (negative: less, zero: equal, positive: greater) satisfies the operator. */
    private boolean holds(int c) {
        return c < 0 ? whenLess : c == 0 ? whenEqual : whenGreater;
    }
}
