package io.columnarkafka.flink.calc.eval;

/**
 * Which code points Java's {@link String#toUpperCase()} and {@link String#toLowerCase()} (outside the tr, az and lt
 * locales) map on their own, to what {@link Character#toUpperCase(int)} / {@link Character#toLowerCase(int)} give:
 * every one but those Java's special casing maps to more than one char or to something else (a sharp s to "SS", a
 * capital I with dot above to "i" and a combining dot), and the capital sigma, whose lower case depends on the
 * letters around it (final sigma). A BMP char is looked at once, by converting it alone as a String, the first time
 * a string holds it; a supplementary code point has no special casing in Java (checked over every one of them by
 * {@code CodePointCasesTest}).
 */
final class CodePointCases {
    /** A BMP char's entry before it is looked at: no char but NUL maps to NUL, and NUL is ASCII, not looked up. */
    private static final char UNKNOWN = 0;
    /** The entry of a char Java converts with its string around it: no case mapping gives a surrogate. */
    private static final char WITH_ITS_STRING = Character.MIN_SURROGATE;

    private static final int CAPITAL_SIGMA = 0x03A3;

    /** ASCII's upper and lower cases by byte, as {@link Character} maps them (locale-free). */
    private static final byte[] ASCII_UPPER = new byte[128];
    private static final byte[] ASCII_LOWER = new byte[128];

    /**
     * Per BMP char, its case partner, {@link #UNKNOWN} or {@link #WITH_ITS_STRING}. Shared by all threads: a racing
     * look-up writes the same value.
     */
    private static final char[] UPPER = new char[0x10000];
    private static final char[] LOWER = new char[0x10000];

    static {
        for (int c = 0; c < 128; c++) {
            ASCII_UPPER[c] = (byte) Character.toUpperCase(c);
            ASCII_LOWER[c] = (byte) Character.toLowerCase(c);
        }
    }

    private CodePointCases() {}

    /** The lower ({@code lower}) or upper case of each ASCII byte, indexed by it. */
    static byte[] ascii(boolean lower) {
        return lower ? ASCII_LOWER : ASCII_UPPER;
    }

    /**
     * The lower ({@code lower}) or upper case of {@code cp} (not ASCII, not a surrogate), or -1 where Java converts
     * it with its string around it.
     */
    static int convert(int cp, boolean lower) {
        if (cp >= 0x10000) {
            return mapped(cp, lower);
        }
        char[] partners = lower ? LOWER : UPPER;
        char partner = partners[cp];
        if (partner == UNKNOWN) {
            partner = lookUp(cp, lower);
            partners[cp] = partner;
        }
        return partner == WITH_ITS_STRING ? -1 : partner;
    }

    private static int mapped(int cp, boolean lower) {
        return lower ? Character.toLowerCase(cp) : Character.toUpperCase(cp);
    }

    private static char lookUp(int c, boolean lower) {
        if (lower && c == CAPITAL_SIGMA) {
            return WITH_ITS_STRING;
        }
        String alone = String.valueOf((char) c);
        String converted = lower ? alone.toLowerCase() : alone.toUpperCase();
        int mapped = mapped(c, lower);
        return converted.length() == 1 && converted.charAt(0) == mapped ? (char) mapped : WITH_ITS_STRING;
    }
}
