package io.columnarkafka.format.arrow;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Flink {@link RowData} over the rows of an Arrow batch, without copying them: the mirror of {@link
 * RowDataArrowWriter}. Planned once from the row type; {@link #bind} a batch (its layout is checked once,
 * {@link ArrowLayout#check}), then {@link #row} positions one reused {@link ColumnarRowData} on a row, whose
 * getters read the Arrow vectors in place ({@link ArrowColumnVectors}: fixed-width values read on each
 * call, strings and bytes copied once per read into the heap arrays Flink's {@code StringData} needs).
 *
 * <p>The row returned by {@link #row} is the same object for every row and reads the bound batch's
 * off-heap buffers: it is valid only until the next {@link #row} or {@link #bind} call and while the batch
 * is open. Values read from it ({@code StringData}, {@code byte[]}, {@code DecimalData}, ...) are heap
 * objects that stay valid; nested {@code ArrayData} / {@code MapData} / {@code RowData} are views too.
 * Not thread-safe.
 */
public final class ArrowRowView {
    private final RowType rowType;
    private final ColumnarRowData row = new ColumnarRowData();
    private int rowCount;

    public ArrowRowView(RowType rowType) {
        ArrowLayout.schema(rowType); // fails now for a type without a layout
        this.rowType = rowType;
    }

    public RowType rowType() {
        return rowType;
    }

    /**
     * Points the view at {@code batch}.
     *
     * @throws io.columnarkafka.format.BatchLayoutException if the batch does not carry the row type
     */
    public void bind(VectorSchemaRoot batch) {
        ArrowLayout.check(rowType, batch);
        VectorizedColumnBatch columns = ArrowColumnVectors.batch(rowType, batch.getFieldVectors());
        columns.setNumRows(batch.getRowCount());
        row.setVectorizedColumnBatch(columns);
        rowCount = batch.getRowCount();
    }

    /** Rows of the bound batch. */
    public int rowCount() {
        return rowCount;
    }

    /** The reused row view positioned on row {@code index} of the bound batch, with kind INSERT. */
    public RowData row(int index) {
        return row(index, RowKind.INSERT);
    }

    /** The reused row view positioned on row {@code index} of the bound batch, with the given kind. */
    public RowData row(int index, RowKind kind) {
        if (index < 0 || index >= rowCount) {
            throw new IndexOutOfBoundsException("row " + index + " of " + rowCount);
        }
        row.setRowId(index);
        row.setRowKind(kind);
        return row;
    }
}
