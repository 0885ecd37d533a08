package io.columnarkafka.format.arrow;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
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
    private final int[] columns;
    private final RowType viewType;
    private final ColumnarRowData row = new ColumnarRowData();
    private int rowCount;

    /** A view of every column of batches of {@code rowType}. */
    public ArrowRowView(RowType rowType) {
        this(rowType, identity(rowType.getFieldCount()));
    }

    /**
     * A view of batches of {@code rowType} whose rows are the given columns, in that order (a projection
     * without copying: the row's field {@code i} reads batch column {@code columns[i]}).
     */
    public ArrowRowView(RowType rowType, int[] columns) {
        ArrowLayout.schema(rowType); // fails now for a type without a layout
        List<RowType.RowField> fields = new ArrayList<>();
        for (int column : columns) {
            fields.add(rowType.getFields().get(column));
        }
        this.rowType = rowType;
        this.columns = columns.clone();
        this.viewType = new RowType(rowType.isNullable(), fields);
    }

    /** The row type of the batches. */
    public RowType rowType() {
        return rowType;
    }

    /** The row type of the rows this view hands out (the projected columns). */
    public RowType viewType() {
        return viewType;
    }

    /**
     * Points the view at {@code batch}.
     *
     * @throws io.columnarkafka.format.BatchLayoutException if the batch does not carry the row type
     */
    public void bind(VectorSchemaRoot batch) {
        ArrowLayout.check(rowType, batch);
        List<FieldVector> vectors = batch.getFieldVectors();
        List<FieldVector> viewed = new ArrayList<>(columns.length);
        for (int column : columns) {
            viewed.add(vectors.get(column));
        }
        VectorizedColumnBatch view = ArrowColumnVectors.batch(viewType, viewed);
        view.setNumRows(batch.getRowCount());
        row.setVectorizedColumnBatch(view);
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

    /**
     * Flink's column vectors reading {@code vectors}, which carry the fields of {@code type} in the {@link
     * ArrowLayout} (a batch's columns, or a struct's children): the columns this view's rows read, for a view of
     * another kind over the same batch. Valid while the batch is open.
     */
    public static VectorizedColumnBatch columns(RowType type, List<? extends ValueVector> vectors) {
        return ArrowColumnVectors.batch(type, vectors);
    }

    private static int[] identity(int count) {
        int[] columns = new int[count];
        for (int i = 0; i < count; i++) {
            columns[i] = i;
        }
        return columns;
    }
}
