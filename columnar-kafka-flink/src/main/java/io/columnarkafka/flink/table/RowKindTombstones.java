package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.TombstoneRows;
import io.columnarkafka.format.arrow.RowKindVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.types.RowKind;

/**
 * An upsert table's tombstones in batches of a changelog: the rows whose kind (the batch's row-kind column) is DELETE
 * or UPDATE_BEFORE, the rows Flink's {@code DynamicKafkaRecordSerializationSchema} in upsert mode writes with a null
 * value.
 */
final class RowKindTombstones implements TombstoneRows {
    private final int kindColumn;
    private TinyIntVector kinds;

    RowKindTombstones(int kindColumn) {
        this.kindColumn = kindColumn;
    }

    @Override
    public void bind(VectorSchemaRoot batch) {
        kinds = (TinyIntVector) batch.getVector(kindColumn);
    }

    @Override
    public boolean isTombstone(int row) {
        RowKind kind = RowKindVector.kind(kinds, row);
        return kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE;
    }
}
