package io.columnarkafka.format;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows a {@link BatchDecoder} made of one batch of records, and for each row the index of the record
 * it came from (rows are in record order; a record may yield no row, one, or several). The batch owns its vectors: {@link #close()} frees them, unless ownership was taken over
 * with {@link #takeRoot()}.
 */
public final class DecodedBatch implements AutoCloseable {
    private VectorSchemaRoot root;
    private final int[] rowRecords;
    private final int records;

    /**
     * @param root the decoded rows
     * @param rowRecords the record index of every row, non-decreasing, or null when every record gave exactly
     *     its own row
     * @param records how many records were decoded
     */
    public DecodedBatch(VectorSchemaRoot root, int[] rowRecords, int records) {
        this.root = root;
        this.rowRecords = rowRecords;
        this.records = records;
    }

    public VectorSchemaRoot root() {
        if (root == null) {
            throw new IllegalStateException("the decoded root was taken over or closed");
        }
        return root;
    }

    /** Gives up the root: the caller now owns it and closing this batch no longer frees it. */
    public VectorSchemaRoot takeRoot() {
        VectorSchemaRoot taken = root();
        root = null;
        return taken;
    }

    public int rowCount() {
        return rowRecords == null ? records : rowRecords.length;
    }

    /** Number of records decoded, rows or not. */
    public int recordCount() {
        return records;
    }

    /**
     * Records that yielded no row (tombstones or, under {@code ignore-parse-errors}, malformed ones). A
     * record may also yield several rows (a JSON array), so this counts the records no row maps to.
     */
    public int skippedRecords() {
        if (rowRecords == null) {
            return 0;
        }
        int withRows = 0;
        for (int i = 0; i < rowRecords.length; i++) {
            if (i == 0 || rowRecords[i] != rowRecords[i - 1]) {
                withRows++;
            }
        }
        return records - withRows;
    }

    /** The index, in the decoded {@link RecordBytes}, of the record row {@code row} came from. */
    public int recordOf(int row) {
        if (row < 0 || row >= rowCount()) {
            throw new IndexOutOfBoundsException("row " + row + " of " + rowCount());
        }
        return rowRecords == null ? row : rowRecords[row];
    }

    @Override
    public void close() {
        if (root != null) {
            root.close();
            root = null;
        }
    }
}
