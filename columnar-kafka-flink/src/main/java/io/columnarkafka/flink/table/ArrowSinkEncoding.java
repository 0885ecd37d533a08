package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.BatchEncoding;
import io.columnarkafka.flink.sink.RecordColumns;
import io.columnarkafka.flink.sink.SelectedRows;
import io.columnarkafka.format.BatchEncoder;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The encoding of an admitted {@code kafka-columnar} sink fed Arrow batches by the planner: the SQL sink's own
 * encoders ({@link EncodePlan}: Flink's value and key projections, names and format options) on the physical
 * columns; each record's topic, timestamp and headers as Flink's sink picks them, from the table's one topic or
 * from the metadata columns after the physical ones ({@link ArrowRecordColumns}); and the NOT NULL enforcer of
 * Flink's sink node where the table has NOT NULL columns ({@code notNull}, else null). Only shapes with nothing per
 * row beyond that get here ({@link ColumnarTables#arrowSinkAdmission}).
 *
 * @param batchType the batches' columns: the physical ones, then the metadata ones, every type nullable
 */
record ArrowSinkEncoding(EncodePlan plan, RowType batchType, ArrowNotNullEnforcer notNull) implements BatchEncoding {

    @Override
    public RowType rowType() {
        return batchType;
    }

    @Override
    public String topic() {
        return plan.topics().singleTopic();
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
    public VectorSchemaRoot encodedColumns(VectorSchemaRoot root) {
        int physical = plan.physicalType().getFieldCount();
        if (root.getFieldVectors().size() == physical) {
            return root;
        }
        List<FieldVector> vectors = root.getFieldVectors().subList(0, physical);
        return new VectorSchemaRoot(root.getSchema().getFields().subList(0, physical), vectors, root.getRowCount());
    }

    @Override
    public RecordColumns recordColumns() {
        boolean perRecord = plan.topics().singleTopic() == null || plan.metadata().hasTimestamp()
                || plan.metadata().hasHeaders();
        return perRecord ? new ArrowRecordColumns(batchType, plan.topics(), plan.metadata()) : null;
    }

    @Override
    public SelectedRows rowsToWrite(VectorSchemaRoot root, SelectedRows rows) {
        return notNull == null ? rows : notNull.apply(root, rows);
    }
}
