package io.columnarkafka.flink.calc.eval;

/** One 128-bit value being brought to another scale; a scratch register, reused per row. */
final class DecimalScaler {
    long high;
    long low;

    /** Row {@code i} of a DECIMAL or integer column. */
    DecimalScaler load(Column c, int i) {
        low = c.longs[i];
        high = c.repr == Repr.DECIMAL ? c.highs[i] : low >> 63;
        return this;
    }

    /** × 10^k, k ≥ 0; the compiler has checked the result fits 128 bits. */
    DecimalScaler scale(int k) {
        while (k > 0) {
            int step = Math.min(k, 18);
            long m = Decimal128.pow10(step);
            high = Decimal128.multiplyHigh(high, low, m);
            low = low * m;
            k -= step;
        }
        return this;
    }
}
