package io.columnarkafka.format.json;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.RecycledRoot;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decodes JSON records into Arrow, value for value what Flink 2.2's default JSON deserializer ({@code
 * JsonParserRowDataDeserializationSchema}, {@code decode.json-parser.enabled=true}) returns for the same
 * bytes, with its options {@code fail-on-missing-field}, {@code ignore-parse-errors} and {@code
 * timestamp-format.standard}.
 *
 * <p>Per record, as Flink's {@code deserialize(byte[], Collector)}: a null or empty record yields no row;
 * a JSON object yields one row; a JSON array yields a row per element (Flink collects one per element);
 * anything else is rejected; nothing after the top-level value is read. A record Flink rejects throws
 * {@link DecodeException} (nothing of the batch survives); under {@code ignore-parse-errors} it yields the
 * rows Flink collected before the failure. Where Flink collects a null row (a failed object under {@code
 * ignore-parse-errors}, a {@code null} element of a top-level array), no row is produced: see {@code
 * docs/formats-text.md}.
 *
 * <p>A decoder may produce only some of the fields it is given (a scan's projection): the others are checked
 * as Flink converts them and produce nothing ({@link CheckOnlyJsonReader}).
 *
 * <p>Built once: a reader per field, chosen by type, with field names pre-encoded as UTF-8, and the Arrow schema
 * each batch's vector tree is made from. Per batch: the
 * vectors are sized once from the batch's size (in the buffers of the batch before when it was given back and they
 * are large enough, {@link #recycle}) and the records are tokenized in place (see {@link
 * JsonTokenizer}): no String per field name or plain string value, numbers and timestamps parsed from the
 * bytes, string bytes copied from the record straight into the Arrow data buffer.
 */
public final class JsonBatchDecoder implements BatchDecoder {
    private final RowType rowType;
    static final ArrowLayout.NanoTimestamps TIMESTAMPS = ArrowLayout.NanoTimestamps.EVERY_PRECISION_MILLIS_AND_NANOS;
    /** The batches' Arrow schema, built once (a root per batch is made from it). */
    private final Schema schema;
    private final JsonDecodeOptions options;
    private final JsonRowFields fields;
    private final JsonTokenizer tokenizer = new JsonTokenizer();
    private final DecodedRows rows;
    /** The vector tree of the last batch, taken back ({@link #recycle}) to build the next one in. */
    private final RecycledRoot recycled = new RecycledRoot();

    /**
     * Plans a decoder for {@code rowType}, every field read.
     *
     * @throws IllegalArgumentException if a type has no Arrow layout or is not supported by Flink's JSON
     *     format (e.g. a map whose keys are not strings)
     */
    public JsonBatchDecoder(RowType rowType, JsonDecodeOptions options) {
        this(rowType, rowType.getFieldNames(), options);
    }

    /**
     * Plans a decoder of the row Flink's format converts, {@code formatType}, that produces only the fields
     * {@code produced} (in {@code formatType}'s order): the others are checked as Flink converts them, so the
     * records Flink rejects or skips, and the rows it makes, are the same, but no vector is built for them
     * ({@link CheckOnlyJsonReader}). Flink's {@code kafka} source takes no projection, so its format converts
     * every value field whatever the query reads.
     *
     * @throws IllegalArgumentException if {@code produced} names a field {@code formatType} does not hold, or a
     *     type has no Arrow layout or is not supported by Flink's JSON format
     */
    public JsonBatchDecoder(RowType formatType, List<String> produced, JsonDecodeOptions options) {
        ProducedFields columns = ProducedFields.of(formatType, produced);
        this.rowType = columns.rowType();
        this.schema = ArrowLayout.schema(rowType, TIMESTAMPS);
        this.options = options;
        this.fields = new JsonReaderPlan(options, formatType).recordFields(formatType, columns.read());
        this.rows = new DecodedRows(fields, columns.columns());
    }

    /** Every digit of the text, as Flink's {@code TimestampData} keeps it whatever the precision. */
    @Override
    public ArrowLayout.NanoTimestamps timestampLayout() {
        return TIMESTAMPS;
    }

    @Override
    public DecodedBatch decode(RecordBytes records, BufferAllocator allocator) {
        int count = records.count();
        VectorSchemaRoot root = recycled.take(schema, allocator);
        try {
            rows.start(root, count, records.totalBytes(), 1);
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

    /**
     * Keeps the vector tree of the last batch decoded, and its buffers while this decoder is their only holder, for
     * the next batch ({@link RecycledRoot}); any other root is closed.
     */
    @Override
    public void recycle(VectorSchemaRoot root) {
        recycled.giveBack(root);
    }

    @Override
    public void releaseRecycled() {
        recycled.release();
    }

    private void decodeRecord(byte[] array, int offset, int length, int record) {
        JsonTokenizer t = tokenizer;
        t.reset(array, offset, length);
        try {
            int token = t.next();
            if (token == JsonTokenizer.START_ARRAY) {
                while (true) {
                    token = t.next();
                    if (token == JsonTokenizer.END_ARRAY) {
                        break;
                    }
                    if (token == JsonTokenizer.NONE && t.atEnd()) {
                        // Flink would loop here forever; see JsonTokenizer.atEnd.
                        throw JsonReadException.pastEnd("the record's array");
                    }
                    readRow(t, record);
                }
            } else if (token == JsonTokenizer.START_OBJECT) {
                readRow(t, record);
            } else {
                throw new JsonReadException("No content to map due to end-of-input");
            }
        } catch (RuntimeException e) {
            if (!JsonReader.isDataError(e)) {
                throw e;
            }
            if (!options.ignoreParseErrors() || JsonReadException.isPastEnd(e)) {
                String field = e instanceof JsonReadException read ? read.field() : null;
                throw new DecodeException(record, field, JsonReadException.reasonOf(e), e);
            }
            // Flink drops the record, keeping the rows it collected before the failure.
        }
    }

    /** One row from the current token, as Flink's null-safe row converter; a null row is no row. */
    private void readRow(JsonTokenizer t, int record) {
        int token = t.current();
        if (token == JsonTokenizer.VALUE_NULL || token == JsonTokenizer.NONE) {
            return;
        }
        int row = rows.next();
        try {
            if (token != JsonTokenizer.START_OBJECT) {
                throw new JsonReadException("Illegal JSON object data...");
            }
            fields.readObject(t, row);
        } catch (RuntimeException e) {
            rows.truncate(row);
            if (!options.ignoreParseErrors() || !JsonReader.isSkippable(e)) {
                throw e;
            }
            return;
        }
        rows.added(record);
    }

    @Override
    public RowType rowType() {
        return rowType;
    }
}
