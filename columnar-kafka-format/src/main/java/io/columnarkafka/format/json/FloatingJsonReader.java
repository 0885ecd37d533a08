package io.columnarkafka.format.json;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * FLOAT and DOUBLE as Flink's converters read them: the token's text (trimmed unless it is a JSON float)
 * through {@code Float.parseFloat} / {@code Double.parseDouble}, which is also what Jackson's {@code
 * getFloatValue}/{@code getDoubleValue} do. So strings such as {@code "NaN"}, {@code " 1e3 "} or {@code
 * "0x1p3"} are accepted as the JDK accepts them. A JSON number whose digits and exponent are small enough
 * to be exact in binary is computed from the bytes with one correctly rounded operation; any other
 * spelling goes to the JDK.
 */
final class FloatingJsonReader extends FixedWidthJsonReader {
    private static final double[] DOUBLE_POWERS = new double[23];
    private static final float[] FLOAT_POWERS = new float[11];

    static {
        for (int i = 0; i < DOUBLE_POWERS.length; i++) {
            DOUBLE_POWERS[i] = Double.parseDouble("1e" + i);
        }
        for (int i = 0; i < FLOAT_POWERS.length; i++) {
            FLOAT_POWERS[i] = Float.parseFloat("1e" + i);
        }
    }

    private final boolean single;

    FloatingJsonReader(String path, boolean ignoreParseErrors, boolean single) {
        super(path, ignoreParseErrors);
        this.single = single;
    }

    @Override
    void bind(FieldVector v) {
        buffers.bind((BaseFixedWidthVector) v);
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        buffers.ensureRoom(count);
        // Raw bits, as Arrow's own setFloat/setDouble store them (a NaN keeps the bits the JDK parsed).
        if (single) {
            MemoryUtil.putInt(buffers.values + 4L * count, Float.floatToRawIntBits(floatValue(t)));
        } else {
            MemoryUtil.putLong(buffers.values + 8L * count, Double.doubleToRawLongBits(doubleValue(t)));
        }
        ArrowAppend.setValid(buffers.validity, count++);
    }

    @Override
    void checkValue(JsonTokenizer t) {
        if (single) {
            floatValue(t);
        } else {
            doubleValue(t);
        }
    }

    private float floatValue(JsonTokenizer t) {
        boolean number = isNumber(t.current());
        return number && fastFloat(t) ? fastFloat : Float.parseFloat(number ? t.text() : t.text().trim());
    }

    private double doubleValue(JsonTokenizer t) {
        boolean number = isNumber(t.current());
        return number && fastDouble(t) ? fastDouble : Double.parseDouble(number ? t.text() : t.text().trim());
    }

    private static boolean isNumber(int token) {
        return token == JsonTokenizer.VALUE_NUMBER_INT || token == JsonTokenizer.VALUE_NUMBER_FLOAT;
    }

    private double fastDouble;
    private float fastFloat;

    /** Mantissa digits and the decimal exponent of a JSON number, or false if out of the exact range. */
    private long mantissa;
    private int exponent;

    private boolean decompose(JsonTokenizer t, int maxDigits) {
        if (t.intDigits() + t.fractionDigits() > maxDigits || t.exponentDigits() > 2) {
            return false;
        }
        byte[] b = t.buffer();
        int i = t.valueStart();
        int end = t.valueEnd();
        if (b[i] == '-') {
            i++;
        }
        long m = 0;
        int e = 0;
        boolean fraction = false;
        for (; i < end; i++) {
            int c = b[i];
            if (c == '.') {
                fraction = true;
            } else if (c == 'e' || c == 'E') {
                i++;
                boolean negativeExponent = b[i] == '-';
                if (b[i] == '-' || b[i] == '+') {
                    i++;
                }
                int x = 0;
                for (; i < end; i++) {
                    x = x * 10 + (b[i] - '0');
                }
                e += negativeExponent ? -x : x;
                break;
            } else {
                m = m * 10 + (c - '0');
                if (fraction) {
                    e--;
                }
            }
        }
        mantissa = m;
        exponent = e;
        return true;
    }

    private boolean fastDouble(JsonTokenizer t) {
        // Up to 15 digits are exact in a double, as are the powers of ten up to 1e22.
        if (!decompose(t, 15) || exponent < -22 || exponent > 22) {
            return false;
        }
        double m = mantissa;
        double v = exponent >= 0 ? m * DOUBLE_POWERS[exponent] : m / DOUBLE_POWERS[-exponent];
        fastDouble = t.negative() ? -v : v;
        return true;
    }

    private boolean fastFloat(JsonTokenizer t) {
        // Up to 7 digits are exact in a float, as are the powers of ten up to 1e10.
        if (!decompose(t, 7) || exponent < -10 || exponent > 10) {
            return false;
        }
        float m = mantissa;
        float v = exponent >= 0 ? m * FLOAT_POWERS[exponent] : m / FLOAT_POWERS[-exponent];
        fastFloat = t.negative() ? -v : v;
        return true;
    }
}
