package io.columnarkafka.flink.calc.eval;

import java.nio.charset.StandardCharsets;

/**
 * A run of plain ASCII characters that every match of a regular expression contains, found in the pattern's text
 * so a string without it is known not to match before Java's regex runs. Only the simplest patterns are read, and
 * anything else gives none: no escapes ({@code \}), no inline flags or special groups ({@code (?}), no top-level
 * alternation ({@code |} outside groups), no character class opening with {@code ]}; the pattern compiled with no
 * flags. Then a top-level character (outside every group and class) that is a letter, a digit or one of
 * {@code _=:/%&,;@~!"'<># -}, not inside a quantifier's braces and not followed by a quantifier ({@code ?*+{}) stands
 * for itself in every match, and
 * neighbouring ones in a row stand together: the longest such row is the literal. UTF-8 never uses ASCII bytes
 * inside a multi-byte sequence, so the literal's bytes are searched for in any string's bytes.
 */
final class RequiredLiteral {
    private static final String PLAIN_SYMBOLS = "_=:/%&,;@~!\"'<># -";

    private final byte[] literal;

    private RequiredLiteral(byte[] literal) {
        this.literal = literal;
    }

    /** The literal every match of {@code regex} (compiled with no flags) contains, or null when none is read. */
    static RequiredLiteral of(String regex) {
        if (regex.indexOf('\\') >= 0 || regex.contains("(?")) {
            return null;
        }
        int groups = 0;
        int classes = 0;
        int bestStart = 0;
        int bestLength = 0;
        int runStart = 0;
        int runLength = 0;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            boolean topLevel = groups == 0 && classes == 0;
            boolean literal = false;
            if (c == '[') {
                if (i + 1 < regex.length() && regex.charAt(i + 1) == ']'
                        || regex.startsWith("^]", i + 1)) {
                    return null;
                }
                classes++;
            } else if (classes > 0) {
                if (c == ']') {
                    classes--;
                }
            } else if (c == '(') {
                groups++;
            } else if (c == ')') {
                groups--;
            } else if (topLevel && c == '|') {
                return null;
            } else if (topLevel && c == '{') {
                // a quantifier's bounds ("{2,3}"): its digits and comma are no characters of the match
                int close = regex.indexOf('}', i);
                if (close < 0) {
                    return null;
                }
                i = close;
            } else if (topLevel && isPlain(c)) {
                literal = i + 1 == regex.length() || "?*+{".indexOf(regex.charAt(i + 1)) < 0;
            }
            if (literal) {
                if (runLength == 0) {
                    runStart = i;
                }
                runLength++;
                if (runLength > bestLength) {
                    bestStart = runStart;
                    bestLength = runLength;
                }
            } else {
                runLength = 0;
            }
        }
        return bestLength == 0 ? null
                : new RequiredLiteral(regex.substring(bestStart, bestStart + bestLength).getBytes(StandardCharsets.US_ASCII));
    }

    /** A character that stands for itself outside a class and does not start a quantifier or a group. */
    static boolean isPlain(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || PLAIN_SYMBOLS.indexOf(c) >= 0;
    }

    /** True when bytes {@code [start, start + length)} of {@code bytes} contain the literal. */
    boolean isIn(byte[] bytes, int start, int length) {
        byte first = literal[0];
        int last = start + length - literal.length;
        for (int at = start; at <= last; at++) {
            if (bytes[at] == first && matchesAt(bytes, at)) {
                return true;
            }
        }
        return false;
    }

    private boolean matchesAt(byte[] bytes, int at) {
        for (int k = 1; k < literal.length; k++) {
            if (bytes[at + k] != literal[k]) {
                return false;
            }
        }
        return true;
    }

    /** The literal, for tests and EXPLAIN-like descriptions. */
    @Override
    public String toString() {
        return new String(literal, StandardCharsets.US_ASCII);
    }
}
