package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.BatchEncoding;
import io.columnarkafka.flink.sink.SelectedRows;
import io.columnarkafka.format.BatchEncoder;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The encoding of an admitted {@code kafka-columnar} sink fed Arrow batches by the planner: the SQL
 * sink's own encoders ({@link EncodePlan}: Flink's value and key projections, names and format options),
 * every record to the table's one topic. Only shapes with nothing per row beyond the columns get here
 * ({@link ColumnarTables#arrowSinkAdmission}), and the NOT NULL enforcer of Flink's sink node where the table has
 * NOT NULL columns ({@code notNull}, else null).
 */
record ArrowSinkEncoding(EncodePlan plan, String topic, ArrowNotNullEnforcer notNull) implements BatchEncoding {

    @Override
    public RowType rowType() {
        return plan.physicalType();
    }

    @Override
    public String describe() {
        return plan.description();
    }

    @Override
    public BatchEncoder valueEncoder() {
        return plan.valueEncoder();
    }

    @Override
    public BatchEncoder keyEncoder() {
        return plan.keyEncoder();
    }

    @Override
    public SelectedRows rowsToWrite(VectorSchemaRoot root, SelectedRows rows) {
        return notNull == null ? rows : notNull.apply(root, rows);
    }
}
