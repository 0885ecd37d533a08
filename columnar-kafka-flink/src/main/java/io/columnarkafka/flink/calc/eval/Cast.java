package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.format.text.Digits;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * The CASTs the compiler admits, as Flink's cast rules compute them:
 * <ul>
 *   <li>{@link Kind#INTEGER_TO_INTEGER}: Java's narrowing or widening cast (wraps);
 *   <li>{@link Kind#INTEGER_TO_DOUBLE}: Java's widening to double;
 *   <li>{@link Kind#DOUBLE_TO_INTEGER}: Java's {@code (long)} or {@code (int)} cast (saturating, NaN to 0),
 *       then narrowing to SMALLINT or TINYINT;
 *   <li>{@link Kind#INTEGER_TO_DECIMAL}: the integer at the target scale, null when it needs more digits
 *       than the target precision ({@code DecimalDataUtils.castFrom(long, p, s)});
 *   <li>{@link Kind#DECIMAL_TO_DECIMAL}: to a scale at least the source's (no rounding), null when it needs
 *       more digits than the target precision;
 *   <li>{@link Kind#INTEGER_TO_STRING}: {@link String#valueOf(long)}, spelled by {@link Digits} (the compiler admits only targets long
 *       enough for every value, so nothing is trimmed);
 *   <li>{@link Kind#TIMESTAMP_TO_STRING}: {@link TimestampText} ({@code precision} is the source's);
 *   <li>{@link Kind#SAME}: the value as is (string to a string type at least as long, timestamp to a
 *       timestamp of at least the precision, integer to a wider integer).
 * </ul>
 */
final class Cast extends UnaryNode {
    enum Kind { SAME, INTEGER_TO_INTEGER, INTEGER_TO_DOUBLE, DOUBLE_TO_INTEGER, INTEGER_TO_DECIMAL, DECIMAL_TO_DECIMAL,
        INTEGER_TO_STRING, TIMESTAMP_TO_STRING }

    private final Kind kind;
    private final int targetBits;
    private final int scaleUp;
    private final int precision;
    private final DecimalScaler r = new DecimalScaler();
    /** {@link TimestampText}'s scratch fields. */
    private final int[] fields = new int[TimestampText.FIELD_COUNT];

    /**
     * {@code targetBits} for integer targets; {@code scaleUp} and {@code precision} for decimal targets;
     * {@code precision} is the source's for a timestamp to string.
     */
    Cast(Kind kind, Node operand, int targetBits, int scaleUp, int precision, LogicalType type) {
        super(operand, type);
        this.kind = kind;
        this.targetBits = targetBits;
        this.scaleUp = scaleUp;
        this.precision = precision;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (in.nulls[i]) {
                out.nulls[i] = true;
                continue;
            }
            out.nulls[i] = false;
            switch (kind) {
                case SAME:
                    out.copyRow(in, i);
                    break;
                case INTEGER_TO_INTEGER:
                    out.longs[i] = IntegerArithmetic.narrow(in.longs[i], targetBits);
                    break;
                case INTEGER_TO_DOUBLE:
                    out.doubles[i] = in.longs[i];
                    break;
                case DOUBLE_TO_INTEGER:
                    double d = in.doubles[i];
                    out.longs[i] = targetBits == 64 ? (long) d : IntegerArithmetic.narrow((int) d, targetBits);
                    break;
                case INTEGER_TO_DECIMAL:
                case DECIMAL_TO_DECIMAL:
                    r.load(in, i).scale(scaleUp);
                    out.nulls[i] = !Decimal128.fits(r.high, r.low, precision);
                    out.longs[i] = r.low;
                    out.highs[i] = r.high;
                    break;
                case TIMESTAMP_TO_STRING:
                    int length = TimestampText.length(precision);
                    int at = out.reserve(length);
                    TimestampText.write(in.longs[i], in.nanos[i], precision, fields, out.bytes, at);
                    out.setString(i, at, length);
                    break;
                case INTEGER_TO_STRING:
                    int start = out.reserve(Digits.MAX_LONG_BYTES);
                    out.setString(i, start, Digits.putLong(out.bytes, start, in.longs[i]) - start);
                    break;
                default:
                    throw new IllegalStateException(kind.name());
            }
        }
    }
}
