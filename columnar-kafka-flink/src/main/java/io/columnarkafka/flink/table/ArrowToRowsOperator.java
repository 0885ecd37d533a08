package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.arrow.RowKindLayout;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The edge where a columnar part of a SQL plan meets a row operator: every selected row of each
 * {@link ArrowBatch} handed on, then the batch is freed. As {@link EdgeRows#BINARY} (the planner's default) each
 * row is a {@code BinaryRowData} written from the vectors ({@link ArrowInPlaceRowView#binaryRow}, one reused
 * row), the row Flink's own Calc would emit, so Flink's network serializer and chained copy move its bytes in
 * one piece and its key selectors read it as they read stock's rows; as {@link EdgeRows#VIEWS} a view ({@link
 * ArrowRowView}, one reused {@code ColumnarRowData} reading the vectors in place), which Flink's serializer
 * converts field by field. Either way the same contract as the scan's row views ({@link RowViewOutput}):
 * chained with object reuse off, Flink's output copies each row with the row serializer; with object reuse on,
 * the next operator reads the row during its {@code processElement} only.
 *
 * <p>Batches of a changelog (a changelog format's scan and the columnar nodes over it) carry each row's kind in a
 * column after the row type's fields ({@link RowKindLayout}); each row handed on takes its kind from there.
 */
public final class ArrowToRowsOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<ArrowBatch, RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final EdgeRows rows;
    /** Whether the batches carry a row-kind column after the rows' fields; else every row an insert. */
    private final boolean rowKinds;

    private transient BufferAllocator allocator;
    private transient ArrowRowView view;
    private transient ArrowInPlaceRowView binaryView;
    private transient RowKindLayout layout;
    private transient StreamRecord<RowData> reuse;

    /**
     * @param rowType the rows' type: the batches' row type, or its columns before the row-kind column
     * @param rows what each row handed on is
     * @param rowKinds whether the batches carry each row's kind in a column after {@code rowType}'s fields
     */
    public ArrowToRowsOperator(RowType rowType, EdgeRows rows, boolean rowKinds) {
        this.rowType = rowType;
        this.rows = rows;
        this.rowKinds = rowKinds;
    }

    @Override
    public void open() throws Exception {
        super.open();
        // Only a batch that crossed a shuffle is read into this allocator; a chained one stays where it is.
        allocator = ArrowMemory.newChild(
                "columnar-kafka-rows " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(),
                ColumnarKafkaSink.DEFAULT_ALLOCATOR_LIMIT);
        if (rows == EdgeRows.BINARY) {
            binaryView = new ArrowInPlaceRowView(rowType);
        } else {
            view = new ArrowRowView(rowType);
        }
        layout = RowKindLayout.of(rowType.getFieldCount(), rowKinds);
        reuse = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) {
        ArrowBatch batch = element.getValue();
        try {
            VectorSchemaRoot batchRoot = batch.open(allocator);
            VectorSchemaRoot root = layout.rows(batchRoot);
            TinyIntVector kinds = layout.kinds(batchRoot);
            int[] selection = batch.selection();
            int count = batch.selectedCount(allocator);
            if (element.hasTimestamp()) {
                reuse.setTimestamp(element.getTimestamp());
            } else {
                reuse.eraseTimestamp();
            }
            if (binaryView != null) {
                binaryView.bind(root);
                for (int i = 0; i < count; i++) {
                    int row = selection == null ? i : selection[i];
                    output.collect(reuse.replace(RowKindLayout.withKind(binaryView.binaryRow(row), kinds, row)));
                }
            } else {
                view.bind(root);
                for (int i = 0; i < count; i++) {
                    int row = selection == null ? i : selection[i];
                    output.collect(reuse.replace(RowKindLayout.withKind(view.row(row), kinds, row)));
                }
            }
        } finally {
            batch.close();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (allocator != null) {
                allocator.close();
            }
        } finally {
            allocator = null;
            super.close();
        }
    }
}
