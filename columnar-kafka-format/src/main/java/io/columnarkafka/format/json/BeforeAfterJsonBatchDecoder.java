package io.columnarkafka.format.json;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;

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
 * checking every value as Jackson's tree building does ({@link JsonTreeText#checkValue}: it fails the record
 * before anything is converted) and marking where {@code before} and {@code after} start; then the side or
 * sides {@code op} calls for, from their marks. Without {@code ignore-parse-errors} a side {@code op} does not emit is read
 * too (and dropped), because Flink converts it and fails the record if it fails.
 */
public final class BeforeAfterJsonBatchDecoder implements BatchDecoder {
    private static final byte[] BEFORE = {'b', 'e', 'f', 'o', 'r', 'e'};
    private static final byte[] AFTER = {'a', 'f', 't', 'e', 'r'};
    private static final byte[] PAYLOAD = {'p', 'a', 'y', 'l', 'o', 'a', 'd'};
    /** Flink's message: %s the kind (UPDATE, DELETE), then the product. */
    private static final String REPLICA_IDENTITY = "The \"before\" field of %s message is null, if you are using"
            + " %s Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.";

    /** Produced fields: the row-kind column comes after them. */
    private final int columnCount;
    private final RowType rowType;
    private final Schema schema;
    private final BeforeAfterEvents events;
    private final BeforeAfterDecodeOptions options;
    private final JsonRowFields fields;
    /** Flink's tree holds floats as {@code BigDecimal}: see {@link JsonTreeText#checkValue}. */
    private final boolean bigDecimalFloats;
    private final JsonTokenizer tokenizer = new JsonTokenizer();
    private final ChangeEvent event = new ChangeEvent();
    private final DecodedRows rows;
    private TinyIntVector kinds;

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
        if (physical.getFieldNames().contains(options.rowKindColumn())) {
            throw new IllegalArgumentException("row-kind column '" + options.rowKindColumn()
                    + "' is also a field of the row type " + physical.asSummaryString());
        }
        this.events = events;
        ProducedFields columns = ProducedFields.of(physical, produced);
        this.columnCount = columns.columns().length;
        List<RowType.RowField> out = new ArrayList<>(columns.rowType().getFields());
        out.add(new RowType.RowField(options.rowKindColumn(), new TinyIntType(false)));
        this.rowType = new RowType(false, out);
        this.schema = ArrowLayout.schema(rowType, JsonBatchDecoder.TIMESTAMPS);
        this.options = options;
        JsonReaderPlan plan = new JsonReaderPlan(options.json(), physical, true);
        this.bigDecimalFloats = plan.bigDecimalFloats();
        this.fields = plan.recordFields(physical, columns.read());
        this.rows = new DecodedRows(fields, columns.columns());
    }

    @Override
    public ArrowLayout.NanoTimestamps timestampLayout() {
        return JsonBatchDecoder.TIMESTAMPS;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public DecodedBatch decode(RecordBytes records, BufferAllocator allocator) {
        int count = records.count();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            // A change event holds the row's bytes once or twice, plus its envelope.
            rows.start(root, count, records.totalBytes(), 2);
            kinds = (TinyIntVector) root.getVector(columnCount);
            kinds.allocateNew(Math.max(count, 1));
            for (int i = 0; i < count; i++) {
                int length = records.length(i);
                if (length > 0) {
                    decodeRecord(records.array(i), records.offset(i), length, i);
                }
            }
            return rows.finish(root, count);
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private void decodeRecord(byte[] array, int offset, int length, int record) {
        int firstRow = rows.next();
        try {
            event.read(tokenizer, array, offset, length);
            if (!options.json().ignoreParseErrors()) {
                // Flink converts both sides before it looks at op: one that fails fails the record.
                convertUnused();
            }
            char op = event.op;
            if (events.insertOps.indexOf(op) >= 0) {
                emit(event.after, event.afterMark, "after", RowKindColumn.INSERT, record);
            } else if (op == events.updateOp) {
                checkBefore("UPDATE");
                requireSide(event.after, "after");
                emit(event.before, event.beforeMark, "before", RowKindColumn.UPDATE_BEFORE, record);
                emit(event.after, event.afterMark, "after", RowKindColumn.UPDATE_AFTER, record);
            } else if (op == events.deleteOp) {
                checkBefore("DELETE");
                emit(event.before, event.beforeMark, "before", RowKindColumn.DELETE, record);
            } else {
                throw new JsonReadException("Unknown \"" + events.opField + "\" value \"" + event.opText + "\". The "
                        + events.product + " JSON message is '" + new String(array, offset, length,
                                java.nio.charset.StandardCharsets.UTF_8) + "'");
            }
        } catch (RuntimeException e) {
            if (!JsonReader.isDataError(e)) {
                throw e;
            }
            rows.truncate(firstRow);
            if (!options.json().ignoreParseErrors()) {
                String field = e instanceof JsonReadException read ? read.field() : null;
                throw new DecodeException(record, field, "Corrupt " + events.product + " JSON message. "
                        + JsonReadException.reasonOf(e), e);
            }
            // Flink's big try-catch drops the record; it fails before Flink collects any row of it.
        }
    }

    /**
     * Converts, and drops, a side that is there but that {@code op} does not emit (an insert's {@code before},
     * a delete's {@code after}): Flink converts it all the same, and a value that fails fails the record.
     */
    private void convertUnused() {
        for (int side = 0; side < 2; side++) {
            int state = side == 0 ? event.before : event.after;
            if (state == ChangeEvent.NOT_AN_OBJECT) {
                requireSide(state, side == 0 ? "before" : "after");
            }
            char op = event.op;
            boolean emitted = op == events.updateOp
                    || (side == 0 ? op == events.deleteOp : events.insertOps.indexOf(op) >= 0);
            if (state == ChangeEvent.OBJECT && !emitted) {
                tokenizer.reset(side == 0 ? event.beforeMark : event.afterMark);
                fields.readObject(tokenizer, rows.next());
                fields.truncate(rows.next());
            }
        }
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
    private void emit(int state, JsonTokenizer.Mark mark, String name, byte kind, int record) {
        requireSide(state, name);
        tokenizer.reset(mark);
        int row = rows.next();
        fields.readObject(tokenizer, row);
        kinds.setSafe(row, kind);
        rows.added(record);
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
            if (op == NO_OP) {
                throw new JsonReadException("the \"" + events.opField + "\" field is missing or null");
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
                JsonTreeText.checkValue(t, bigDecimalFloats);
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
                JsonTreeText.checkValue(t, bigDecimalFloats);
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
    private static boolean named(JsonTokenizer t, byte[] raw, String name) {
        if (t.nameIsRaw()) {
            return Arrays.equals(t.buffer(), t.nameStart(), t.nameEnd(), raw, 0, raw.length);
        }
        return name.equals(t.name());
    }
}
