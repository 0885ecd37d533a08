package io.columnarkafka.format.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * The fields of a JSON object read into a row (the record itself, or a nested ROW), following Flink 2.2's
 * row converter in {@code JsonParserToRowDataConverters.createRowConverter} token for token:
 * <ul>
 *   <li>a field name is matched against the row's names (plain names by their UTF-8 bytes, without a
 *       String); an unknown field is skipped token by token, never materialised;</li>
 *   <li>a repeated field is read again and the later value wins;</li>
 *   <li>Flink counts every matched field, repeats included, and once the count reaches the row's arity
 *       skips whatever follows, so a repeat can hide a later field;</li>
 *   <li>the loop ends at the first {@code END_OBJECT} token it meets, wherever a value of the wrong shape
 *       under {@code ignore-parse-errors} left the parser;</li>
 *   <li>a field that fails is reported as Flink's "Fail to deserialize at field: name.";
 *       with {@code fail-on-missing-field}, fewer matches than fields fail the row;</li>
 *   <li>fields not seen are null.</li>
 * </ul>
 */
final class JsonRowFields {
    private final String[] names;
    /** UTF-8 bytes of each name, or null for a name that UTF-8 cannot carry (matched as a String only). */
    private final byte[][] nameBytes;
    /**
     * Each name's last {@code length % 8} bytes as a little-endian word, and the mask of those bytes (see
     * {@link #sameBytes}).
     */
    private final long[] tailWords;
    private final long[] tailMasks;
    /**
     * Each name's UTF-8 bytes and closing quote, zero-padded to whole words, for {@link
     * JsonTokenizer#expectName}; null for a name that cannot be taken raw (not UTF-8, or holding a quote or
     * backslash, which a record escapes).
     */
    private final byte[][] quotedNames;
    /** The length of each name's UTF-8 bytes and closing quote in {@link #quotedNames}. */
    private final int[] quotedLengths;
    private final JsonReader[] readers;
    private final boolean failOnMissingField;
    /**
     * Flink's tree deserializer ({@link TreeJsonReader}): the object's fields are a tree node's, so only the
     * last of a repeated field is converted and no field count ends the object early.
     */
    private final boolean tree;
    /** In a tree object: the failure of each field's last value so far, thrown at the object's end. */
    private final RuntimeException[] failures;

    JsonRowFields(List<String> names, List<JsonReader> readers, boolean failOnMissingField, boolean tree) {
        this.names = names.toArray(new String[0]);
        this.readers = readers.toArray(new JsonReader[0]);
        this.failOnMissingField = failOnMissingField;
        this.tree = tree;
        this.failures = tree ? new RuntimeException[this.readers.length] : null;
        this.nameBytes = new byte[this.names.length][];
        this.tailWords = new long[this.names.length];
        this.tailMasks = new long[this.names.length];
        this.quotedNames = new byte[this.names.length][];
        this.quotedLengths = new int[this.names.length];
        for (int i = 0; i < this.names.length; i++) {
            byte[] bytes = this.names[i].getBytes(StandardCharsets.UTF_8);
            nameBytes[i] = new String(bytes, StandardCharsets.UTF_8).equals(this.names[i]) ? bytes : null;
            int tail = bytes.length & 7;
            for (int k = 0; k < tail; k++) {
                tailWords[i] |= (bytes[bytes.length - tail + k] & 0xFFL) << (8 * k);
            }
            tailMasks[i] = tail == 0 ? 0 : -1L >>> (64 - 8 * tail);
            if (nameBytes[i] != null && this.names[i].indexOf('"') < 0 && this.names[i].indexOf('\\') < 0) {
                quotedNames[i] = Arrays.copyOf(bytes, (bytes.length + 1 + 7) & ~7);
                quotedNames[i][bytes.length] = '"';
                quotedLengths[i] = bytes.length + 1;
            }
        }
    }

    int arity() {
        return readers.length;
    }

    void bind(int field, FieldVector vector) {
        readers[field].bind(vector);
    }

