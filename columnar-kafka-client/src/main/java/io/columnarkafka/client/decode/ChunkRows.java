package io.columnarkafka.client.decode;

import io.columnarkafka.format.DecodedBatch;

/**
 * The rows a chunk gives before its keys are decoded, in record order: for each, the chunk record it comes from
 * and its row among the decoded values, or none for an upsert tombstone (Flink's {@code
 * DynamicKafkaDeserializationSchema} makes a record with a null value in upsert mode a DELETE row holding the key
 * fields, nulls elsewhere; every other row has the value row's kind, INSERT).
 */
final class ChunkRows {
    private static final int TOMBSTONE = -1;

    /** The chunk record of each row. */
    private final int[] records;
    /** The value row of each row, {@link #TOMBSTONE} for a tombstone; null: row {@code i} is value row {@code i}. */
    private final int[] valueRows;

    private ChunkRows(int[] records, int[] valueRows) {
        this.records = records;
        this.valueRows = valueRows;
    }

    /**
     * The rows of {@code values} and, in upsert mode, of the tombstones among the chunk's records, merged in record
     * order.
     *
     * @param values the rows the value decoder made of the records it was given
     * @param fedRecords the chunk record of each record given to the value decoder, or null when it was given
     *     every record of the chunk (not upsert mode)
     * @param tombstones in upsert mode, which chunk records have a null value (none given to the value decoder);
     *     null otherwise
     */
    static ChunkRows of(DecodedBatch values, int[] fedRecords, boolean[] tombstones, int tombstoneCount) {
        int valueRowCount = values.rowCount();
        if (tombstoneCount == 0) {
            int[] records = new int[valueRowCount];
            for (int row = 0; row < valueRowCount; row++) {
                int fed = values.recordOf(row);
                records[row] = fedRecords == null ? fed : fedRecords[fed];
            }
            return new ChunkRows(records, null);
        }
        int count = valueRowCount + tombstoneCount;
        int[] records = new int[count];
        int[] valueRows = new int[count];
        int valueRow = 0;
        int row = 0;
        for (int record = 0; record < tombstones.length; record++) {
            if (tombstones[record]) {
                records[row] = record;
                valueRows[row++] = TOMBSTONE;
            }
            while (valueRow < valueRowCount && fedRecords[values.recordOf(valueRow)] == record) {
                records[row] = record;
                valueRows[row++] = valueRow++;
            }
        }
        return new ChunkRows(records, valueRows);
    }

    int count() {
        return records.length;
    }

    /** The chunk record of row {@code row}. */
    int record(int row) {
        return records[row];
    }

    /** Whether every row is the value row of the same index (no tombstone among them). */
    boolean valueRowsOnly() {
        return valueRows == null;
    }

    /** Whether row {@code row} is a tombstone's DELETE row. */
    boolean tombstone(int row) {
        return valueRows != null && valueRows[row] == TOMBSTONE;
    }

    /** The value row of row {@code row}; not for a tombstone. */
    int valueRow(int row) {
        return valueRows == null ? row : valueRows[row];
    }
}
