package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowByRowBatchEncoder;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Encodes Arrow batches in one of Flink's changelog JSON formats ({@link ChangelogEnvelope}: {@code
 * debezium-json}, {@code canal-json}, {@code maxwell-json}, {@code ogg-json}), byte for byte what Flink 2.2.1's
 * serializer of that format writes: the row object, written by the JSON encoder's writers with the same
 * options, between the envelope's bytes for the row's kind, planned once.
 *
 * <p>Row kinds: Arrow batches have none, so every row is an INSERT unless the option {@value
 * #ROW_KIND_COLUMN} names a TINYINT column of the batch holding {@code RowKind.toByteValue()} (0 +I, 1 -U,
 * 2 +U, 3 -D). That column is read from the batch by name and is not written.
 */
public final class ChangelogJsonBatchEncoder extends RowByRowBatchEncoder {
    /** This project's option naming the row-kind column; not a Flink option. */
    public static final String ROW_KIND_COLUMN = "row-kind.column";

    private final JsonFields record;
    private final byte[] addedHead;
    private final byte[] addedTail;
    private final byte[] removedHead;
    private final byte[] removedTail;
    private final RowKindColumn rowKinds;
    private final int rowKindField;

    /**
     * Plans an encoder for {@code projection} in {@code envelope}'s format with its options (Flink keys without
     * the prefix, plus {@value #ROW_KIND_COLUMN}).
     *
     * @throws IllegalArgumentException for a bad option, debezium-json's {@code schema-include=true}, a
     *     row-kind column that is missing or not TINYINT, or a type the JSON format does not support
     */
    public ChangelogJsonBatchEncoder(ChangelogEnvelope envelope, Projection projection, Map<String, String> options) {
        super(projection);
        String kindColumn = options.get(ROW_KIND_COLUMN);
        JsonFormatOptions jsonOptions = envelope.jsonOptions(options);
        boolean ignoreNulls = jsonOptions.ignoreNullFields();
        this.record = new JsonWriterPlan(jsonOptions).record(projection);
        this.addedHead = envelope.head(true, ignoreNulls);
        this.addedTail = envelope.tail(true, ignoreNulls);
        this.removedHead = envelope.head(false, ignoreNulls);
        this.removedTail = envelope.tail(false, ignoreNulls);
        if (kindColumn == null) {
            rowKinds = null;
            rowKindField = -1;
        } else {
            rowKindField = projection.batchType().getFieldNames().indexOf(kindColumn);
            if (rowKindField < 0 || !projection.batchType().getTypeAt(rowKindField).is(LogicalTypeRoot.TINYINT)) {
                throw new IllegalArgumentException("row-kind column '" + kindColumn + "' must be a TINYINT column"
                        + " of the batch type " + projection.batchType().asSummaryString());
            }
            rowKinds = new RowKindColumn(kindColumn);
        }
    }

    @Override
    protected void bindColumn(int field, FieldVector vector, int rows) {
        record.bind(field, vector, rows);
    }

    @Override
    protected void bindBatch(VectorSchemaRoot batch, int rows) {
        if (rowKinds != null) {
            rowKinds.bind(batch.getVector(rowKindField), rows);
        }
    }

    @Override
    protected long estimateBytes(long arrowBytes, int rows) {
        return arrowBytes * 3 + (long) rows * (record.nameBytes() + 40);
    }

    @Override
    protected void writeRecord(ByteOutput out, int row) {
        byte kind = rowKinds == null ? RowKindColumn.INSERT : rowKinds.kind(row);
        boolean added = kind == RowKindColumn.INSERT || kind == RowKindColumn.UPDATE_AFTER;
        out.writeBytes(added ? addedHead : removedHead);
        record.write(out, row);
        out.writeBytes(added ? addedTail : removedTail);
    }
}
