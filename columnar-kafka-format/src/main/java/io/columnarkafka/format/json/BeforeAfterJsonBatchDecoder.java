package io.columnarkafka.format.json;

import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decodes {@code debezium-json} and {@code ogg-json} change events into Arrow rows plus a TINYINT row-kind
 * column holding {@code RowKind.toByteValue()}, the rows and kinds Flink 2.2's {@code
 * DebeziumJsonDeserializationSchema} and {@code OggJsonDeserializationSchema} collect for the same bytes
 * ({@link BeforeAfterEvents} names the operations):
 * <ul>
 *   <li>{@code op} {@code c} or {@code r} ({@code op_type} {@code I}): {@code after} as INSERT; {@code u}
 *       ({@code U}): {@code before} as UPDATE_BEFORE then {@code after} as UPDATE_AFTER; {@code d} ({@code D}):
 *       {@code before} as DELETE;</li>
 *   <li>a null or empty record (tombstone) yields no row;</li>
 *   <li>a missing or null {@code op}, an unknown {@code op}, a missing side, a {@code before} of an update or
 *       delete that is null (Flink's REPLICA IDENTITY FULL message), or a record that is not one JSON object
 *       (a top-level array of exactly one object counts as that object) fails the record, or under {@code
 *       ignore-parse-errors} yields no row;</li>
 *   <li>with {@code schema-include} the event is the record's {@code payload} field;</li>
 *   <li>the fields of {@code before} and {@code after} are read by the JSON decoder's readers.</li>
 * </ul>
 *
 * <p>Flink parses the whole record into a Jackson tree first ({@code JsonRowDataDeserializationSchema}, not the
 * streaming deserializer of {@code json}), so the sides are read by the tree readers ({@link TreeJsonReader}), a
 * repeated envelope field keeps its last value, and the sides are read in the order the rows are collected,
 * whatever their order in the record. So each record is read twice by the one tokenizer: the envelope,
 * skipping {@code before} and {@code after} but marking where they start; then the side or sides {@code op}
 * calls for, from their marks. Without {@code ignore-parse-errors} a side {@code op} does not emit is read
 * too (and dropped), because Flink converts it and fails the record if it fails.
 */
public final class BeforeAfterJsonBatchDecoder extends RowKindJsonDecoder {
    private static final byte[] BEFORE = {'b', 'e', 'f', 'o', 'r', 'e'};
    private static final byte[] AFTER = {'a', 'f', 't', 'e', 'r'};
    private static final byte[] PAYLOAD = {'p', 'a', 'y', 'l', 'o', 'a', 'd'};
    /** Flink's message: %s the kind (UPDATE, DELETE), then the product. */
    private static final String REPLICA_IDENTITY = "The \"before\" field of %s message is null, if you are using"
            + " %s Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.";

    private final BeforeAfterEvents events;
    private final BeforeAfterDecodeOptions options;
    private final ChangeEvent event = new ChangeEvent();

    /**
     * Plans a decoder of {@code physical}'s rows.
     *
     * @throws IllegalArgumentException if a type is not supported by Flink's JSON format or has no Arrow
     *     layout, or the row-kind column's name is one of {@code physical}'s fields
     */
    public BeforeAfterJsonBatchDecoder(BeforeAfterEvents events, RowType physical, BeforeAfterDecodeOptions options) {
        this(events, physical, physical.getFieldNames(), options);
    }

    /**
     * Plans a decoder of {@code physical}'s rows that produces the fields {@code produced} (in {@code physical}'s
     * order) and the row-kind column: Flink's tree converter converts every field of {@code physical} in each side
     * it converts, so the others are checked ({@link CheckOnlyJsonReader}) and a value there that Flink rejects
     * still fails (or, under {@code ignore-parse-errors}, drops) the record.
     *
     * @throws IllegalArgumentException as the constructor above, or if {@code produced} names a field {@code
     *     physical} does not hold
     */
    public BeforeAfterJsonBatchDecoder(BeforeAfterEvents events, RowType physical, List<String> produced,
            BeforeAfterDecodeOptions options) {
        super(events.product, physical, produced, options.json(), options.rowKindColumn());
        this.events = events;
        this.options = options;
    }

    @Override
    void decodeRecord(byte[] array, int offset, int length, int record) {
        event.read(tokenizer, array, offset, length);
        if (!ignoreParseErrors) {
            // Flink converts both sides before it looks at op: one that fails fails the record (and names the
            // field, even when op is missing too).
            convertUnused();
        }
        char op = event.op;
        if (op == ChangeEvent.NO_OP) {
            throw new JsonReadException("the \"" + events.opField + "\" field is missing or null");
        }
        if (events.insertOps.indexOf(op) >= 0) {
            emitSide(event.after, event.afterMark, "after", RowKindColumn.INSERT, record);
        } else if (op == events.updateOp) {
            if (!ignoreParseErrors && (event.before != ChangeEvent.OBJECT || event.after != ChangeEvent.OBJECT)) {
                // Flink converts before, then after, and only then finds a side missing: a value that fails in
                // the side that is there is the record's error, and names its field.
                convertSides(true);
            }
            checkBefore("UPDATE");
            requireSide(event.after, "after");
            emitSide(event.before, event.beforeMark, "before", RowKindColumn.UPDATE_BEFORE, record);
            emitSide(event.after, event.afterMark, "after", RowKindColumn.UPDATE_AFTER, record);
        } else if (op == events.deleteOp) {
            checkBefore("DELETE");
            emitSide(event.before, event.beforeMark, "before", RowKindColumn.DELETE, record);
        } else {
            throw new JsonReadException("Unknown \"" + events.opField + "\" value \"" + event.opText + "\". The "
                    + events.product + " JSON message is '" + new String(array, offset, length,
                            java.nio.charset.StandardCharsets.UTF_8) + "'");
        }
    }

    /**
     * Converts, and drops, a side that is there but that {@code op} does not emit (an insert's {@code before},
     * a delete's {@code after}): Flink converts it all the same, and a value that fails fails the record.
     */
    private void convertUnused() {
        try {
            convertSides(false);
        } catch (RuntimeException e) {
            if (JsonReader.isDataError(e) && emitted(0) && event.before == ChangeEvent.OBJECT) {
                // Flink converts before, then after: a failing before is the record's failure, not an after's.
                convert(event.beforeMark);
            }
            throw e;
        }
    }

    /**
     * Converts, and drops, each side that is there ({@code all}) or only those {@code op} does not emit, in
     * Flink's order; a side that is not an object fails.
     */
    private void convertSides(boolean all) {
        for (int side = 0; side < 2; side++) {
            int state = side == 0 ? event.before : event.after;
            if (state == ChangeEvent.NOT_AN_OBJECT) {
                requireSide(state, side == 0 ? "before" : "after");
            }
            if (state == ChangeEvent.OBJECT && (all || !emitted(side))) {
                convert(side == 0 ? event.beforeMark : event.afterMark);
            }
        }
    }

    /** Whether {@code op} emits side {@code side} (0 {@code before}, 1 {@code after}) as a row. */
    private boolean emitted(int side) {
        char op = event.op;
        return op == events.updateOp || (side == 0 ? op == events.deleteOp : events.insertOps.indexOf(op) >= 0);
    }

    private void checkBefore(String kind) {
        if (event.before == ChangeEvent.ABSENT) {
            throw new JsonReadException(String.format(REPLICA_IDENTITY, kind, events.product));
        }
    }

    private static void requireSide(int state, String name) {
        if (state == ChangeEvent.NOT_AN_OBJECT) {
            throw new JsonReadException(name, "Fail to deserialize at field: " + name + ". Illegal JSON object data...");
        }
        if (state == ChangeEvent.ABSENT) {
            throw new JsonReadException("the \"" + name + "\" field is missing or null");
        }
    }

    /** Reads the side marked at {@code mark} (its opening brace) as the next row, of kind {@code kind}. */
    private void emitSide(int state, JsonTokenizer.Mark mark, String name, byte kind, int record) {
        requireSide(state, name);
        emit(mark, kind, record);
    }

    /**
     * The envelope of one record as Flink's tree holds it: whether {@code before} and {@code after} are an
     * {@link #OBJECT} (marked at its opening brace, to be read later), {@link #ABSENT} (missing or JSON null) or
     * {@link #NOT_AN_OBJECT}; and {@code op}.
     */
    private final class ChangeEvent {
        static final int OBJECT = 0;
        static final int ABSENT = -1;
        static final int NOT_AN_OBJECT = -2;
        /** The operation was missing or null. */
        static final char NO_OP = 0;
        /** The operation was some other value ({@link #opText}). */
        static final char OTHER_OP = '?';

        int before;
        int after;
        final JsonTokenizer.Mark beforeMark = new JsonTokenizer.Mark();
        final JsonTokenizer.Mark afterMark = new JsonTokenizer.Mark();
        char op;
        String opText;

        void read(JsonTokenizer t, byte[] array, int offset, int length) {
            before = ABSENT;
            after = ABSENT;
            op = NO_OP;
            t.reset(array, offset, length);
            int token = t.next();
            if (token == JsonTokenizer.START_ARRAY) {
                // Flink's JSON deserializer collects a row per element; the changelog deserializer takes exactly one.
                if (t.next() != JsonTokenizer.START_OBJECT) {
                    throw new JsonReadException("the record is an array that does not hold one JSON object");
                }
                readRoot(t);
                if (t.next() != JsonTokenizer.END_ARRAY) {
                    throw new JsonReadException("the record is an array of more than one value");
                }
            } else if (token == JsonTokenizer.START_OBJECT) {
                readRoot(t);
            } else {
                throw new JsonReadException(token == JsonTokenizer.NONE ? "No content to map due to end-of-input"
                        : "the record is not a JSON object");
            }
        }

        /** The root object, current token its {@code START_OBJECT}; with schema-include, finds {@code payload}. */
        private void readRoot(JsonTokenizer t) {
            if (!options.schemaInclude()) {
                readPayload(t);
                return;
            }
            boolean payload = false;
            t.next();
            while (t.current() == JsonTokenizer.FIELD_NAME) {
                boolean isPayload = named(t, PAYLOAD, "payload");
                if (isPayload) {
                    payload = t.next() == JsonTokenizer.START_OBJECT;
                    before = ABSENT;
                    after = ABSENT;
                    op = NO_OP;
                    if (payload) {
                        readPayload(t);
                    }
                } else {
                    t.next();
                }
                JsonTreeText.skip(t, bigDecimalFloats);
                t.next();
            }
            if (!payload) {
                throw new JsonReadException("payload", "the \"payload\" field is missing or not a JSON object"
                        + " (debezium-json.schema-include is true)");
            }
        }

        /** The change event's fields, current token its {@code START_OBJECT}; the last of a repeated name wins. */
        private void readPayload(JsonTokenizer t) {
            t.next();
            while (t.current() == JsonTokenizer.FIELD_NAME) {
                int side = named(t, BEFORE, "before") ? 0 : named(t, AFTER, "after") ? 1
                        : named(t, events.opFieldBytes, events.opField) ? 2 : -1;
                int value = t.next();
                if (side == 2) {
                    readOp(t, value);
                } else if (side >= 0) {
                    int state = value == JsonTokenizer.START_OBJECT ? OBJECT
                            : value == JsonTokenizer.VALUE_NULL ? ABSENT : NOT_AN_OBJECT;
                    if (state == OBJECT) {
                        t.mark(side == 0 ? beforeMark : afterMark);
                    }
                    if (side == 0) {
                        before = state;
                    } else {
                        after = state;
                    }
                }
                JsonTreeText.skip(t, bigDecimalFloats);
                t.next();
            }
        }

        private void readOp(JsonTokenizer t, int value) {
            if (value == JsonTokenizer.VALUE_NULL) {
                op = NO_OP;
                return;
            }
            if (value == JsonTokenizer.VALUE_STRING) {
                boolean raw = t.prepareText();
                int c = raw && t.textEnd() - t.textStart() == 1 ? t.buffer()[t.textStart()]
                        : !raw && t.text().length() == 1 ? t.text().charAt(0) : OTHER_OP;
                if (c != OTHER_OP && (events.insertOps.indexOf(c) >= 0 || c == events.updateOp || c == events.deleteOp)) {
                    op = (char) c;
                    return;
                }
            }
            op = OTHER_OP;
            // Flink's STRING converter: an object or array is its JSON text, which is never a known op.
            opText = value == JsonTokenizer.START_OBJECT || value == JsonTokenizer.START_ARRAY ? "(a JSON "
                    + (value == JsonTokenizer.START_OBJECT ? "object" : "array") + ")" : t.text();
        }
    }

    /** True if the current field name is {@code raw} (its UTF-8 bytes) / {@code name}. */
    static boolean named(JsonTokenizer t, byte[] raw, String name) {
        if (t.nameIsRaw()) {
            return Arrays.equals(t.buffer(), t.nameStart(), t.nameEnd(), raw, 0, raw.length);
        }
        return name.equals(t.name());
    }
}
