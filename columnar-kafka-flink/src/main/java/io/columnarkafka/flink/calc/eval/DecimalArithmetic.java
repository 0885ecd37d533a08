package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Op;
import org.apache.flink.table.types.logical.DecimalType;

/**
 * {@code + - *} and unary minus with a DECIMAL result, as Flink's {@code DecimalDataUtils}: the exact
 * result is set to the result scale and is null when it needs more digits than the result precision.
 * The compiler admits only shapes where setting the scale never rounds (the result scale is at least the
 * exact result's scale) and every intermediate fits 128 bits, so the exact value is computed in two longs
 * with no {@code BigDecimal}. Integer operands have scale 0.
 */
final class DecimalArithmetic extends Node {
    private final Op op;
    private final Node left;
    private final Node right;
    private final int precision;
    /** Powers of ten that bring the left and right unscaled values to the result scale (+ and -). */
    private final int leftShift;
    private final int rightShift;
    /** Power of ten that brings the product's scale to the result scale (*). */
    private final int productShift;

    private final DecimalScaler r = new DecimalScaler();

    DecimalArithmetic(Op op, Node left, int leftScale, Node right, int rightScale, DecimalType type) {
        super(type);
        this.op = op;
        this.left = left;
        this.right = right;
        this.precision = type.getPrecision();
        this.leftShift = type.getScale() - leftScale;
        this.rightShift = type.getScale() - rightScale;
        this.productShift = type.getScale() - leftScale - rightScale;
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        left.evaluate(batch, sel, n);
        Column a = left.out;
        boolean[] nulls = out.nulls;
        long[] lows = out.longs;
        long[] highs = out.highs;
        if (right != null) {
            right.evaluate(batch, sel, n);
        }
        Column b = right == null ? null : right.out;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (a.nulls[i] || (b != null && b.nulls[i])) {
                nulls[i] = true;
                continue;
            }
            switch (op) {
                case UNARY_MINUS:
                    r.load(a, i);
                    long negatedHigh = Decimal128.negateHigh(r.high, r.low);
                    r.low = -r.low;
                    r.high = negatedHigh;
                    break;
                case PLUS:
                case MINUS:
                    r.load(b, i).scale(rightShift);
                    long bh = op == Op.MINUS ? Decimal128.negateHigh(r.high, r.low) : r.high;
                    long bl = op == Op.MINUS ? -r.low : r.low;
                    r.load(a, i).scale(leftShift);
                    long sum = r.low + bl;
                    r.high = Decimal128.addHigh(r.high, r.low, bh, bl);
                    r.low = sum;
                    break;
                case TIMES:
                    // both operands fit a long (checked by the compiler): one 64 x 64 -> 128-bit product
                    long x = a.longs[i];
                    long y = b.longs[i];
                    r.low = x * y;
                    r.high = Math.multiplyHigh(x, y);
                    r.scale(productShift);
                    break;
                default:
                    throw new IllegalStateException(op.name());
            }
            nulls[i] = !Decimal128.fits(r.high, r.low, precision);
            lows[i] = r.low;
            highs[i] = r.high;
        }
    }
}
