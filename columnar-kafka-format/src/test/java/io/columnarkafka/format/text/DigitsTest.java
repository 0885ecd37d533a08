package io.columnarkafka.format.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Digit counts and decimal text as {@code Long.toString} spells them, at every power-of-ten boundary. */
class DigitsTest {
    @Test
    void digitCountAndTextAgreeWithLongToString() {
        int compared = 0;
        long power = 1;
        for (int exponent = 0; exponent <= 18; exponent++, power *= 10) {
            for (long v : new long[] {power - 1, power, power + 1}) {
                check(v);
                compared++;
            }
        }
        for (int bits = 0; bits < 63; bits++) {
            check(1L << bits);
            check((1L << bits) - 1);
            compared += 2;
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            check(random.nextLong() >>> random.nextInt(64));
            compared++;
        }
        check(Long.MAX_VALUE);
        check(Long.MIN_VALUE);
        assertThat(compared).isGreaterThan(100_000);
    }

    private static void check(long v) {
        String expected = Long.toString(v);
        if (v >= 0) {
            assertThat(Digits.digitCount(v)).as("digits of %d", v).isEqualTo(expected.length());
        }
        byte[] out = new byte[Digits.MAX_LONG_BYTES];
        int end = Digits.putLong(out, 0, v);
        assertThat(new String(out, 0, end, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo(expected);
    }
}
