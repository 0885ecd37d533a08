package io.columnarkafka.format.json;

import io.columnarkafka.format.DecodedBatch;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows a JSON-based decoder writes into one batch's vectors, and the record each came from. Sizes the
 * row columns once per batch (a row per record; a string or binary column the bytes per row it took in the last
 * batch, at first a share of the records' bytes) and binds them to the readers.
 */
final class DecodedRows {
    private final JsonRowFields fields;
    /** For each column of the batch's row, its field in {@link #fields}. */
    private final int[] columnFields;
    /** Bytes per row of each variable-width top-level column in the last batch, to size the next one. */
    private final double[] bytesPerRow;
    private int[] rowRecords = new int[64];
    private int rows;

    /** Rows of every field of {@code fields}, in order. */
    DecodedRows(JsonRowFields fields) {
        this(fields, IntStream.range(0, fields.arity()).toArray());
    }

    /** Rows of the fields {@code columnFields} names, in order; the other fields are only checked. */
    DecodedRows(JsonRowFields fields, int[] columnFields) {
        this.fields = fields;
        this.columnFields = columnFields;
        this.bytesPerRow = new double[columnFields.length];
    }

    /**
     * Starts a batch of {@code count} records holding {@code totalBytes}: allocates the first {@code
     * columnFields.length} vectors of {@code root} (the row's columns) and binds them. A vector of a tree taken back
     * with its buffers (reset: empty and zeroed, {@link io.columnarkafka.format.arrow.RecycledRoot}) keeps them when
     * they hold the rows (and a string column the bytes) this batch is sized for; nested children grow as they fill.
     *
     * @param variableShare the part of the records' bytes the row columns take, to size the first batch
     */
    void start(VectorSchemaRoot root, int count, long totalBytes, int variableShare) {
        int rowsHint = Math.max(count, 1);
        List<FieldVector> vectors = root.getFieldVectors();
        int variable = 0;
        for (int i = 0; i < bytesPerRow.length; i++) {
            if (vectors.get(i) instanceof BaseVariableWidthVector) {
                variable++;
            }
        }
        for (int i = 0; i < bytesPerRow.length; i++) {
            FieldVector v = vectors.get(i);
            if (v instanceof BaseVariableWidthVector variableWidth) {
                long bytes = bytesPerRow[i] > 0 ? (long) (bytesPerRow[i] * rowsHint * 1.1) + 16
                        : totalBytes / variable / variableShare + 16;
                if (variableWidth.getValueCapacity() < rowsHint || variableWidth.getByteCapacity() < bytes) {
                    variableWidth.allocateNew(bytes, rowsHint);
                }
            } else if (v.getValueCapacity() < rowsHint) {
                v.setInitialCapacity(rowsHint);
                v.allocateNew();
            }
            fields.bind(columnFields[i], v);
        }
        if (rowRecords.length < count) {
            rowRecords = new int[count];
        }
        rows = 0;
    }

    /** The index of the next row. */
    int next() {
        return rows;
    }

    /** Row {@link #next()} is written, from record {@code record}. */
    void added(int record) {
        if (rows == rowRecords.length) {
            rowRecords = Arrays.copyOf(rowRecords, rows * 2);
        }
        rowRecords[rows++] = record;
    }

    /** Drops the rows from {@code row} on. */
    void truncate(int row) {
        fields.truncate(row);
        rows = row;
    }

    /** Ends the batch: sets the row count, learns the column sizes, maps the rows to their records. */
    DecodedBatch finish(VectorSchemaRoot root, int count) {
        root.setRowCount(rows);
        learnSizes(root.getFieldVectors());
        boolean oneRowPerRecord = rows == count && isIdentity();
        return new DecodedBatch(root, oneRowPerRecord ? null : Arrays.copyOf(rowRecords, rows), count);
    }

    private boolean isIdentity() {
        for (int i = 0; i < rows; i++) {
            if (rowRecords[i] != i) {
                return false;
            }
        }
        return true;
    }

    private void learnSizes(List<FieldVector> vectors) {
        if (rows == 0) {
            return;
        }
        for (int i = 0; i < bytesPerRow.length; i++) {
            if (vectors.get(i) instanceof BaseVariableWidthVector variableWidth) {
                bytesPerRow[i] = (double) variableWidth.getOffsetBuffer().getInt((long) rows * 4) / rows;
            }
        }
    }
}
