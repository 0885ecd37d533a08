package io.columnarkafka.format.json;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;

/**
 * What the changelog JSON decoders share ({@link BeforeAfterJsonBatchDecoder}, {@link DataOldJsonBatchDecoder}):
 * the decoded row type, the physical row's columns then a TINYINT column of {@code RowKind.toByteValue()}; the
 * physical row's readers as Flink's tree deserializer converts them ({@link TreeJsonReader}); one tokenizer; and
 * the batch loop, which skips a null or empty record (a tombstone: no row), hands every other to {@link
 * #decodeRecord}, and turns a data error of a record into a {@link DecodeException} or, under {@code
 * ignore-parse-errors}, into no row of that record (Flink's big try-catch drops it).
 */
abstract class RowKindJsonDecoder implements BatchDecoder {
    final RowType physical;
    final boolean ignoreParseErrors;
    /** Flink's tree reads floats as {@code BigDecimal} when the row holds a DECIMAL (see {@link JsonTreeText#skip}). */
    final boolean bigDecimalFloats;
    final JsonRowFields fields;
    final JsonTokenizer tokenizer = new JsonTokenizer();
    final DecodedRows rows;
    private final RowType rowType;
    private final Schema schema;
    /** The name in Flink's messages ("Corrupt Canal JSON message"). */
    private final String product;
    private TinyIntVector kinds;

    /**
     * @throws IllegalArgumentException if a type is not supported by Flink's JSON format or has no Arrow
     *     layout, or the row-kind column's name is one of {@code physical}'s fields
     */
    RowKindJsonDecoder(String product, RowType physical, JsonDecodeOptions json, String rowKindColumn) {
        if (physical.getFieldNames().contains(rowKindColumn)) {
            throw new IllegalArgumentException("row-kind column '" + rowKindColumn
                    + "' is also a field of the row type " + physical.asSummaryString());
        }
        this.product = product;
        this.physical = physical;
        List<RowType.RowField> out = new ArrayList<>(physical.getFields());
        out.add(new RowType.RowField(rowKindColumn, new TinyIntType(false)));
        this.rowType = new RowType(false, out);
        this.schema = ArrowLayout.schema(rowType, JsonBatchDecoder.TIMESTAMPS);
        this.ignoreParseErrors = json.ignoreParseErrors();
        this.bigDecimalFloats = JsonReaderPlan.holdsDecimal(physical);
        this.fields = new JsonReaderPlan(json, physical, true).recordFields(physical, null);
        this.rows = new DecodedRows(fields);
    }

    @Override
    public final ArrowLayout.NanoTimestamps timestampLayout() {
        return JsonBatchDecoder.TIMESTAMPS;
    }

    @Override
    public final RowType rowType() {
        return rowType;
    }

    @Override
    public final DecodedBatch decode(RecordBytes records, BufferAllocator allocator) {
        int count = records.count();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            // A change event holds its rows' bytes once or twice, plus its envelope.
            rows.start(root, count, records.totalBytes(), 2);
            kinds = (TinyIntVector) root.getVector(physical.getFieldCount());
            kinds.allocateNew(Math.max(count, 1));
            for (int i = 0; i < count; i++) {
                int length = records.length(i);
                if (length > 0) {
                    decodeOrDrop(records.array(i), records.offset(i), length, i);
                }
            }
            return rows.finish(root, count);
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private void decodeOrDrop(byte[] array, int offset, int length, int record) {
        int firstRow = rows.next();
        try {
            decodeRecord(array, offset, length, record);
        } catch (RuntimeException e) {
            if (!JsonReader.isDataError(e)) {
                throw e;
            }
            rows.truncate(firstRow);
            if (!ignoreParseErrors) {
                String field = e instanceof JsonReadException read ? read.field() : null;
                throw new DecodeException(record, field, "Corrupt " + product + " JSON message. "
                        + JsonReadException.reasonOf(e), e);
            }
        }
    }

    /**
     * Decodes record {@code record} (not empty) into the next rows; a data error (any exception but a memory
     * failure) drops the rows it wrote.
     */
    abstract void decodeRecord(byte[] array, int offset, int length, int record);

    /** Reads the object marked at {@code mark} (its opening brace) as the next row, of kind {@code kind}. */
    final void emit(JsonTokenizer.Mark mark, byte kind, int record) {
        tokenizer.reset(mark);
        int row = rows.next();
        fields.readObject(tokenizer, row);
        kinds.setSafe(row, kind);
        rows.added(record);
    }

    /** Converts, and drops, the object marked at {@code mark}: Flink converts it, and a value that fails fails the record. */
    final void convert(JsonTokenizer.Mark mark) {
        tokenizer.reset(mark);
        fields.readObject(tokenizer, rows.next());
        fields.truncate(rows.next());
    }

    /** Sets the kind of row {@code row}, read by the subclass. */
    final void setKind(int row, byte kind) {
        kinds.setSafe(row, kind);
    }
}
