package io.columnarkafka.format.json;

import static io.columnarkafka.format.json.BeforeAfterJsonBatchDecoder.named;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decodes {@code canal-json} and {@code maxwell-json} change events into Arrow rows plus a TINYINT row-kind
 * column holding {@code RowKind.toByteValue()}, the rows and kinds Flink 2.2's {@code CanalJsonDeserializationSchema}
 * and {@code MaxwellJsonDeserializationSchema} collect for the same bytes ({@link DataOldEvents} names the
 * operations):
 * <ul>
 *   <li>insert: each row of {@code data} as INSERT; delete: each as DELETE; update: for each row of {@code data}
 *       the row of {@code old} at the same index as UPDATE_BEFORE, then the {@code data} row as UPDATE_AFTER
 *       (Canal's arrays; Maxwell's {@code data} and {@code old} are one row each);</li>
 *   <li>an UPDATE_BEFORE field is {@code old}'s where its name is a key anywhere in the whole {@code old} value
 *       ({@link KeysInTree}: Flink's {@code findValue}), else the {@code data} row's (the field did not change);</li>
 *   <li>Canal's CREATE (a DDL event), an event whose {@code database} or {@code table} does not match Canal's
 *       {@code *.include} pattern, and a null or empty record (tombstone) yield no row;</li>
 *   <li>a missing or unknown {@code type}, a record that is not a JSON object, a missing {@code database} or
 *       {@code table} under a filter, a {@code data} or {@code old} row that is missing, null or not an object
 *       where a row is collected, or a value that fails to convert anywhere in {@code data} or {@code old} (rows
 *       collected or not: Flink converts them all first) fails the record; of several failures, the error is Flink's
 *       first (a value or shape in {@code data}, then in {@code old}, then the operation's);</li>
 *   <li>under {@code ignore-parse-errors} a value that fails is null (Flink's converters), and a failing record
 *       yields no row, except that Canal keeps the rows of the {@code data} entries before the one that failed
 *       (Flink's list of collected rows is emitted after its catch).</li>
 * </ul>
 *
 * <p>Flink parses the whole record into a Jackson tree first, so the rows are read by the tree readers ({@link
 * TreeJsonReader}), a repeated envelope field keeps its last value, and each record is read twice by the one
 * tokenizer: the envelope, skipping {@code data} and {@code old} but marking where each of their rows starts;
 * then the rows the operation collects, from their marks. An UPDATE_BEFORE row is read as its {@code data} row,
 * then the fields named in {@code old} made null and read again from the {@code old} row.
 */
public final class DataOldJsonBatchDecoder extends RowKindJsonDecoder {
    private static final byte[] DATA = {'d', 'a', 't', 'a'};
    private static final byte[] OLD = {'o', 'l', 'd'};
    private static final byte[] TYPE = {'t', 'y', 'p', 'e'};
    private static final byte[] DATABASE = {'d', 'a', 't', 'a', 'b', 'a', 's', 'e'};
    private static final byte[] TABLE = {'t', 'a', 'b', 'l', 'e'};

    private final DataOldEvents events;
    private final DataOldDecodeOptions options;
    private final KeysInTree keys;
    private final ChangeEvent event = new ChangeEvent();

    /**
     * Plans a decoder of {@code physical}'s rows.
     *
     * @throws IllegalArgumentException if a type is not supported by Flink's JSON format or has no Arrow
     *     layout, or the row-kind column's name is one of {@code physical}'s fields
     */
    public DataOldJsonBatchDecoder(DataOldEvents events, RowType physical, DataOldDecodeOptions options) {
        super(events.product, physical, options.json(), options.rowKindColumn());
        this.events = events;
        this.options = options;
        this.keys = new KeysInTree(physical.getFieldNames());
    }

    @Override
    void decodeRecord(byte[] array, int offset, int length, int record) {
        event.read(tokenizer, array, offset, length);
        if (!included(event.database, options.databaseInclude(), "database")
                || !included(event.table, options.tableInclude(), "table")) {
            return;
        }
        if (!event.rootObject) {
            throw new JsonReadException("the record is not a JSON object");
        }
        if (ignoreParseErrors) {
            decodeOperation(record, array, offset, length);
            return;
        }
        try {
            event.data.requireShape("data");
            event.old.requireShape("old");
            decodeOperation(record, array, offset, length);
        } catch (RuntimeException e) {
            if (!JsonReader.isDataError(e)) {
                throw e;
            }
            // Flink converts all of data, then all of old, before it collects a row or looks at type: a value
            // or shape failing there is its error, whatever ours found first.
            convertInFlinksOrder(event.data, "data");
            convertInFlinksOrder(event.old, "old");
            throw e;
        }
    }

    /** The rows the operation of the event collects, as {@code decodeRecord} says. */
    private void decodeOperation(int record, byte[] array, int offset, int length) {
        switch (event.op) {
            case DataOldEvents.INSERT -> emitEach(RowKindColumn.INSERT, record);
            case DataOldEvents.DELETE -> emitEach(RowKindColumn.DELETE, record);
            case DataOldEvents.UPDATE -> emitUpdates(record);
            case DataOldEvents.DDL -> {
                // A DDL event: Flink has converted data and old (a value that fails fails it), then skips it.
                checkRows(event.data, 0);
                checkRows(event.old, 0);
            }
            case ChangeEvent.NO_OP -> throw new JsonReadException("the \"type\" field is missing or null");
            default -> throw new JsonReadException("Unknown \"type\" value \"" + event.opText + "\". The "
                    + events.product + " JSON message is '" + new String(array, offset, length,
                            StandardCharsets.UTF_8) + "'");
        }
    }

    /**
     * Canal's filters: {@code root.get(name).asText()} matched whole against the pattern; a missing field (or a
     * record that is not an object) fails the record.
     */
    private static boolean included(String text, Pattern include, String name) {
        if (include == null) {
            return true;
        }
        if (text == null) {
            throw new JsonReadException("the \"" + name + "\" field is missing (" + name + ".include is set)");
        }
        return include.matcher(text).matches();
    }

    /** Each {@code data} row as a row of kind {@code kind}; then, as Flink converts it too, {@code old}. */
    private void emitEach(byte kind, int record) {
        Rows data = event.data;
        if (data.absent()) {
            fail("the \"data\" field is missing or null");
            return;
        }
        for (int i = 0; i < data.size; i++) {
            if (data.kinds[i] != Rows.OBJECT) {
                fail("entry " + i + " of \"data\" is null or not an object");
                return;
            }
            emit(data.marks[i], kind, record);
        }
        checkRows(event.old, 0);
    }

    /** Each {@code data} row as UPDATE_BEFORE (its {@code old} row overlaid) then UPDATE_AFTER. */
    private void emitUpdates(int record) {
        Rows data = event.data;
        Rows old = event.old;
        if (data.absent()) {
            fail("the \"data\" field is missing or null");
            return;
        }
        boolean[] changed = null;
        for (int i = 0; i < data.size; i++) {
            if (old.absent() || i >= old.size) {
                fail("\"old\" has no entry " + i + " for the update's row " + i + " of \"data\"");
                return;
            }
            if (data.kinds[i] != Rows.OBJECT || old.kinds[i] != Rows.OBJECT) {
                fail("entry " + i + " of \"data\" or \"old\" is null or not an object");
                return;
            }
            if (changed == null) {
                tokenizer.reset(event.oldMark);
                changed = keys.scan(tokenizer);
            }
            int row = rows.next();
            tokenizer.reset(data.marks[i]);
            fields.readObject(tokenizer, row);
            for (int f = 0; f < changed.length; f++) {
                if (changed[f]) {
                    fields.setNull(f, row);
                }
            }
            tokenizer.reset(old.marks[i]);
            fields.readObject(tokenizer, row);
            setKind(row, RowKindColumn.UPDATE_BEFORE);
            rows.added(record);
            emit(data.marks[i], RowKindColumn.UPDATE_AFTER, record);
        }
        checkRows(old, data.size);
    }

    /**
     * A row Flink cannot collect: its loop fails with a NullPointerException or an index out of bounds. Under
     * {@code ignore-parse-errors} the rows collected so far are kept (Flink emits its list after the catch).
     */
    private void fail(String reason) {
        if (!ignoreParseErrors) {
            throw new JsonReadException(reason);
        }
    }

    /**
     * Converts, and drops, every row of {@code rows} in order as Flink's tree converter does, failing as it fails
     * first: at a value that does not convert, or at {@code rows} or an entry of the wrong shape. Only on a failing
     * record, so the rows collected are read once.
     */
    private void convertInFlinksOrder(Rows rows, String name) {
        if (rows.state == Rows.WRONG_SHAPE) {
            rows.requireShape(name);
        }
        for (int i = 0; i < rows.size; i++) {
            if (rows.kinds[i] == Rows.OBJECT) {
                convert(rows.marks[i]);
            } else if (rows.kinds[i] == Rows.OTHER) {
                rows.requireShape(name);
            }
        }
    }

    /**
     * Converts, and drops, the rows of {@code rows} from {@code from} on: Flink converts every row of {@code
     * data} and {@code old} before it looks at {@code type}, and a value that fails fails the record. Under
     * {@code ignore-parse-errors} nothing can fail, so nothing is read.
     */
    private void checkRows(Rows rows, int from) {
        if (ignoreParseErrors || rows.absent()) {
            return;
        }
        for (int i = from; i < rows.size; i++) {
            if (rows.kinds[i] == Rows.OBJECT) {
                convert(rows.marks[i]);
            }
        }
    }

    /**
     * The rows of {@code data} or {@code old} as Flink's tree holds them: absent (missing or JSON null), of the
     * wrong shape (not an array for Canal, not an object for Maxwell), or present: each row an {@link #OBJECT}
     * (marked at its opening brace, to be read later), {@link #NULL}, or {@link #OTHER} (not an object).
     */
    private static final class Rows {
        static final byte OBJECT = 0;
        static final byte NULL = 1;
        static final byte OTHER = 2;
        static final int ABSENT = 0;
        static final int WRONG_SHAPE = 1;
        static final int PRESENT = 2;

        int state;
        int size;
        byte[] kinds = new byte[4];
        JsonTokenizer.Mark[] marks = new JsonTokenizer.Mark[0];

        void clear(int state) {
            this.state = state;
            size = 0;
        }

        /** Under {@code ignore-parse-errors} a value of the wrong shape converts to null. */
        boolean absent() {
            return state != PRESENT;
        }

        /** Appends a row; for an {@link #OBJECT}, marks it at the tokenizer's current token (its brace). */
        void add(JsonTokenizer t, byte kind) {
            if (size == kinds.length) {
                kinds = java.util.Arrays.copyOf(kinds, size * 2);
            }
            if (size == marks.length) {
                marks = java.util.Arrays.copyOf(marks, Math.max(4, size * 2));
            }
            if (marks[size] == null) {
                marks[size] = new JsonTokenizer.Mark();
            }
            if (kind == OBJECT) {
                t.mark(marks[size]);
            }
            kinds[size++] = kind;
        }

        /** Flink's converters cast to {@code ArrayNode} and {@code ObjectNode}: a wrong shape fails the record. */
        void requireShape(String name) {
            if (state == WRONG_SHAPE) {
                throw new JsonReadException(name, "Fail to deserialize at field: " + name + ". the value is not "
                        + "of the shape the format expects");
            }
            for (int i = 0; i < size; i++) {
                if (kinds[i] == OTHER) {
                    throw new JsonReadException(name, "Fail to deserialize at field: " + name + ". entry " + i
                            + " is not a JSON object");
                }
            }
        }
    }

    /** The envelope of one record as Flink's tree holds it; the last of a repeated field wins. */
    private final class ChangeEvent {
        /** The operation was missing or null. */
        static final int NO_OP = -1;
        /** The operation was some other value ({@link #opText}). */
        static final int OTHER_OP = -2;

        final Rows data = new Rows();
        final Rows old = new Rows();
        /** Where the {@code old} value starts, for the scan of its keys. */
        final JsonTokenizer.Mark oldMark = new JsonTokenizer.Mark();
        /** Whether the record is a JSON object ({@code convertToRowData} casts it). */
        boolean rootObject;
        int op;
        String opText;
        /** {@code database} and {@code table} as {@code asText()} gives them, or null if missing; read under a filter. */
        String database;
        String table;

        void read(JsonTokenizer t, byte[] array, int offset, int length) {
            data.clear(Rows.ABSENT);
            old.clear(Rows.ABSENT);
            op = NO_OP;
            database = null;
            table = null;
            rootObject = false;
            t.reset(array, offset, length);
            int token = t.next();
            if (token == JsonTokenizer.START_OBJECT) {
                rootObject = true;
                readFields(t);
            } else if (token == JsonTokenizer.NONE) {
                throw new JsonReadException("No content to map due to end-of-input");
            } else {
                // Jackson parses the whole value (trailing bytes are never read): a malformed one fails it.
                JsonTreeText.skip(t, bigDecimalFloats);
            }
        }

        /** The event's fields, current token its {@code START_OBJECT}. */
        private void readFields(JsonTokenizer t) {
            t.next();
            while (t.current() == JsonTokenizer.FIELD_NAME) {
                int field = named(t, DATA, "data") ? 0 : named(t, OLD, "old") ? 1 : named(t, TYPE, "type") ? 2
                        : named(t, DATABASE, "database") ? 3 : named(t, TABLE, "table") ? 4 : -1;
                int value = t.next();
                switch (field) {
                    case 0 -> readRows(t, value, data, null);
                    case 1 -> readRows(t, value, old, oldMark);
                    case 2 -> readOp(t, value);
                    case 3 -> database = options.databaseInclude() == null ? null : asText(t, value);
                    case 4 -> table = options.tableInclude() == null ? null : asText(t, value);
                    default -> { }
                }
                JsonTreeText.skip(t, bigDecimalFloats);
                t.next();
            }
        }

        /** {@code data} or {@code old}: Canal's array of rows or Maxwell's one row, each marked. */
        private void readRows(JsonTokenizer t, int value, Rows rows, JsonTokenizer.Mark whole) {
            if (value == JsonTokenizer.VALUE_NULL) {
                rows.clear(Rows.ABSENT);
                return;
            }
            int shape = events.rowArrays ? JsonTokenizer.START_ARRAY : JsonTokenizer.START_OBJECT;
            if (value != shape) {
                rows.clear(Rows.WRONG_SHAPE);
                return;
            }
            rows.clear(Rows.PRESENT);
            if (whole != null) {
                t.mark(whole);
            }
            if (!events.rowArrays) {
                rows.add(t, Rows.OBJECT);
                return;
            }
            for (int entry = t.next(); entry != JsonTokenizer.END_ARRAY; entry = t.next()) {
                rows.add(t, entry == JsonTokenizer.START_OBJECT ? Rows.OBJECT
                        : entry == JsonTokenizer.VALUE_NULL ? Rows.NULL : Rows.OTHER);
                JsonTreeText.skip(t, bigDecimalFloats);
            }
        }

        private void readOp(JsonTokenizer t, int value) {
            if (value == JsonTokenizer.VALUE_NULL) {
                op = NO_OP;
                return;
            }
            if (value == JsonTokenizer.VALUE_STRING) {
                boolean raw = t.prepareText();
                for (int i = 0; i < events.opBytes.length; i++) {
                    byte[] word = events.opBytes[i];
                    if (raw ? java.util.Arrays.equals(t.buffer(), t.textStart(), t.textEnd(), word, 0, word.length)
                            : t.text().equals(new String(word, StandardCharsets.UTF_8))) {
                        op = i;
                        return;
                    }
                }
            }
            op = OTHER_OP;
            // Flink's STRING converter: an object or array is its JSON text, which is never a known type.
            opText = value == JsonTokenizer.START_OBJECT || value == JsonTokenizer.START_ARRAY ? "(a JSON "
                    + (value == JsonTokenizer.START_OBJECT ? "object" : "array") + ")" : t.text();
        }

        /** Jackson's {@code asText()} of the value: a string's text, a scalar's JSON text, empty for a structure. */
        private String asText(JsonTokenizer t, int value) {
            if (value == JsonTokenizer.VALUE_STRING) {
                return t.text();
            }
            if (value == JsonTokenizer.START_OBJECT || value == JsonTokenizer.START_ARRAY) {
                JsonTreeText.skip(t, bigDecimalFloats);
                return "";
            }
            return JsonTreeText.read(t, bigDecimalFloats);
        }
    }
}
