package io.columnarkafka.format.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The text Flink's string converter makes of an object or array: {@code jp.readValueAsTree().toString()},
 * i.e. Jackson 2.18 builds a {@code JsonNode} tree and writes it compactly. Reproduced here: a repeated
 * key keeps its first position and takes the later value; integers are written canonically ({@code -0}
 * becomes {@code 0}); floats are a {@code DoubleNode} ({@code Double.toString}, non-finite values quoted)
 * or, when the row type holds a DECIMAL, a {@code BigDecimal} with trailing zeros stripped; strings and
 * keys are re-escaped as Jackson's generator does. Rare (a string column fed an object), so it is built
 * with ordinary objects.
 */
final class JsonTreeText {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private JsonTreeText() {}

    /** Reads the structure whose start is the current token, leaving its end token current. */
    static String read(JsonTokenizer t, boolean bigDecimalFloats) {
        StringBuilder out = new StringBuilder();
        write(t, bigDecimalFloats, out);
        return out.toString();
    }

    /**
     * Consumes the structure whose start is the current token as {@link #read} does, failing where it fails,
     * without building its text: only the tokenizer can fail, and a float read as {@code BigDecimal} whose
     * exponent has ten or more digits (with fewer, its scale fits an int and nothing can fail).
     */
    static void check(JsonTokenizer t, boolean bigDecimalFloats) {
        int open = 1;
        while (open > 0) {
            int token = t.next();
            if (token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY) {
                open++;
            } else if (token == JsonTokenizer.END_OBJECT || token == JsonTokenizer.END_ARRAY) {
                open--;
            } else if (token == JsonTokenizer.VALUE_NUMBER_FLOAT && bigDecimalFloats && t.exponentDigits() > 9) {
                bigDecimalText(t);
            } else if (token == JsonTokenizer.NONE && t.atEnd()) {
                // Unreachable from a structure the tokenizer opened (it fails at the end of input inside one).
                throw new JsonReadException("Unexpected end-of-input in a structure");
            }
        }
    }

    /**
     * Over the current value (a structure whole, leaving its end token current) as Jackson's {@code readTree}
     * builds it, failing where it fails: Flink's changelog deserializers parse the whole record into a tree, so a
     * float read as {@code BigDecimal} whose exponent overflows fails the record wherever it is, in a field no
     * row reads too.
     */
    static void skip(JsonTokenizer t, boolean bigDecimalFloats) {
        int token = t.current();
        if (token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY) {
            check(t, bigDecimalFloats);
        } else if (token == JsonTokenizer.VALUE_NUMBER_FLOAT && bigDecimalFloats && t.exponentDigits() > 9) {
            bigDecimalText(t);
        }
    }

    private static void write(JsonTokenizer t, boolean bigDecimalFloats, StringBuilder out) {
        switch (t.current()) {
            case JsonTokenizer.START_OBJECT: {
                Map<String, String> members = new LinkedHashMap<>();
                while (t.next() != JsonTokenizer.END_OBJECT) {
                    String key = t.name();
                    t.next();
                    StringBuilder value = new StringBuilder();
                    write(t, bigDecimalFloats, value);
                    members.put(key, value.toString());
                }
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, String> member : members.entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    out.append(quoted(member.getKey())).append(':').append(member.getValue());
                }
                out.append('}');
                break;
            }
            case JsonTokenizer.START_ARRAY: {
                out.append('[');
                boolean first = true;
                while (t.next() != JsonTokenizer.END_ARRAY) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    write(t, bigDecimalFloats, out);
                }
                out.append(']');
                break;
            }
            case JsonTokenizer.VALUE_STRING:
                out.append(quoted(t.text()));
                break;
            case JsonTokenizer.VALUE_NUMBER_INT:
                out.append(new BigInteger(t.text()));
                break;
            case JsonTokenizer.VALUE_NUMBER_FLOAT:
                if (bigDecimalFloats) {
                    out.append(bigDecimalText(t));
                } else {
                    double d = Double.parseDouble(t.text());
                    out.append(Double.isFinite(d) ? Double.toString(d) : '"' + Double.toString(d) + '"');
                }
                break;
            default:
                // true, false, null: the tokenizer only yields balanced structures here.
                out.append(t.text());
        }
    }

    private static BigDecimal bigDecimalText(JsonTokenizer t) {
        return new BigDecimal(t.text()).stripTrailingZeros();
    }

    /**
     * A string as Jackson's char-based generator ({@code writeValueAsString}) writes it: {@code "} and
     * {@code \} escaped, {@code \b \t \n \f \r} short, other chars below 0x20 as <code>&#92;u00XX</code>;
     * every other char as it is, surrogates included (Flink's UTF-8 encoding later turns an unpaired one
     * into {@code ?}).
     */
    private static String quoted(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                default:
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
            }
        }
        return out.append('"').toString();
    }
}
