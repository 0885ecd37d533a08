package io.columnarkafka.format.text;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Spells a DECIMAL(p, s) value (Arrow Decimal128: a 128-bit two's complement unscaled value, given as
 * its low and high longs) as Jackson writes a {@code BigDecimal}: {@linkplain Style#PLAIN plain}
 * ({@code toPlainString()}, scale kept: {@code 100.00}) or {@linkplain Style#STRIPPED stripped}
 * ({@code stripTrailingZeros().toString()}: zero as {@code 0}, E-notation such as {@code 1E+2}).
 *
 * <p>Unscaled values that fit a long, the common case, are spelled with long arithmetic; wider ones
 * go through {@link BigDecimal}. A value with more digits than the declared precision fails: Flink
 * could not hold it in a {@code DecimalData}.
 */
public final class DecimalText {
    /** How a format spells decimals. */
    public enum Style {
        /** {@code toPlainString()}, scale kept. */
        PLAIN,
        /** {@code stripTrailingZeros().toString()}. */
        STRIPPED
    }

    private final String path;
    private final int precision;
    private final int scale;
    private final boolean plain;

    public DecimalText(String path, int precision, int scale, Style style) {
        this.path = path;
        this.precision = precision;
        this.scale = scale;
        this.plain = style == Style.PLAIN;
    }

    /**
     * Most bytes {@link #write} takes for a value that fits the precision: sign, point, the digits (up to
     * the precision, or 19 on the long path) and leading zeros up to the scale, or an exponent of up to
     * 11 digits plus sign and {@code E}.
     */
    public int maxBytes() {
        return Math.max(precision, 19) + scale + 24;
    }

    /**
     * Writes the value whose unscaled 128-bit integer is {@code high:low}.
     *
     * @throws EncodeException if it has more digits than the declared precision
     */
    public void write(ByteOutput out, long low, long high) {
        if (high == (low >> 63) && low != Long.MIN_VALUE) {
            if (precision < 19 && Math.abs(low) >= Digits.powerOfTen(precision)) {
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
    private static void writePlain(ByteOutput out, long unscaled, int scale) {
        if (scale == 0) {
            Digits.writeLong(out, unscaled);
            return;
        }
        out.ensure(scale + 23);
        if (unscaled < 0) {
            out.buf[out.pos++] = '-';
            unscaled = -unscaled;
        }
        int digits = Digits.digitCount(unscaled);
        if (digits > scale) {
            long unit = Digits.powerOfTen(scale);
            Digits.writeLong(out, unscaled / unit);
            out.buf[out.pos++] = '.';
            Digits.writePadded(out, unscaled % unit, scale);
        } else {
            out.buf[out.pos++] = '0';
            out.buf[out.pos++] = '.';
            Digits.writePadded(out, unscaled, scale);
        }
    }

    /** {@code BigDecimal.valueOf(unscaled, scale).stripTrailingZeros().toString()}, zero as {@code 0}. */
    private static void writeStripped(ByteOutput out, long unscaled, int scale) {
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
        int digits = Digits.digitCount(magnitude);
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
        long unit = Digits.powerOfTen(digits - 1);
        out.buf[out.pos++] = (byte) ('0' + magnitude / unit);
        if (digits > 1) {
            out.buf[out.pos++] = '.';
            Digits.writePadded(out, magnitude % unit, digits - 1);
        }
        out.buf[out.pos++] = 'E';
        out.buf[out.pos++] = (byte) (adjusted >= 0 ? '+' : '-');
        Digits.writeLong(out, Math.abs(adjusted));
    }

    /** Values beyond a long: the rare path, through BigDecimal. */
    private void writeWide(ByteOutput out, long low, long high) {
        byte[] bigEndian = new byte[16];
        for (int i = 0; i < 8; i++) {
            bigEndian[i] = (byte) (high >>> (56 - 8 * i));
            bigEndian[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        BigDecimal value = new BigDecimal(new BigInteger(bigEndian), scale);
        if (value.precision() > precision) {
            throw overflow(out, value);
        }
        out.writeAscii(plain ? value.toPlainString() : value.stripTrailingZeros().toString());
    }

    private EncodeException overflow(ByteOutput out, BigDecimal value) {
        return new EncodeException(path, out.row(),
                "decimal " + value.toPlainString() + " has more digits than DECIMAL(" + precision + ", "
                        + scale + ") holds");
    }
}
