package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.format.text.Digits;
import java.util.Arrays;

/**
 * A DATE_FORMAT pattern of numeric fields and plain literals, written from {@link TimestampText#fields} with no
 * objects, in the bytes {@link java.time.format.DateTimeFormatter#ofPattern(String)} prints for it. Admitted letters,
 * as {@code DateTimeFormatterBuilder#appendPattern} reads them: {@code yyyy} and {@code uuuu} (year of era, year:
 * four digits for years 1–9999, which is all {@link #fits} lets through), {@code M}/{@code MM}, {@code d}/{@code dd},
 * {@code H}/{@code HH}, {@code m}/{@code mm}, {@code s}/{@code ss} (the value, or two digits zero-padded) and
 * {@code S} repeated 1–9 times (that many leading digits of the nanos of the second, truncated); any other ASCII
 * character but {@code '[]{}#} is a literal. Other patterns ({@code of} returns null) and other years stay with
 * Java's formatter.
 */
final class NumericDatePattern {
    /** Step kinds: a literal byte, or the {@link TimestampText} field index of a number. */
    private static final int LITERAL = -1;
    private static final int FRACTION = TimestampText.NANO;

    private final int[] kinds;
    private final int[] widths;
    private final byte[] literals;
    private final int maxLength;

    private NumericDatePattern(int[] kinds, int[] widths, byte[] literals) {
        this.kinds = kinds;
        this.widths = widths;
        this.literals = literals;
        int length = 0;
        for (int k = 0; k < kinds.length; k++) {
            // an unpadded field (width 1) of the clock or calendar has at most two digits
            length += kinds[k] == LITERAL ? 1 : Math.max(widths[k], 2);
        }
        this.maxLength = length;
    }

    /** The pattern's steps, or null when it uses anything but the admitted letters and literals. */
    static NumericDatePattern of(String pattern) {
        int[] kinds = new int[pattern.length()];
        int[] widths = new int[pattern.length()];
        byte[] literals = new byte[pattern.length()];
        int steps = 0;
        for (int p = 0; p < pattern.length(); ) {
            char c = pattern.charAt(p);
            int count = 1;
            while (p + count < pattern.length() && pattern.charAt(p + count) == c) {
                count++;
            }
            int kind = kind(c, count);
            if (kind == LITERAL) {
                if (c >= 0x80 || isLetter(c) || "'[]{}#".indexOf(c) >= 0) {
                    return null;
                }
                count = 1;
                literals[steps] = (byte) c;
            }
            kinds[steps] = kind;
            widths[steps] = count;
            steps++;
            p += count;
        }
        return new NumericDatePattern(Arrays.copyOf(kinds, steps), Arrays.copyOf(widths, steps),
                Arrays.copyOf(literals, steps));
    }

    /** The field a run of {@code count} letters {@code c} prints, or {@link #LITERAL} for anything else. */
    private static int kind(char c, int count) {
        switch (c) {
            case 'y':
            case 'u':
                return count == 4 ? TimestampText.YEAR : LITERAL;
            case 'M':
                return count <= 2 ? TimestampText.MONTH : LITERAL;
            case 'd':
                return count <= 2 ? TimestampText.DAY : LITERAL;
            case 'H':
                return count <= 2 ? TimestampText.HOUR : LITERAL;
            case 'm':
                return count <= 2 ? TimestampText.MINUTE : LITERAL;
            case 's':
                return count <= 2 ? TimestampText.SECOND : LITERAL;
            case 'S':
                return count <= 9 ? FRACTION : LITERAL;
            default:
                return LITERAL;
        }
    }

    private static boolean isLetter(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }

    /** Most bytes {@link #write} stores. */
    int maxLength() {
        return maxLength;
    }

    /** True when {@code fields} print as {@link #write} writes them: years 1–9999. */
    static boolean fits(int[] fields) {
        return fields[TimestampText.YEAR] >= 1 && fields[TimestampText.YEAR] <= 9999;
    }

    /** Writes {@code fields} ({@link #fits}) at {@code at}, room for {@link #maxLength} made; returns the length. */
    int write(int[] fields, byte[] to, int at) {
        int p = at;
        for (int k = 0; k < kinds.length; k++) {
            int kind = kinds[k];
            if (kind == LITERAL) {
                to[p++] = literals[k];
            } else if (kind == FRACTION) {
                int digits = widths[k];
                p = Digits.putPadded(to, p, fields[FRACTION] / POWERS_OF_TEN[9 - digits], digits);
            } else {
                p = Digits.putPadded(to, p, fields[kind], widths[k]);
            }
        }
        return p - at;
    }

    private static final int[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000,
        100_000_000};
}
