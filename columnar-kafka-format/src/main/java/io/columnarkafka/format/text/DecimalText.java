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
 * <p>The digits of the unscaled magnitude are produced first (by long arithmetic when it fits a long,
 * the common case, else nine digits per step of a short division of its four 32-bit limbs), then placed
 * around the point or exponent; no {@link BigDecimal} or String per value. A value with more digits than
 * the declared precision fails: Flink could not hold it in a {@code DecimalData}.
 *
 * <p>Not thread-safe: one per writer (it keeps a digit buffer).
 */
public final class DecimalText {
    /** How a format spells decimals. */
    public enum Style {
        /** {@code toPlainString()}, scale kept. */
        PLAIN,
        /** {@code stripTrailingZeros().toString()}. */
        STRIPPED
    }

    /** Digits of a 128-bit magnitude: at most 39, produced nine at a time. */
    private static final int DIGIT_ROOM = 45;
    private static final long BILLION = 1_000_000_000L;
    private static final long LIMB = 0xFFFF_FFFFL;

    private final String path;
    private final int precision;
    private final int scale;
    private final boolean plain;
    /** Digits of the magnitude being written, most significant first. */
    private final byte[] digits = new byte[DIGIT_ROOM];

    public DecimalText(String path, int precision, int scale, Style style) {
        this.path = path;
        this.precision = precision;
        this.scale = scale;
        this.plain = style == Style.PLAIN;
    }

    /**
     * Most bytes {@link #put} stores: sign, point, up to 39 digits and leading zeros up to the scale, or
     * the digits with a point, {@code E}, sign and up to 11 exponent digits.
     */
    public int maxBytes() {
        return 40 + scale + 16;
    }

    /**
     * Writes the value whose unscaled 128-bit integer is {@code high:low}.
     *
     * @throws EncodeException if it has more digits than the declared precision
     */
    public void write(ByteOutput out, long low, long high) {
        out.ensure(maxBytes());
        out.pos = put(out, out.pos, low, high);
    }

    /**
     * As {@link #write}, storing into {@code out.buf} at {@code p} with room made for {@link #maxBytes};
     * returns the position after the value.
     */
    public int put(ByteOutput out, int p, long low, long high) {
        boolean negative = high < 0;
        if (negative) {
            // Two's complement negation of high:low; -2^127 becomes 2^127, read as unsigned below.
            low = -low;
            high = low == 0 ? -high : ~high;
        }
        int count = high == 0 && low >= 0 ? Digits.putLong(digits, 0, low) : wideDigits(high, low);
        if (count > precision) {
            throw overflow(out, low, high, negative);
        }
        byte[] b = out.buf;
        if (plain) {
            return putPlain(b, p, negative, count, scale);
        }
        if (count == 1 && digits[0] == '0') {
            b[p] = '0';
            return p + 1;
        }
        int stripped = scale;
        while (digits[count - 1] == '0') {
            count--;
            stripped--;
        }
        long adjusted = -(long) stripped + (count - 1);
        if (stripped >= 0 && adjusted >= -6) {
            return putPlain(b, p, negative, count, stripped);
        }
        // BigDecimal.toString's scientific notation: d[.ddd]E(+|-)n
        if (negative) {
            b[p++] = '-';
        }
        b[p++] = digits[0];
        if (count > 1) {
            b[p++] = '.';
            System.arraycopy(digits, 1, b, p, count - 1);
            p += count - 1;
        }
        b[p++] = 'E';
        b[p++] = (byte) (adjusted >= 0 ? '+' : '-');
        return Digits.putLong(b, p, Math.abs(adjusted));
    }

    /** {@code toPlainString()} of the {@code count} digits at scale {@code scale} (not negative). */
    private int putPlain(byte[] b, int p, boolean negative, int count, int scale) {
        if (negative) {
            b[p++] = '-';
        }
        if (scale == 0) {
            System.arraycopy(digits, 0, b, p, count);
            return p + count;
        }
        if (count > scale) {
            int whole = count - scale;
            System.arraycopy(digits, 0, b, p, whole);
            p += whole;
            b[p++] = '.';
            System.arraycopy(digits, whole, b, p, scale);
            return p + scale;
        }
        b[p++] = '0';
        b[p++] = '.';
        for (int i = count; i < scale; i++) {
            b[p++] = '0';
        }
        System.arraycopy(digits, 0, b, p, count);
        return p + count;
    }

    /**
     * Digits of the unsigned 128-bit {@code high:low} into {@link #digits}, from its four 32-bit limbs:
     * each step divides them by 10^9 (a limb plus a remainder below 10^9 fits a long) and yields nine
     * digits of the remainder. Returns the digit count.
     */
    private int wideDigits(long high, long low) {
        long l3 = high >>> 32;
        long l2 = high & LIMB;
        long l1 = low >>> 32;
        long l0 = low & LIMB;
        int p = DIGIT_ROOM;
        while ((l3 | l2 | l1 | l0) != 0) {
            long rest = l3 % BILLION;
            l3 /= BILLION;
            long part = rest << 32 | l2;
            l2 = part / BILLION;
            part = (part % BILLION) << 32 | l1;
            l1 = part / BILLION;
            part = (part % BILLION) << 32 | l0;
            l0 = part / BILLION;
            long chunk = part % BILLION;
            for (int k = 0; k < 9; k++) {
                digits[--p] = (byte) ('0' + chunk % 10);
                chunk /= 10;
            }
        }
        while (digits[p] == '0') {
            p++;
        }
        int count = DIGIT_ROOM - p;
        System.arraycopy(digits, p, digits, 0, count);
        return count;
    }

    /** The error for a value beyond the precision; the only place a {@link BigDecimal} is built. */
    private EncodeException overflow(ByteOutput out, long low, long high, boolean negative) {
        byte[] bigEndian = new byte[16];
        for (int i = 0; i < 8; i++) {
            bigEndian[i] = (byte) (high >>> (56 - 8 * i));
            bigEndian[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        BigInteger magnitude = new BigInteger(1, bigEndian);
        BigDecimal value = new BigDecimal(negative ? magnitude.negate() : magnitude, scale);
        return new EncodeException(path, out.row(),
                "decimal " + value.toPlainString() + " has more digits than DECIMAL(" + precision + ", "
                        + scale + ") holds");
    }
}
