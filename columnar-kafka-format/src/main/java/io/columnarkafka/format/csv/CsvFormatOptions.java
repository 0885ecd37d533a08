package io.columnarkafka.format.csv;

import java.util.Map;
import java.util.Set;

/**
 * Options of Flink's {@code csv} format (keys without the {@code csv.} prefix), validated as Flink's
 * {@code CsvCommons.validateFormatOptions} does. The deserialization-only options ({@code
 * allow-comments}, {@code ignore-parse-errors}) have no effect on writing, as in Flink.
 *
 * @param fieldDelimiter the column separator ({@code ,}); Flink unescapes Java escapes such as {@code \t}
 * @param quoteCharacter the quote character ({@code "}), or -1 with {@code disable-quote-character}
 * @param arrayElementDelimiter joins the elements of ARRAY and the fields of ROW columns ({@code ;})
 * @param escapeCharacter the escape character, or -1 (the default: none)
 * @param nullLiteral what a null is written as ({@code ""} by default)
 * @param scientificDecimals {@code write-bigdecimal-in-scientific-notation}: only an explicit {@code true}
 *     makes Flink write {@code stripTrailingZeros().toString()}; otherwise decimals are plain
 * @param readNullLiteral the value read as null, or null when {@code null-literal} is not set (reading,
 *     unlike writing, then has no null literal: an empty field is an empty string)
 * @param allowComments {@code allow-comments}: lines starting with {@code #} before the record are skipped
 * @param ignoreParseErrors {@code ignore-parse-errors}: a malformed record is skipped and a field that
 *     does not parse is null
 */
public record CsvFormatOptions(
        char fieldDelimiter,
        int quoteCharacter,
        String arrayElementDelimiter,
        int escapeCharacter,
        String nullLiteral,
        boolean scientificDecimals,
        String readNullLiteral,
        boolean allowComments,
        boolean ignoreParseErrors) {

    static final Set<String> KEYS = Set.of("field-delimiter", "disable-quote-character", "quote-character",
            "allow-comments", "ignore-parse-errors", "array-element-delimiter", "escape-character", "null-literal",
            "write-bigdecimal-in-scientific-notation");

    public static CsvFormatOptions defaults() {
        return fromMap(Map.of());
    }

    /**
     * Parses Flink's options.
     *
     * @throws IllegalArgumentException for an unknown key, a bad value, or a quote character given with
     *     {@code disable-quote-character}
     */
    public static CsvFormatOptions fromMap(Map<String, String> options) {
        for (String key : options.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("csv format has no option '" + key + "'; supported: "
                        + new java.util.TreeSet<>(KEYS));
            }
        }
        boolean disableQuote = bool(options, "disable-quote-character");
        if (disableQuote && options.containsKey("quote-character")) {
            throw new IllegalArgumentException(
                    "Format cannot define a quote character and disabled quote character at the same time.");
        }
        char delimiter = singleChar(options, "field-delimiter", ",", true);
        String arrayDelimiter = options.getOrDefault("array-element-delimiter", ";");
        singleChar(options, "array-element-delimiter", ";", false);
        int quote = disableQuote ? -1 : singleChar(options, "quote-character", "\"", false);
        int escape = options.containsKey("escape-character")
                ? singleChar(options, "escape-character", null, false) : -1;
        return new CsvFormatOptions(delimiter, quote, arrayDelimiter, escape,
                options.getOrDefault("null-literal", ""), bool(options, "write-bigdecimal-in-scientific-notation"),
                options.get("null-literal"), bool(options, "allow-comments"), bool(options, "ignore-parse-errors"));
    }

    /** As Flink's {@code validateCharacterVal}: one character, after Java unescaping for the delimiter. */
    private static char singleChar(Map<String, String> options, String key, String fallback, boolean unescape) {
        String value = options.getOrDefault(key, fallback);
        String checked = unescape ? unescapeJava(value) : value;
        if (checked.length() != 1) {
            throw new IllegalArgumentException(String.format(
                    "Option 'csv.%s' must be a string with single character, but was: %s", key, value));
        }
        return checked.charAt(0);
    }

    private static boolean bool(Map<String, String> options, String key) {
        String value = options.get(key);
        if (value == null) {
            return false;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("csv option '" + key + "' must be true or false, but was: " + value);
    }

    /**
     * Commons Text's {@code unescapeJava}, which Flink applies to the field delimiter before requiring one
     * char: short escapes, octal escapes, {@code \\uXXXX} (malformed ones fail); a backslash
     * before any other char, or alone at the end, vanishes.
     */
    static String unescapeJava(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                i++;
                continue;
            }
            if (i + 1 == s.length()) {
                break;
            }
            char e = s.charAt(i + 1);
            int hex = i + 6 <= s.length() ? parseHex(s.substring(i + 2, i + 6)) : -1;
            if (e == 'u') {
                if (hex < 0) {
                    throw new IllegalArgumentException("Unable to parse unicode value in: " + s);
                }
                out.append((char) hex);
                i += 6;
            } else if (e >= '0' && e <= '7') {
                int end = i + 2;
                int max = i + (e <= '3' ? 4 : 3);
                while (end < s.length() && end < max && s.charAt(end) >= '0' && s.charAt(end) <= '7') {
                    end++;
                }
                out.append((char) Integer.parseInt(s.substring(i + 1, end), 8));
                i = end;
            } else {
                int k = "tnrfb\\'\"".indexOf(e);
                out.append(k >= 0 ? "\t\n\r\f\b\\'\"".charAt(k) : e);
                i += 2;
            }
        }
        return out.toString();
    }

    private static int parseHex(String digits) {
        for (int k = 0; k < digits.length(); k++) {
            if (Character.digit(digits.charAt(k), 16) < 0) {
                return -1;
            }
        }
        return Integer.parseInt(digits, 16);
    }
}
