package io.columnarkafka.testkit.nexmark;

import java.util.SplittableRandom;

/**
 * Nexmark's random text, as the suite's {@code StringsGenerator} shapes it: words of 3 to {@code max - 1}
 * lower-case letters with a separator in 1 of 13 places, and "extra" padding cut from one pool of random
 * letters built once from the seed, sized so an event averages the configured bytes (±20 %).
 */
final class NexmarkStrings {
    private static final int MIN_STRING_LENGTH = 3;
    private static final int POOL_LENGTH = 1 << 20;

    private final String pool;

    NexmarkStrings(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        char[] letters = new char[POOL_LENGTH];
        for (int i = 0; i < POOL_LENGTH; i++) {
            letters[i] = (char) ('a' + random.nextInt(26));
        }
        this.pool = new String(letters);
    }

    /** 3 to {@code maxLength - 1} characters, {@code special} in 1 of 13 places, trimmed of spaces. */
    static String word(SplittableRandom random, int maxLength, char special) {
        int length = MIN_STRING_LENGTH + random.nextInt(maxLength - MIN_STRING_LENGTH);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(random.nextInt(13) == 0 ? special : (char) ('a' + random.nextInt(26)));
        }
        return text.toString().trim();
    }

    /**
     * Padding such that {@code currentSize} plus its length averages {@code averageSize}: uniform in
     * the remainder ±20 %, empty if the event is already larger.
     */
    String extra(SplittableRandom random, int currentSize, int averageSize) {
        if (currentSize > averageSize) {
            return "";
        }
        int wanted = averageSize - currentSize;
        int delta = (int) Math.round(wanted * 0.2);
        int length = wanted - delta + (delta == 0 ? 0 : random.nextInt(2 * delta));
        int offset = random.nextInt(POOL_LENGTH - length);
        return pool.substring(offset, offset + length);
    }
}
