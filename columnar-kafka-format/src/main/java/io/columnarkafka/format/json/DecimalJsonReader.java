package io.columnarkafka.format.json;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;

/**
 * DECIMAL(p, s) as Flink's decimal converter reads it: a string's trimmed text or a number's text as a
 * {@code BigDecimal} (Jackson's {@code getDecimalValue}; any other token fails), rounded HALF_UP to the
 * scale; a value with more than {@code p} digits then is null, not an error ({@code
 * DecimalData.fromBigDecimal}).
 */
final class DecimalJsonReader extends JsonReader {
    /** The largest n for which the JDK's {@code BigInteger.TEN.pow(n)} does not overflow. */
    private static final long MAX_POWER_OF_TEN = 536_870_912L;

    private final int precision;
    private final int scale;
    private DecimalVector vector;

    DecimalJsonReader(String path, boolean ignoreParseErrors, int precision, int scale) {
        super(path, ignoreParseErrors);
        this.precision = precision;
        this.scale = scale;
    }

    @Override
    void bind(FieldVector v) {
        vector = (DecimalVector) v;
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        int token = t.current();
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
        if (scaled == null) {
            vector.setNull(count++);
        } else {
            vector.setSafe(count++, scaled);
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

    @Override
    void appendNull() {
        vector.setNull(count++);
    }

    @Override
    void truncate(int entries) {
        count = entries;
    }
}
