package io.columnarkafka.flink.calc.eval;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.flink.table.data.DecimalData;

/**
 * 128-bit two's complement integers as (high, low) longs: the unscaled values of DECIMAL(p ≤ 38), as
 * Arrow's 128-bit decimal stores them. Only the operations whose results stay within 128 bits for the
 * admitted types are here; the compiler checks the bounds before it admits an operation.
 */
final class Decimal128 {
    /** 10^0 .. 10^38, low and high words. */
    private static final long[] POW10_LOW = new long[39];
    private static final long[] POW10_HIGH = new long[39];

    static {
        for (int i = 0; i <= 38; i++) {
            BigInteger p = BigInteger.TEN.pow(i);
            POW10_LOW[i] = p.longValue();
            POW10_HIGH[i] = p.shiftRight(64).longValue();
        }
    }

    /** 2^64 - 1: the low word of a value as an unsigned number. */
    private static final BigInteger LOW_WORD = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private Decimal128() {}

    /** The high word of the 128-bit sum of (h1, l1) and (h2, l2). */
    static long addHigh(long h1, long l1, long h2, long l2) {
        long low = l1 + l2;
        return h1 + h2 + (Long.compareUnsigned(low, l1) < 0 ? 1 : 0);
    }

    /** The high word of the negation of (h, l); the low word is {@code -l}. */
    static long negateHigh(long h, long l) {
        return ~h + (l == 0 ? 1 : 0);
    }

    /** The high word of (h, l) × {@code m} for 0 ≤ m; the low word is {@code l * m}. */
    static long multiplyHigh(long h, long l, long m) {
        return h * m + unsignedMultiplyHigh(l, m);
    }

    /** The unsigned high word of the product of two unsigned 64-bit values (Java 17 has only the signed one). */
    static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /** Signed comparison of (h1, l1) and (h2, l2). */
    static int compare(long h1, long l1, long h2, long l2) {
        int high = Long.compare(h1, h2);
        return high != 0 ? high : Long.compareUnsigned(l1, l2);
    }

    /** True when |(h, l)| < 10^precision, i.e. the unscaled value fits DECIMAL(precision, s). */
    static boolean fits(long h, long l, int precision) {
        if (h >= 0) {
            return compare(h, l, POW10_HIGH[precision], POW10_LOW[precision]) < 0;
        }
        long nl = -l;
        long nh = negateHigh(h, l);
        return compare(nh, nl, POW10_HIGH[precision], POW10_LOW[precision]) < 0;
    }

    /** 10^k for 0 ≤ k ≤ 18, as a long. */
    static long pow10(int k) {
        return POW10_LOW[k];
    }

    /** (h, l) as the unscaled value of a {@link BigDecimal} of scale {@code scale}. */
    static BigDecimal toBigDecimal(long h, long l, int scale) {
        if (h == l >> 63) {
            return BigDecimal.valueOf(l, scale);
        }
        BigInteger unscaled = BigInteger.valueOf(h).shiftLeft(64).or(BigInteger.valueOf(l).and(LOW_WORD));
        return new BigDecimal(unscaled, scale);
    }

    /** (h, l) as Flink's value of DECIMAL(precision, scale). */
    static DecimalData toDecimalData(long h, long l, int precision, int scale) {
        return DecimalData.isCompact(precision) ? DecimalData.fromUnscaledLong(l, precision, scale)
                : DecimalData.fromBigDecimal(toBigDecimal(h, l, scale), precision, scale);
    }

    /** Flink's value {@code d} of DECIMAL(precision, scale) into row {@code row} of {@code out}. */
    static void put(DecimalData d, int precision, int scale, Column out, int row) {
        if (DecimalData.isCompact(precision)) {
            long unscaled = d.toUnscaledLong();
            out.longs[row] = unscaled;
            out.highs[row] = unscaled >> 63;
        } else {
            BigInteger unscaled = d.toBigDecimal().setScale(scale).unscaledValue();
            out.longs[row] = unscaled.longValue();
            out.highs[row] = unscaled.shiftRight(64).longValue();
        }
    }
}
