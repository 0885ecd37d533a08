package io.columnarkafka.format.avro;

/**
 * Reads one top-level string field of the schema registry's small JSON answers (e.g. {@code {"schema": "..."}})
 * without a JSON library: the format module has none, and the answers are flat objects whose values the
 * registry writes as JSON strings, numbers or arrays of objects.
 */
final class JsonStringField {
    private JsonStringField() {}

    /** The unescaped value of the string field {@code name} of the object {@code json}, or null if absent. */
    static String of(String json, String name) {
        String key = '"' + name + '"';
        int depth = 0;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '"') {
                int end = endOfString(json, i);
                if (depth == 1 && json.startsWith(key, i)) {
                    int colon = skipSpace(json, end);
                    if (colon < json.length() && json.charAt(colon) == ':') {
                        int value = skipSpace(json, colon + 1);
                        return value < json.length() && json.charAt(value) == '"' ? unescape(json, value) : null;
                    }
                }
                i = end - 1;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return null;
    }

    /** The index just after the string literal starting at {@code start}. */
    private static int endOfString(String json, int start) {
        for (int i = start + 1; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i + 1;
            }
        }
        throw new IllegalStateException("unterminated JSON string in the schema registry's answer: " + json);
    }

    private static int skipSpace(String json, int i) {
        while (i < json.length() && Character.isWhitespace(json.charAt(i))) {
            i++;
        }
        return i;
    }

    private static String unescape(String json, int start) {
        StringBuilder out = new StringBuilder();
        for (int i = start + 1; ; i++) {
            char c = json.charAt(i);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = json.charAt(++i);
            switch (e) {
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    out.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> out.append(e); // \" \\ \/
            }
        }
    }
}
