package io.columnarkafka.format.json;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;

/**
 * DECIMAL(p, s) as Flink's decimal converter reads it: a string's trimmed text or a number's text as a
 * {@code BigDecimal} (Jackson's {@code getDecimalValue}; any other token fails), rounded HALF_UP to the
 * scale; a value with more than {@code p} digits then is null, not an error ({@code
 * DecimalData.fromBigDecimal}).
 *
 * <p>A JSON number without exponent (what Flink's serializer writes for all but tiny values) is read from the
 * bytes into the unscaled value, with the same result: up to 18 digits in a long, rounded HALF_UP in long
 * arithmetic; more digits, if at most the scale's fraction digits (so no rounding) and a result of at most
 * {@code p} digits, in 128 bits. Any other spelling takes {@code BigDecimal}. Values go straight into the
 * vector's buffers ({@link FixedWidthBuffers}) as Arrow's 128-bit little-endian two's complement.
 */
final class DecimalJsonReader extends FixedWidthJsonReader {
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
    private DecimalVector vector;
    /** The unscaled value {@link #fastUnscaled} found, when it returns true: 128 bits, two's complement. */
    private long low;
    private long high;

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
        if (isNumber(t.current()) && fastUnscaled(t)) {
            buffers.ensureRoom(count);
            long at = buffers.values + (long) DecimalVector.TYPE_WIDTH * count;
            MemoryUtil.putLong(at, low);
            MemoryUtil.putLong(at + 8, high);
            ArrowAppend.setValid(buffers.validity, count++);
            return;
        }
        BigDecimal scaled = slowValue(t);
        buffers.ensureRoom(count);
        if (scaled == null) {
            ArrowAppend.setNull(buffers.validity, count++);
        } else {
            vector.set(count++, scaled); // room made above: Arrow's set does not grow the buffers
        }
    }

    @Override
    void checkValue(JsonTokenizer t) {
        if (!isNumber(t.current()) || !fastUnscaled(t)) {
            slowValue(t);
        }
    }

    private static boolean isNumber(int token) {
        return token == JsonTokenizer.VALUE_NUMBER_INT || token == JsonTokenizer.VALUE_NUMBER_FLOAT;
    }

    /** The value through {@code BigDecimal} at the scale, or null if it has too many digits. */
    private BigDecimal slowValue(JsonTokenizer t) {
        int token = t.current();
        BigDecimal value;
        if (token == JsonTokenizer.VALUE_STRING) {
            value = new BigDecimal(t.text().trim());
        } else if (isNumber(token)) {
            value = new BigDecimal(t.text());
        } else {
            throw new JsonReadException("Current token (" + JsonTokenizer.tokenName(token)
                    + ") not numeric, can not use numeric value accessors");
        }
        return fit(value);
    }

    /**
     * The number token's value at the scale, rounded HALF_UP, into {@link #low} and {@link #high}, if it
     * has no exponent and either at most 18 digits and a result of at most {@code precision} digits that
     * fits a long, or no more fraction digits than the scale and a result of at most {@code precision}
     * digits; false for the {@code BigDecimal} path (which also gives the nulls of values with too many
     * digits).
     */
    private boolean fastUnscaled(JsonTokenizer t) {
        int fraction = t.fractionDigits();
        if (!MemoryUtil.LITTLE_ENDIAN || t.exponentDigits() > 0) {
            return false;
        }
        if (t.intDigits() + fraction <= LONG_DIGITS && longUnscaled(t, fraction)) {
            return true;
        }
        return fraction <= scale && wideUnscaled(t, scale - fraction);
    }

    private boolean longUnscaled(JsonTokenizer t, int fraction) {
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
        low = t.negative() ? -magnitude : magnitude;
        high = low < 0 ? -1 : 0;
        return true;
    }

    /**
     * The digits times {@code 10^up} in 128 bits, exact (no rounding), if the result has at most {@code
     * precision} digits (at most 38, below 2^127, so the magnitude never reaches the sign bit).
     */
    private boolean wideUnscaled(JsonTokenizer t, int up) {
        byte[] b = t.buffer();
        int end = t.valueEnd();
        int i = t.negative() ? t.valueStart() + 1 : t.valueStart();
        while (i < end && (b[i] == '0' || b[i] == '.')) {
            i++; // leading zeros are not digits of the result
        }
        int significant = 0;
        for (int j = i; j < end; j++) {
            if (b[j] != '.') {
                significant++;
            }
        }
        if (significant > 0 && significant + up > precision) {
            return false;
        }
        low = 0;
        high = 0;
        for (; i < end; i++) {
            int c = b[i];
            if (c != '.') {
                times10Plus(c - '0');
            }
        }
        for (int k = 0; k < up; k++) {
            times10Plus(0);
        }
        if (t.negative()) {
            low = -low;
            high = low == 0 ? -high : ~high;
        }
        return true;
    }

    /** {@code (high, low) * 10 + digit}, unsigned 128 bits. */
    private void times10Plus(int digit) {
        long shifted = low * 10;
        high = high * 10 + Math.multiplyHigh(low, 10) + ((low >> 63) & 10); // the unsigned high half of low * 10
        low = shifted + digit;
        if (Long.compareUnsigned(low, shifted) < 0) {
            high++;
        }
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
}
