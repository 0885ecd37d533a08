package io.columnarkafka.flink.sink;

/**
 * The rows written of one batch parted into those whose value is encoded and the tombstones ({@link TombstoneRows}),
 * with each written row's record in the value slab. Its arrays are kept for the next batch, so a task allocates them
 * only as its batches grow.
 */
final class ValueRows {
    private int[] selection = new int[0];
    /** Per written row, its record in the value slab, or -1 for a tombstone. */
    private int[] valueRecord = new int[0];

    /**
     * Parts {@code written}: returns the rows whose value is encoded, {@code written} itself when no row is a
     * tombstone.
     */
    SelectedRows part(SelectedRows written, TombstoneRows tombstones) {
        int count = written.count();
        if (selection.length < count) {
            selection = new int[count];
            valueRecord = new int[count];
        }
        int values = 0;
        for (int i = 0; i < count; i++) {
            int row = written.row(i);
            if (tombstones.isTombstone(row)) {
                valueRecord[i] = -1;
            } else {
                valueRecord[i] = values;
                selection[values++] = row;
            }
        }
        return values == count ? written : new SelectedRows(selection, values);
    }

    /** The record in the value slab of written row {@code i} of the last batch parted, or -1 for a tombstone. */
    int valueRecord(int i) {
        return valueRecord[i];
    }
}
