package io.columnarkafka.flink.table;

import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.sink.SelectedRows;
import io.columnarkafka.format.arrow.RowKindLayout;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Arrow-fed sink of an upsert table with {@code sink.buffer-flush.*}: Flink's {@code ReducingUpsertWriter} keeps
 * a copy of the latest row per key and writes the buffered rows only at a flush, so the batches' rows cannot be
 * encoded as they come. Each row the batch writes (its selection, then Flink's NOT NULL enforcer, {@code notNull})
 * goes, with its kind, into the reducing buffer as a copy, as Flink's buffer holds copies; the encoding ({@link
 * RowBatchEncodeOperator}) writes the buffer, in Flink's order, when Flink's writer would.
 *
 * <p>The copy is a {@code BinaryRowData} written from the vectors ({@link ArrowInPlaceRowView#binaryRow}), the row
 * the Arrow-to-rows edge would hand the connector's row sink: one array per buffered row, which the buffer's key
 * columns are read from as Flink reads them from its rows.
 */
final class ArrowReducingEncodeOperator<B> extends RowBatchEncodeOperator<ArrowBatch, B> {
    private static final long serialVersionUID = 1L;

    /** The rows the sink consumes: the batches' columns before any row-kind column. */
    private final RowType consumedType;
    /** Whether the batches' last column holds each row's kind (a changelog's batches); else every row an insert. */
    private final boolean rowKinds;
    /** Flink's NOT NULL enforcer on the batches, or null where the table has no NOT NULL column. */
    private final ArrowNotNullEnforcer notNull;

    private transient ArrowInPlaceRowView rows;
    private transient RowKindLayout layout;

    /**
     * @param consumedType the consumed rows: the physical columns, then the metadata ones, every type nullable
     * @param rowKinds whether the batches carry each row's kind in a column after {@code consumedType}'s
     */
    ArrowReducingEncodeOperator(EncodePlan plan, EncodedRecords<B, ?> elements, RecordSizeLimit sizeLimit,
            RowType consumedType, boolean rowKinds, ArrowNotNullEnforcer notNull) {
        // Every row is copied into the buffer: it is a reused view of a batch closed after the call.
        super(plan, elements, new RowDataSerializer(consumedType), sizeLimit);
        this.consumedType = consumedType;
        this.rowKinds = rowKinds;
        this.notNull = notNull;
    }

    @Override
    public void open() throws Exception {
        super.open();
        rows = new ArrowInPlaceRowView(consumedType);
        layout = RowKindLayout.of(consumedType.getFieldCount(), rowKinds);
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) {
        ArrowBatch batch = element.getValue();
        try {
            VectorSchemaRoot root = batch.open(allocator());
            SelectedRows written = new SelectedRows(batch.selection(), batch.selectedCount(allocator()));
            if (notNull != null) {
                written = notNull.apply(root, written);
            }
            rows.bind(layout.rows(root));
            TinyIntVector kinds = layout.kinds(root);
            for (int i = 0; i < written.count(); i++) {
                int index = written.row(i);
                write(RowKindLayout.withKind(rows.binaryRow(index), kinds, index));
            }
        } finally {
            batch.close();
        }
    }

    @Override
    AutoCloseable inputResources() {
        return null;
    }
}
