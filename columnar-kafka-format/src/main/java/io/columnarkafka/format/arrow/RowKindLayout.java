package io.columnarkafka.format.arrow;

import java.util.stream.IntStream;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;

/**
 * Where a batch's rows and their kinds are, for an operator that views the batch as Flink rows: a changelog's
 * batches hold the rows' columns, then the row-kind column ({@link RowKindVector}); an insert-only stream's hold the
 * rows' columns only, every row an insert.
 */
public final class RowKindLayout {
    /** The rows' columns where a row-kind column follows them; null where the batch is the rows' columns alone. */
    private final int[] rowColumns;

    private RowKindLayout(int[] rowColumns) {
        this.rowColumns = rowColumns;
    }

    /**
     * @param rowFields the rows' fields, the batch's first columns
     * @param rowKinds whether the row-kind column follows them
     */
    public static RowKindLayout of(int rowFields, boolean rowKinds) {
        return new RowKindLayout(rowKinds ? IntStream.range(0, rowFields).toArray() : null);
    }

    /** The rows' columns of {@code batch}: the batch itself, or a root over its columns before the row kinds. */
    public VectorSchemaRoot rows(VectorSchemaRoot batch) {
        return rowColumns == null ? batch : ArrowLayout.select(batch, rowColumns);
    }

    /** The row-kind column of {@code batch}, or null where its rows are all inserts. */
    public TinyIntVector kinds(VectorSchemaRoot batch) {
        return rowColumns == null ? null : (TinyIntVector) batch.getVector(rowColumns.length);
    }

    /** {@code row} with the kind of batch row {@code index} from {@code kinds} ({@link #kinds}); unchanged if null. */
    public static RowData withKind(RowData row, TinyIntVector kinds, int index) {
        if (kinds != null) {
            row.setRowKind(RowKindVector.kind(kinds, index));
        }
        return row;
    }
}