    /** Reads the object whose {@code START_OBJECT} is the current token into row {@code row}. */
    void readObject(JsonTokenizer t, int row) {
        int arity = readers.length;
        int matched = 0;
        if (tree) {
            nextExpecting(t, 0);
        } else {
            matched = readInSchemaOrder(t, row);
        }
        if (matched == arity && !tree) {
            // Every field read once, in order: what follows is skipped to the object's end (Flink stops
            // converting at the row's arity), and no field is left to fill with a null.
            while (t.current() != JsonTokenizer.END_OBJECT) {
                skipToNextField(t);
            }
            return;
        }
        readRemaining(t, row, matched);
    }

    /**
     * The fields as Flink's serializer writes them, each the name expected next in schema order ({@link
     * #nextExpecting}), from the first (the object's {@code START_OBJECT} is the current token): each is then the
     * first value of its field in this row, so there is no lookup, no earlier value to drop and, when all are there,
     * no null to fill. Returns how many were read; the current token is the one after the last of them, for {@link
     * #readRemaining} to go on from (the general loop, which reads them the same way: this is only its common case).
     */
    private int readInSchemaOrder(JsonTokenizer t, int row) {
        int arity = readers.length;
        int field = 0;
        // Compact JSON: from each value straight to the next field's value, one tokenizer step per field.
        while (field < arity && quotedNames[field] != null
                && t.nextExpectedValue(quotedNames[field], quotedLengths[field])) {
            readField(t, field);
            field++;
        }
        if (field == arity && t.nextEndsObject()) {
            return field;
        }
        // Anything else (whitespace, a name with escapes, another name, the object's end): the name token first.
        nextExpecting(t, field == arity ? 0 : field);
        while (field < arity && t.current() == JsonTokenizer.FIELD_NAME && t.nameWasExpected()) {
            t.next();
            readField(t, field);
            field++;
            nextExpecting(t, field == arity ? 0 : field);
        }
        return field;
    }

    /** The value of field {@code field} (the current token), its failure reported as Flink's row converter does. */
    private void readField(JsonTokenizer t, int field) {
        try {
            readers[field].read(t);
        } catch (RuntimeException e) {
            throw failure(field, e);
        }
    }

    /** The general row loop, from the current token, {@code matched} fields having been counted. */
    private void readRemaining(JsonTokenizer t, int row, int matched) {
        int arity = readers.length;
        int hint = matched == arity ? 0 : matched;
        while (t.current() != JsonTokenizer.END_OBJECT) {
            if (matched >= arity && !tree) {
                skipToNextField(t);
                continue;
            }
            int field = lookup(t, hint);
            t.next();
            if (field < 0) {
                skipToNextField(t);
                continue;
            }
            JsonReader reader = readers[field];
            if (reader.count > row) {
                reader.truncate(row);
            }
            try {
                reader.read(t);
                if (tree) {
                    failures[field] = null;
                }
            } catch (RuntimeException e) {
                if (!tree || !JsonReader.isSkippable(e)) {
                    throw failure(field, e);
                }
                // A later value of the same name replaces this one in the tree: fail at the end if none does.
                failures[field] = failure(field, e);
                reader.truncate(row);
            }
            matched++;
            hint = field + 1 == arity ? 0 : field + 1;
            nextExpecting(t, hint);
        }
        if (tree) {
            throwFirstFailure();
        }
        if (matched < arity && failOnMissingField) {
            throw new JsonReadException("Some field is missing in the JSON data.");
        }
        for (JsonReader reader : readers) {
            if (reader.count == row) {
                reader.appendNull();
            }
        }
    }

    /** Flink converts a tree object's fields in schema order: the first that failed is the object's failure. */
    private void throwFirstFailure() {
        for (int i = 0; i < failures.length; i++) {
            RuntimeException failure = failures[i];
            if (failure != null) {
                Arrays.fill(failures, null);
                throw failure;
            }
        }
    }

    /** The next token, field {@code field}'s name tried first (the schema order Flink writes). */
    private void nextExpecting(JsonTokenizer t, int field) {
        byte[] quoted = field < quotedNames.length ? quotedNames[field] : null;
        if (quoted != null) {
            t.nextExpected(quoted, quotedLengths[field]);
        } else {
            t.next();
        }
    }

