package io.columnarkafka.format.json;

import io.columnarkafka.format.EncodeException;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * DECIMAL(p, s) (Arrow Decimal128: a 128-bit little-endian two's complement unscaled value) as Flink's
 * Jackson writes a {@code BigDecimal} number: by default {@code stripTrailingZeros().toString()}
 * (zero as {@code 0}, E-notation such as {@code 1E+2}); with {@code encode.decimal-as-plain-number}
 * {@code toPlainString()} with the scale kept ({@code 100.00}).
 *
 * <p>Unscaled values that fit a long, the common case, are spelled with long arithmetic; wider ones
 * go through {@link BigDecimal}. A value with more digits than the declared precision fails: Flink
 * could not hold it in a {@code DecimalData}.
 */
final class DecimalJsonWriter extends JsonValueWriter {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private final int precision;
    private final int scale;
    private final boolean plain;
    private long data;

    DecimalJsonWriter(String path, int precision, int scale, boolean plain) {
        super(path);
        this.precision = precision;
        this.scale = scale;
        this.plain = plain;
    }

    @Override
    void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 16, "data");
    }

    @Override
    void write(JsonOutput out, int index) {
        long low = MemoryUtil.getLong(data + 16L * index);
        long high = MemoryUtil.getLong(data + 16L * index + 8);
        if (high == (low >> 63) && low != Long.MIN_VALUE) {
            if (precision < POWERS_OF_TEN.length && Math.abs(low) >= POWERS_OF_TEN[precision]) {
                throw overflow(out, BigDecimal.valueOf(low, scale));
            }
            if (plain) {
                writePlain(out, low, scale);
            } else {
                writeStripped(out, low, scale);
            }
        } else {
            writeWide(out, low, high);
        }
    }

    /** {@code BigDecimal.valueOf(unscaled, scale).toPlainString()}, for a non-negative scale. */
    private static void writePlain(JsonOutput out, long unscaled, int scale) {
        if (scale == 0) {
            out.writeLong(unscaled);
            return;
        }
        out.ensure(scale + 23);
        if (unscaled < 0) {
            out.buf[out.pos++] = '-';
            unscaled = -unscaled;
        }
        int digits = JsonOutput.digitCount(unscaled);
        if (digits > scale) {
            long unit = POWERS_OF_TEN[scale];
            out.writeLong(unscaled / unit);
            out.buf[out.pos++] = '.';
            out.writePadded(unscaled % unit, scale);
        } else {
            out.buf[out.pos++] = '0';
            out.buf[out.pos++] = '.';
            out.writePadded(unscaled, scale);
        }
    }

    /** {@code BigDecimal.valueOf(unscaled, scale).stripTrailingZeros().toString()}, zero as {@code 0}. */
    private static void writeStripped(JsonOutput out, long unscaled, int scale) {
        if (unscaled == 0) {
            out.writeByte((byte) '0');
            return;
        }
        while (unscaled % 10 == 0) {
            unscaled /= 10;
            scale--;
        }
        boolean negative = unscaled < 0;
        long magnitude = Math.abs(unscaled);
        int digits = JsonOutput.digitCount(magnitude);
        long adjusted = -(long) scale + (digits - 1);
        if (scale >= 0 && adjusted >= -6) {
            if (negative) {
                out.writeByte((byte) '-');
            }
            writePlain(out, magnitude, scale);
            return;
        }
        // BigDecimal.toString's scientific notation: d[.ddd]E(+|-)n
        out.ensure(digits + 24);
        if (negative) {
            out.buf[out.pos++] = '-';
        }
        long unit = POWERS_OF_TEN[digits - 1];
        out.buf[out.pos++] = (byte) ('0' + magnitude / unit);
        if (digits > 1) {
            out.buf[out.pos++] = '.';
            out.writePadded(magnitude % unit, digits - 1);
        }
        out.buf[out.pos++] = 'E';
        out.buf[out.pos++] = (byte) (adjusted >= 0 ? '+' : '-');
        out.writeLong(Math.abs(adjusted));
    }

    /** Values beyond a long: the rare path, through BigDecimal. */
    private void writeWide(JsonOutput out, long low, long high) {
        byte[] bigEndian = new byte[16];
        for (int i = 0; i < 8; i++) {
            bigEndian[i] = (byte) (high >>> (56 - 8 * i));
            bigEndian[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        BigDecimal value = new BigDecimal(new BigInteger(bigEndian), scale);
        if (value.precision() > precision) {
            throw overflow(out, value);
        }
        String text = plain ? value.toPlainString() : value.stripTrailingZeros().toString();
        out.writeAscii(text);
    }

    private EncodeException overflow(JsonOutput out, BigDecimal value) {
        return new EncodeException(path, out.row(),
                "decimal " + value.toPlainString() + " has more digits than DECIMAL(" + precision + ", "
                        + scale + ") holds");
    }
}
