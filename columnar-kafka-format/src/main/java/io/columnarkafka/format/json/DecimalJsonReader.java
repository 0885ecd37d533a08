package io.columnarkafka.format.json;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.DecimalUtility;

/**
 * DECIMAL(p, s) as Flink's decimal converter reads it: a string's trimmed text or a number's text as a
 * {@code BigDecimal} (Jackson's {@code getDecimalValue}; any other token fails), rounded HALF_UP to the
 * scale; a value with more than {@code p} digits then is null, not an error ({@code
 * DecimalData.fromBigDecimal}).
 *
 * <p>A JSON number of at most 18 digits and no exponent (what Flink's serializer writes for most values) is
 * read from the bytes into a long unscaled value and rounded in long arithmetic, with the same result; any
 * other spelling, or a result beyond a long, takes {@code BigDecimal}. Values go straight into the vector's
 * buffers ({@link FixedWidthBuffers}).
 */
final class DecimalJsonReader extends JsonReader {
    /** The largest n for which the JDK's {@code BigInteger.TEN.pow(n)} does not overflow. */
    private static final long MAX_POWER_OF_TEN = 536_870_912L;
    /** Digits a long holds whatever they are. */
    private static final int LONG_DIGITS = 18;
    private static final long[] POWERS_OF_TEN = new long[LONG_DIGITS + 1];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private final int precision;
    private final int scale;
    /** The largest unscaled magnitude of {@code precision} digits that a long holds. */
    private final long maxUnscaled;
    private final FixedWidthBuffers buffers = new FixedWidthBuffers();
    private DecimalVector vector;
    /** The unscaled value {@link #fastUnscaled} found, when it returns true. */
    private long unscaled;

    DecimalJsonReader(String path, boolean ignoreParseErrors, int precision, int scale) {
        super(path, ignoreParseErrors);
        this.precision = precision;
        this.scale = scale;
        this.maxUnscaled = precision <= LONG_DIGITS ? POWERS_OF_TEN[precision] - 1 : Long.MAX_VALUE;
    }

    @Override
    void bind(FieldVector v) {
        vector = (DecimalVector) v;
        buffers.bind(vector);
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        int token = t.current();
        if ((token == JsonTokenizer.VALUE_NUMBER_INT || token == JsonTokenizer.VALUE_NUMBER_FLOAT) && fastUnscaled(t)) {
            buffers.ensureRoom(count);
            DecimalUtility.writeLongToArrowBuf(unscaled, vector.getDataBuffer(), count, DecimalVector.TYPE_WIDTH);
            ArrowAppend.setValid(buffers.validity, count++);
            return;
        }
        BigDecimal value;
        if (token == JsonTokenizer.VALUE_STRING) {
            value = new BigDecimal(t.text().trim());
        } else if (token == JsonTokenizer.VALUE_NUMBER_INT || token == JsonTokenizer.VALUE_NUMBER_FLOAT) {
            value = new BigDecimal(t.text());
        } else {
            throw new JsonReadException("Current token (" + JsonTokenizer.tokenName(token)
                    + ") not numeric, can not use numeric value accessors");
        }
        BigDecimal scaled = fit(value);
        buffers.ensureRoom(count);
        if (scaled == null) {
            ArrowAppend.setNull(buffers.validity, count++);
        } else {
            vector.set(count++, scaled); // room made above: Arrow's set does not grow the buffers
        }
    }

    /**
     * The number token's value at the scale, rounded HALF_UP, into {@link #unscaled}, if it has at most 18
     * digits and no exponent and the result has at most {@code precision} digits and fits a long; false
     * for the {@code BigDecimal} path (which also gives the nulls of values with too many digits).
     */
    private boolean fastUnscaled(JsonTokenizer t) {
        int fraction = t.fractionDigits();
        if (t.exponentDigits() > 0 || t.intDigits() + fraction > LONG_DIGITS) {
            return false;
        }
        byte[] b = t.buffer();
        int end = t.valueEnd();
        long magnitude = 0;
        for (int i = t.negative() ? t.valueStart() + 1 : t.valueStart(); i < end; i++) {
            int c = b[i];
            if (c != '.') {
                magnitude = magnitude * 10 + (c - '0');
            }
        }
        if (fraction <= scale) {
            int up = scale - fraction;
            if (up > LONG_DIGITS || magnitude > maxUnscaled / POWERS_OF_TEN[up]) {
                return false;
            }
            magnitude *= POWERS_OF_TEN[up];
        } else {
            long divisor = POWERS_OF_TEN[fraction - scale];
            long rest = magnitude % divisor;
            magnitude /= divisor;
            if (rest >= divisor - rest) {
                magnitude++; // HALF_UP: a tie goes away from zero
            }
            if (magnitude > maxUnscaled) {
                return false;
            }
        }
        unscaled = t.negative() ? -magnitude : magnitude;
        return true;
    }

    /**
     * {@code DecimalData.fromBigDecimal}'s result: the value at the scale, or null if it has more than
     * {@code precision} digits. The integer digits decide that before rescaling, so an exponent such as
     * {@code 1e999999999} is null at once instead of a billion-digit multiplication (Flink's result is the
     * same null, reached the slow way).
     */
    private BigDecimal fit(BigDecimal value) {
        if (value.signum() == 0) {
            return BigDecimal.ZERO.setScale(scale);
        }
        if ((long) scale - value.scale() > MAX_POWER_OF_TEN) {
            // Flink's setScale needs 10^n beyond what BigInteger holds and fails.
            throw new ArithmeticException("BigInteger would overflow supported range");
        }
        if ((long) value.precision() - value.scale() > precision - scale) {
            return null;
        }
        BigDecimal scaled = value.setScale(scale, RoundingMode.HALF_UP);
        return scaled.precision() > precision ? null : scaled;
    }

    @Override
    void appendNull() {
        buffers.ensureRoom(count);
        ArrowAppend.setNull(buffers.validity, count++);
    }

    @Override
    void truncate(int entries) {
        count = entries;
    }
}