    private RuntimeException failure(int field, RuntimeException e) {
        if (!JsonReader.isDataError(e) || (e instanceof JsonReadException read && read.field() != null)) {
            return e;
        }
        String reason = "Fail to deserialize at field: " + names[field] + ". " + JsonReadException.reasonOf(e);
        return e instanceof JsonReadException read ? read.inField(readers[field].path, reason)
                : new JsonReadException(readers[field].path, reason);
    }

    /**
     * The index of the field the current token names, or -1. Flink looks up the token's text whatever the
     * token is (after a value of the wrong shape it may be a value or a bracket), so other tokens are
     * matched by their text.
     */
    private int lookup(JsonTokenizer t, int hint) {
        if (t.current() == JsonTokenizer.FIELD_NAME && t.nameIsRaw()) {
            if (t.nameWasExpected()) {
                return hint;
            }
            byte[] buf = t.buffer();
            int start = t.nameStart();
            int length = t.nameEnd() - start;
            for (int k = 0, i = hint; k < nameBytes.length; k++, i = i + 1 == nameBytes.length ? 0 : i + 1) {
                byte[] name = nameBytes[i];
                if (name != null && name.length == length && sameBytes(i, name, buf, start)) {
                    return i;
                }
            }
            return -1;
        }
        String text = t.text();
        if (text == null) {
            return -1;
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(text)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * True if {@code name} (field {@code field}'s bytes) equals as many bytes of {@code buf} from {@code
     * start}, which are there: compared a word at a time, the last word (the name's tail) under a mask where
     * {@code buf} has eight bytes there, so a short name costs one load and compare. Cheaper than {@code
     * Arrays.equals}, whose set-up dominates for names this short.
     */
    private boolean sameBytes(int field, byte[] name, byte[] buf, int start) {
        int length = name.length;
        int k = 0;
        for (; k + 8 <= length; k += 8) {
            if (JsonTokenizer.word(name, k) != JsonTokenizer.word(buf, start + k)) {
                return false;
            }
        }
        if (k == length) {
            return true;
        }
        if (start + k + 8 <= buf.length) {
            return (JsonTokenizer.word(buf, start + k) & tailMasks[field]) == tailWords[field];
        }
        for (; k < length; k++) {
            if (name[k] != buf[start + k]) {
                return false;
            }
        }
        return true;
    }

    /** Flink's {@code skipToNextField}: over the current token (a whole array or object), then one more. */
    static void skipToNextField(JsonTokenizer t) {
        skipValue(t);
        t.next();
    }

    /** Over the current token: a whole array or object, leaving its end token current. */
    static void skipValue(JsonTokenizer t) {
        int token = t.current();
        if (token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY) {
            int open = 1;
            while (open > 0) {
                int next = t.next();
                if (next == JsonTokenizer.END_ARRAY || next == JsonTokenizer.END_OBJECT) {
                    open--;
                } else if (next == JsonTokenizer.START_ARRAY || next == JsonTokenizer.START_OBJECT) {
                    open++;
                } else if (next == JsonTokenizer.NONE && t.atEnd()) {
                    // Flink would loop here forever (the tokenizer fails at the end of input inside a scope,
                    // so only a parser that a failure moved out of it gets here).
                    throw JsonReadException.pastEnd("a skipped value");
                }
            }
        } else if (token == JsonTokenizer.NONE) {
            // Flink's converter fails here with a NullPointerException (a switch over a null token).
            throw new JsonReadException("Unexpected end-of-input in an object (no token to skip)");
        }
    }

    /** Appends a null entry to every field (a null nested row still has an entry in each child). */
    void appendNulls() {
        for (JsonReader reader : readers) {
            reader.appendNull();
        }
    }

    /** Makes field {@code field} of row {@code row}, the last row read, null again. */
    void setNull(int field, int row) {
        readers[field].truncate(row);
        readers[field].appendNull();
    }

    void truncate(int rows) {
        for (JsonReader reader : readers) {
            reader.truncate(rows);
        }
    }
}
