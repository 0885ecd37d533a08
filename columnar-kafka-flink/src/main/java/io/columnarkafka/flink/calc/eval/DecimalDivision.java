package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Op;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import org.apache.flink.table.types.logical.DecimalType;

/**
 * {@code /} and {@code %} with a DECIMAL result, as Flink's {@code DecimalDataUtils.divide} and {@code mod}:
 * an integer operand is first cast to the result type (the compiler admits only integers that fit it); the
 * quotient is rounded to 38 significant digits (HALF_UP), the remainder is {@code BigDecimal#remainder}
 * with the same 38-digit context; then the value is set to the result scale (HALF_UP) and is null when it
 * needs more digits than the result precision. A zero divisor throws {@link ArithmeticException} ("Division
 * by zero", or "Division undefined" for 0 / 0), as Flink's generated code does.
 *
 * <p>A remainder whose operands, brought to the common scale, both fit a long is exact in Java's {@code %}
 * (the sign of the dividend, as {@code BigDecimal#remainder}) and is computed so. Everything else goes
 * through {@code BigDecimal} per row, as Flink does: the 38-digit rounding of the quotient followed by the
 * rounding to the result scale is a double rounding that only the same two steps reproduce.
 */
final class DecimalDivision extends Node {
    /** Flink's {@code DecimalDataUtils.MC_DIVIDE}. */
    private static final MathContext MC_DIVIDE = new MathContext(38, RoundingMode.HALF_UP);

    private final boolean remainder;
    private final Node left;
    private final Node right;
    /** An operand's scale as Flink computes with it: its own for a DECIMAL, the result scale for an integer. */
    private final int leftScale;
    private final int rightScale;
    /** Powers of ten that bring an integer operand to the result scale (0 for a DECIMAL operand). */
    private final int leftShift;
    private final int rightShift;
    private final int precision;
    private final int scale;
    /** For the remainder fast path: the common scale of both operands and their shifts to it. */
    private final int leftToCommon;
    private final int rightToCommon;
    /** True when the common scale is the result scale and both shifts fit a long power of ten. */
    private final boolean remainderInLongs;

    private final DecimalScaler a = new DecimalScaler();
    private final DecimalScaler b = new DecimalScaler();

    DecimalDivision(Op op, Node left, Node right, DecimalType type) {
        super(type);
        this.remainder = op == Op.MOD;
        this.left = left;
        this.right = right;
        this.precision = type.getPrecision();
        this.scale = type.getScale();
        boolean leftDecimal = left.type instanceof DecimalType;
        boolean rightDecimal = right.type instanceof DecimalType;
        this.leftScale = leftDecimal ? Types.scale(left.type) : scale;
        this.rightScale = rightDecimal ? Types.scale(right.type) : scale;
        this.leftShift = leftDecimal ? 0 : scale;
        this.rightShift = rightDecimal ? 0 : scale;
        int common = Math.max(leftScale, rightScale);
        this.leftToCommon = common - leftScale;
        this.rightToCommon = common - rightScale;
        this.remainderInLongs = common == scale && leftToCommon <= 18 && rightToCommon <= 18;
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        left.evaluate(batch, sel, n);
        right.evaluate(batch, sel, n);
        Column x = left.out;
        Column y = right.out;
        boolean[] nulls = out.nulls;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (x.nulls[i] || y.nulls[i]) {
                nulls[i] = true;
                continue;
            }
            // the operands as Flink holds them: an integer cast to the result scale (it fits, see Arithmetic)
            a.load(x, i).scale(leftShift);
            b.load(y, i).scale(rightShift);
            if (remainder && exactRemainder(i)) {
                continue;
            }
            BigDecimal dividend = Decimal128.toBigDecimal(a.high, a.low, leftScale);
            BigDecimal divisor = Decimal128.toBigDecimal(b.high, b.low, rightScale);
            BigDecimal result = remainder ? dividend.remainder(divisor, MC_DIVIDE) : dividend.divide(divisor, MC_DIVIDE);
            store(i, result.setScale(scale, RoundingMode.HALF_UP));
        }
    }

    /**
     * The remainder in long arithmetic, when both operands at the common scale (the result scale) fit a
     * long and the divisor is not 0; false leaves the row to {@code BigDecimal}.
     */
    private boolean exactRemainder(int i) {
        if (!remainderInLongs || a.high != a.low >> 63 || b.high != b.low >> 63) {
            return false;
        }
        long leftPower = Decimal128.pow10(leftToCommon);
        long rightPower = Decimal128.pow10(rightToCommon);
        long dividend = a.low * leftPower;
        long divisor = b.low * rightPower;
        if (Math.multiplyHigh(a.low, leftPower) != dividend >> 63
                || Math.multiplyHigh(b.low, rightPower) != divisor >> 63 || divisor == 0) {
            return false;
        }
        // |remainder| < |divisor| and <= |dividend|: it fits the result type
        long r = dividend % divisor;
        out.nulls[i] = false;
        out.longs[i] = r;
        out.highs[i] = r >> 63;
        return true;
    }

    private void store(int i, BigDecimal value) {
        BigInteger unscaled = value.unscaledValue();
        long low = unscaled.longValue();
        long high = unscaled.shiftRight(64).longValue();
        boolean fits = unscaled.bitLength() < 128 && Decimal128.fits(high, low, precision);
        out.nulls[i] = !fits;
        out.longs[i] = low;
        out.highs[i] = high;
    }
}
