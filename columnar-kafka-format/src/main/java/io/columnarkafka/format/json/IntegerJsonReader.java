package io.columnarkafka.format.json;

import java.math.BigInteger;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * TINYINT, SMALLINT, INT and BIGINT as Flink's converters read them:
 * <ul>
 *   <li>a JSON integer must fit the type (TINYINT and SMALLINT through Jackson's int first);</li>
 *   <li>a JSON float is truncated toward zero for INT and BIGINT if its double value is in range (Jackson's
 *       {@code getIntValue}/{@code getLongValue}), and rejected for TINYINT and SMALLINT (Flink parses its
 *       text with {@code Byte/Short.parseByte});</li>
 *   <li>any other token is its text, trimmed, through {@code Byte/Short/Integer/Long.parseX} (so {@code
 *       " +7 "} in a string is 7, and an object or array fails).</li>
 * </ul>
 * Integers of up to 19 digits are parsed from the bytes (up to 18 without a range check per digit); longer
 * ones and all other spellings take the JDK.
 */
final class IntegerJsonReader extends JsonReader {
    enum Kind { TINYINT, SMALLINT, INT, BIGINT }

    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private final Kind kind;
    private BaseFixedWidthVector vector;

    IntegerJsonReader(String path, boolean ignoreParseErrors, Kind kind) {
        super(path, ignoreParseErrors);
        this.kind = kind;
    }

    private final FixedWidthBuffers buffers = new FixedWidthBuffers();

    @Override
    void bind(FieldVector v) {
        vector = (BaseFixedWidthVector) v;
        count = 0;
        buffers.bind(vector);
    }

    @Override
    void readValue(JsonTokenizer t) {
        int token = t.current();
        long value;
        if (token == JsonTokenizer.VALUE_NUMBER_INT) {
            value = checked(integer(t), t);
        } else if (token == JsonTokenizer.VALUE_NUMBER_FLOAT && (kind == Kind.INT || kind == Kind.BIGINT)) {
            value = truncated(Double.parseDouble(t.text()), t);
        } else {
            value = parse(t.text().trim());
        }
        store(value);
    }

    /** The value of an integer token, with Jackson's range errors for int and long. */
    private long integer(JsonTokenizer t) {
        if (t.intDigits() <= 18) {
            // Up to 18 digits cannot overflow a long: no range check per digit.
            byte[] b = t.buffer();
            int i = t.negative() ? t.valueStart() + 1 : t.valueStart();
            int end = t.valueEnd();
            long v = 0;
            for (; i < end; i++) {
                v = v * 10 + (b[i] - '0');
            }
            return t.negative() ? -v : v;
        }
        if (t.intDigits() == 19) {
            // Summed below zero, where the long range reaches one further (Long.MIN_VALUE); a 19-digit
            // value outside the range goes on to the exact path below, which reports it.
            byte[] b = t.buffer();
            int i = t.valueStart();
            int end = t.valueEnd();
            boolean negative = b[i] == '-';
            if (negative) {
                i++;
            }
            long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
            long v = 0;
            boolean inRange = true;
            for (; i < end; i++) {
                int digit = b[i] - '0';
                if (v < (limit + digit) / 10) {
                    inRange = false;
                    break;
                }
                v = v * 10 - digit;
            }
            if (inRange) {
                return negative ? v : -v;
            }
        }
        BigInteger big = new BigInteger(t.text());
        if (big.compareTo(LONG_MIN) < 0 || big.compareTo(LONG_MAX) > 0) {
            throw outOfRange(t.text(), kind == Kind.BIGINT ? "long" : "int");
        }
        return big.longValue();
    }

    private long checked(long v, JsonTokenizer t) {
        if (kind != Kind.BIGINT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
            throw outOfRange(t.text(), "int");
        }
        if (kind == Kind.TINYINT && (v < Byte.MIN_VALUE || v > Byte.MAX_VALUE)) {
            throw new JsonReadException(String.format("Numeric value (%s) out of range of Java byte.", v));
        }
        if (kind == Kind.SMALLINT && (v < Short.MIN_VALUE || v > Short.MAX_VALUE)) {
            throw outOfRange(t.text(), "Java short");
        }
        return v;
    }

    /** Jackson's float-to-int/long coercion: a range check on the double, then a cast. */
    private long truncated(double d, JsonTokenizer t) {
        if (kind == Kind.INT) {
            if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
                throw outOfRange(t.text(), "int");
            }
            return (int) d;
        }
        if (d < (double) Long.MIN_VALUE || d > (double) Long.MAX_VALUE) {
            throw outOfRange(t.text(), "long");
        }
        return (long) d;
    }

    private long parse(String text) {
        switch (kind) {
            case TINYINT:
                return Byte.parseByte(text);
            case SMALLINT:
                return Short.parseShort(text);
            case INT:
                return Integer.parseInt(text);
            default:
                return Long.parseLong(text);
        }
    }

    private static JsonReadException outOfRange(String text, String type) {
        return new JsonReadException("Numeric value (" + text + ") out of range of " + type);
    }

    private void store(long value) {
        buffers.ensureRoom(count);
        int i = count;
        switch (kind) {
            case TINYINT:
                MemoryUtil.putByte(buffers.values + i, (byte) value);
                break;
            case SMALLINT:
                MemoryUtil.putShort(buffers.values + 2L * i, (short) value);
                break;
            case INT:
                MemoryUtil.putInt(buffers.values + 4L * i, (int) value);
                break;
            default:
                MemoryUtil.putLong(buffers.values + 8L * i, value);
        }
        ArrowAppend.setValid(buffers.validity, i);
        count = i + 1;
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
