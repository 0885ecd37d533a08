package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.BatchEncoding;
import io.columnarkafka.flink.sink.RecordColumns;
import io.columnarkafka.flink.sink.SelectedRows;
import io.columnarkafka.flink.sink.TombstoneRows;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.stream.IntStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The encoding of an admitted {@code kafka-columnar} sink fed Arrow batches by the planner: the SQL sink's own
 * encoders ({@link EncodePlan}: Flink's value and key projections, names and format options) on the physical
 * columns (and the row-kind column, for a changelog format fed a changelog); each record's topic, timestamp and
 * headers as Flink's sink picks them, from the table's one topic or from the metadata columns after the physical ones
 * ({@link ArrowRecordColumns}); the NOT NULL enforcer of Flink's sink node where the table has NOT NULL columns
 * ({@code notNull}, else null); and, for an upsert table fed a changelog, its tombstones ({@link RowKindTombstones}).
 * Only shapes with nothing per row beyond that get here ({@link ColumnarTables#arrowSinkAdmission}).
 *
 * @param batchType the batches' columns: the physical ones, the metadata ones, then any row-kind column, every type
 *     nullable
 * @param encoded the batch columns the encoders read, in their order
 * @param tombstoneKinds the row-kind column that tells an upsert table's tombstones, or -1 when no row is one
 */
record ArrowSinkEncoding(EncodePlan plan, RowType batchType, ArrowNotNullEnforcer notNull, int[] encoded,
        int tombstoneKinds) implements BatchEncoding {

    /**
     * The encoding of batches of {@code batchType}: the encoders read the physical columns, then the row kinds for a
     * changelog value format; an upsert table fed a changelog ({@code rowKinds}: the batches' last column holds each
     * row's kind) reads them for its tombstones alone.
     */
    static ArrowSinkEncoding of(EncodePlan plan, RowType batchType, ArrowNotNullEnforcer notNull, boolean rowKinds) {
        int kindColumn = rowKinds ? batchType.getFieldCount() - 1 : -1;
        IntStream encoded = IntStream.range(0, plan.physicalType().getFieldCount());
        if (plan.rowKindColumn() != null) {
            encoded = IntStream.concat(encoded, IntStream.of(kindColumn));
        }
        return new ArrowSinkEncoding(plan, batchType, notNull, encoded.toArray(), plan.upsertMode() ? kindColumn : -1);
    }

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
        // the encoded columns lead the batch unless metadata columns come between them and the row kinds
        return encoded.length == root.getFieldVectors().size() ? root : ArrowLayout.select(root, encoded);
    }

    @Override
    public RecordColumns recordColumns() {
        boolean perRecord = plan.topics().singleTopic() == null || plan.metadata().hasTimestamp()
                || plan.metadata().hasHeaders();
        return perRecord ? new ArrowRecordColumns(batchType, plan.topics(), plan.metadata()) : null;
    }

    @Override
    public TombstoneRows tombstones() {
        return tombstoneKinds < 0 ? null : new RowKindTombstones(tombstoneKinds);
    }

    @Override
    public SelectedRows rowsToWrite(VectorSchemaRoot root, SelectedRows rows) {
        return notNull == null ? rows : notNull.apply(root, rows);
    }
}
