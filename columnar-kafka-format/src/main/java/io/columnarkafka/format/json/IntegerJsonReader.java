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
 * Integers of up to 19 digits are parsed from the bytes (range-checked once, at the 19th digit); longer ones
 * and all other spellings take the JDK.
 */
final class IntegerJsonReader extends FixedWidthJsonReader {
    enum Kind { TINYINT, SMALLINT, INT, BIGINT }

    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    /** {@code Long.MAX_VALUE / 10}: 19 digits fit a long if their first 18 are below it, or equal and the last small. */
    private static final long LONG_MAX_TENTH = Long.MAX_VALUE / 10;

    private final Kind kind;
    private BaseFixedWidthVector vector;

    IntegerJsonReader(String path, boolean ignoreParseErrors, Kind kind) {
        super(path, ignoreParseErrors);
        this.kind = kind;
    }

    @Override
    void bind(FieldVector v) {
        vector = (BaseFixedWidthVector) v;
        count = 0;
        buffers.bind(vector);
    }

    @Override
    void readValue(JsonTokenizer t) {
        store(value(t));
    }

    @Override
    void checkValue(JsonTokenizer t) {
        value(t);
    }

    private long value(JsonTokenizer t) {
        int token = t.current();
        if (token == JsonTokenizer.VALUE_NUMBER_INT) {
            return checked(integer(t), t);
        } else if (token == JsonTokenizer.VALUE_NUMBER_FLOAT && (kind == Kind.INT || kind == Kind.BIGINT)) {
            return truncated(Double.parseDouble(t.text()), t);
        }
        return parse(t.text().trim());
    }

    /** The value of an integer token, with Jackson's range errors for int and long. */
    private long integer(JsonTokenizer t) {
        int digits = t.intDigits();
        if (digits <= 18) {
            // Summed by the tokenizer while it scanned the digits; 18 digits cannot overflow a long.
            long v = t.intMagnitude();
            return t.negative() ? -v : v;
        }
        if (digits == 19) {
            // The first 18 digits cannot overflow a long, so they are summed without a check; the 19th digit
            // is checked once against the range, which below zero reaches one further (Long.MIN_VALUE). A
            // value outside it goes on to the exact path below, which reports it.
            byte[] b = t.buffer();
            boolean negative = t.negative();
            int i = negative ? t.valueStart() + 1 : t.valueStart();
            int end = t.valueEnd() - 1;
            long v = 0;
            for (; i < end; i++) {
                v = v * 10 + (b[i] - '0');
            }
            int last = b[end] - '0';
            if (v < LONG_MAX_TENTH || v == LONG_MAX_TENTH && last <= (negative ? 8 : 7)) {
                return negative ? -v * 10 - last : v * 10 + last;
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
}
