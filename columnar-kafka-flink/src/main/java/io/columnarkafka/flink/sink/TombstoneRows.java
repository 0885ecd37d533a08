package io.columnarkafka.flink.sink;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Which rows of a batch are written as tombstones: a record with the row's key and a null value, whose value is
 * never encoded (a SQL upsert sink writes a changelog's deletions so). Made once per task; bound to each batch before
 * its rows are read.
 */
public interface TombstoneRows {
    /** Points the reads at {@code batch}. */
    void bind(VectorSchemaRoot batch);

    /** Whether row {@code row} is a tombstone; throws naming the row where the batch cannot say. */
    boolean isTombstone(int row);
}
