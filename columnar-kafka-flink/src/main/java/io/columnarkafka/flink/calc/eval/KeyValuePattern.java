package io.columnarkafka.flink.calc.eval;

import java.nio.charset.StandardCharsets;

/**
 * The regex shape of a key's value in a query string, {@code (&|^)channel_id=([^&]*)} (Nexmark q21), matched on the
 * bytes without Java's regex: {@code (s|^)} or {@code (^|s)} with {@code s} one plain character, a key of plain
 * characters, then {@code ([^stops]*)} with plain stop characters, and nothing else; compiled with no flags. Plain is
 * {@link RequiredLiteral#isPlain} but {@code -} (a range in a class): characters that stand for themselves outside and
 * inside a class (where two {@code &} in a row would be the class intersection {@code &&}, refused).
 *
 * <p>Java's {@code Matcher#find} tries each start position from the left and at each the alternatives in their order;
 * {@code ^} holds only at position 0 (no MULTILINE); the greedy negated class then always matches, up to the first
 * stop or the end. So the match starts at the first position {@code p} where {@code s} is at {@code p} and the key
 * at {@code p + 1}, or {@code p} is 0 and the key is at 0, the alternative written first winning at 0. All of these
 * characters are ASCII, and UTF-8 never uses an ASCII byte inside a multi-byte sequence, so the positions found in a
 * string's bytes are those of its characters.
 */
final class KeyValuePattern {
    private final byte separator;
    private final boolean anchorFirst;
    private final byte[] key;
    private final boolean[] stops = new boolean[128];

    /** Bounds of groups 0 (the match), 1 (the separator or empty) and 2 (the value) after {@link #find}. */
    private int matchStart;
    private int valueStart;
    private int valueEnd;

    private KeyValuePattern(byte separator, boolean anchorFirst, byte[] key, String stopCharacters) {
        this.separator = separator;
        this.anchorFirst = anchorFirst;
        this.key = key;
        for (int i = 0; i < stopCharacters.length(); i++) {
            stops[stopCharacters.charAt(i)] = true;
        }
    }

    /** The pattern {@code regex} (compiled with no flags) as this shape, or null when it is not of it. */
    static KeyValuePattern of(String regex) {
        boolean anchorFirst = regex.startsWith("(^|");
        int separatorAt = anchorFirst ? 3 : 1;
        if (!regex.startsWith("(") || regex.length() < separatorAt + 1 || !isPlain(regex.charAt(separatorAt))
                || !regex.startsWith(anchorFirst ? ")" : "|^)", separatorAt + 1)) {
            return null;
        }
        int keyStart = separatorAt + (anchorFirst ? 2 : 4);
        int valueGroup = regex.indexOf("([^", keyStart);
        if (valueGroup <= keyStart || !allPlain(regex, keyStart, valueGroup) || !regex.endsWith("]*)")) {
            return null;
        }
        // "([^" and "]*)" share no character, so the stops lie between them
        String stopCharacters = regex.substring(valueGroup + 3, regex.length() - 3);
        if (stopCharacters.isEmpty() || stopCharacters.contains("&&")
                || !stopCharacters.chars().allMatch(c -> isPlain((char) c))) {
            return null;
        }
        return new KeyValuePattern((byte) regex.charAt(separatorAt), anchorFirst,
                regex.substring(keyStart, valueGroup).getBytes(StandardCharsets.US_ASCII), stopCharacters);
    }

    private static boolean allPlain(String regex, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isPlain(regex.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPlain(char c) {
        return c != '-' && RequiredLiteral.isPlain(c);
    }

    /**
     * Finds the first match in bytes {@code [start, start + length)}; true when there is one, its groups' bounds then
     * read by {@link #groupStart} and {@link #groupEnd}. A match starts at the start (the anchor) or at a separator,
     * so only those positions are tried, from the left.
     */
    boolean find(byte[] bytes, int start, int length) {
        if (length < key.length) {
            return false;
        }
        int end = start + length;
        int lastSeparator = end - key.length - 1;
        // at the start both alternatives may match, the one written first winning
        boolean keyAtStart = Utf8.regionMatches(bytes, start, key);
        if (keyAtStart && anchorFirst) {
            return found(start, start + key.length, end, bytes);
        }
        if (separatedAt(bytes, start, lastSeparator)) {
            return found(start, start + 1 + key.length, end, bytes);
        }
        if (keyAtStart) {
            return found(start, start + key.length, end, bytes);
        }
        for (int p = start + 1; p <= lastSeparator; p++) {
            if (separatedAt(bytes, p, lastSeparator)) {
                return found(p, p + 1 + key.length, end, bytes);
            }
        }
        return false;
    }

    private boolean separatedAt(byte[] bytes, int p, int lastSeparator) {
        return p <= lastSeparator && bytes[p] == separator && Utf8.regionMatches(bytes, p + 1, key);
    }

    private boolean found(int match, int value, int end, byte[] bytes) {
        matchStart = match;
        valueStart = value;
        int stop = value;
        while (stop < end && (bytes[stop] < 0 || !stops[bytes[stop]])) {
            stop++;
        }
        valueEnd = stop;
        return true;
    }

    /** Where group {@code group} (0, 1 or 2) of the last match starts. */
    int groupStart(int group) {
        return group == 2 ? valueStart : matchStart;
    }

    /** Where group {@code group} (0, 1 or 2) of the last match ends. */
    int groupEnd(int group) {
        switch (group) {
            case 0:
            case 2:
                return valueEnd;
            default:
                return valueStart - key.length;
        }
    }
}
