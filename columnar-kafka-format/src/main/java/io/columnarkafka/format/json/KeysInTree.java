package io.columnarkafka.format.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Which of a row's field names are a key anywhere in a JSON value, at any depth: Jackson's {@code
 * JsonNode.findValue(name) != null}, which Flink's Canal and Maxwell deserializers ask of the whole {@code old}
 * node to tell a changed field (a key there, even JSON null, even in another row or nested deeper) from an
 * unchanged one. Names are compared by their UTF-8 bytes, escaped keys by their text.
 */
final class KeysInTree {
    private final String[] names;
    /** UTF-8 bytes of each name, or null for a name UTF-8 cannot carry (compared as a String only). */
    private final byte[][] nameBytes;
    private final boolean[] found;

    KeysInTree(List<String> names) {
        this.names = names.toArray(new String[0]);
        this.nameBytes = new byte[this.names.length][];
        for (int i = 0; i < this.names.length; i++) {
            byte[] bytes = this.names[i].getBytes(StandardCharsets.UTF_8);
            nameBytes[i] = new String(bytes, StandardCharsets.UTF_8).equals(this.names[i]) ? bytes : null;
        }
        this.found = new boolean[this.names.length];
    }

    /**
     * Scans the structure whose start is the current token, leaving its end token current; returns, for each
     * name, whether it is a key in it (an array reused by the next scan).
     */
    boolean[] scan(JsonTokenizer t) {
        Arrays.fill(found, false);
        int open = 1;
        while (open > 0) {
            int token = t.next();
            if (token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY) {
                open++;
            } else if (token == JsonTokenizer.END_OBJECT || token == JsonTokenizer.END_ARRAY) {
                open--;
            } else if (token == JsonTokenizer.FIELD_NAME) {
                mark(t);
            }
        }
        return found;
    }

    private void mark(JsonTokenizer t) {
        if (t.nameIsRaw()) {
            byte[] buf = t.buffer();
            int start = t.nameStart();
            int end = t.nameEnd();
            for (int i = 0; i < names.length; i++) {
                byte[] name = nameBytes[i];
                if (name != null && name.length == end - start && Arrays.equals(buf, start, end, name, 0, name.length)) {
                    found[i] = true;
                }
            }
            return;
        }
        String key = t.name();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(key)) {
                found[i] = true;
            }
        }
    }
}
