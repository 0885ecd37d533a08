package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.source.ArrowBatchOutput;
import io.columnarkafka.flink.source.BatchOutput;
import io.columnarkafka.flink.source.BatchOutputFactory;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;

/**
 * The Arrow-emitting scan's per-batch output: the decoded batch cut down to the query's columns, in the
 * query's order, without copying a vector. A scan decodes key columns the query may not read (a record gives
 * a row only if its key decodes, as in Flink); those vectors are freed here, before the batch goes on. Each
 * batch is lent ({@link ArrowBatchOutput#LENDING}): the planner may share one scan among several consumers.
 */
final class ArrowBatchProjection implements BatchOutputFactory<ArrowBatch>, BatchOutput<ArrowBatch> {
    private static final long serialVersionUID = 1L;

    private final int[] columns;

    /** @param columns the decoded batch's column of each output column, in order, none twice */
    ArrowBatchProjection(int[] columns) {
        this.columns = columns.clone();
    }

    @Override
    public BatchOutput<ArrowBatch> create(SourceReaderContext context) {
        return this;
    }

    @Override
    public TypeInformation<ArrowBatch> producedType() {
        return ArrowBatchOutput.INSTANCE.producedType();
    }

    @Override
    public void emit(VectorSchemaRoot rows, long timestamp, String splitId, SourceOutput<ArrowBatch> output) {
        emitAndReturn(rows, timestamp, splitId, output).close();
    }

    /**
     * Lends the projected rows for the hand-over and returns the decoded root once it is over: the columns projected
     * away are closed, the others still hold the batch (closing or reusing the root frees them).
     */
    @Override
    public VectorSchemaRoot emitAndReturn(VectorSchemaRoot rows, long timestamp, String splitId,
            SourceOutput<ArrowBatch> output) {
        if (isIdentity(rows)) {
            return ArrowBatchOutput.LENDING.emitAndReturn(rows, timestamp, splitId, output);
        }
        ArrowBatchOutput.LENDING.emitAndReturn(project(rows), timestamp, splitId, output);
        return rows;
    }

    private boolean isIdentity(VectorSchemaRoot rows) {
        if (columns.length != rows.getFieldVectors().size()) {
            return false;
        }
        for (int i = 0; i < columns.length; i++) {
            if (columns[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** A root over the chosen vectors; the decoded root's other vectors are closed. */
    private VectorSchemaRoot project(VectorSchemaRoot rows) {
        List<FieldVector> all = rows.getFieldVectors();
        List<FieldVector> kept = new ArrayList<>(columns.length);
        boolean[] used = new boolean[all.size()];
        for (int column : columns) {
            kept.add(all.get(column));
            used[column] = true;
        }
        for (int i = 0; i < all.size(); i++) {
            if (!used[i]) {
                all.get(i).close();
            }
        }
        VectorSchemaRoot projected = new VectorSchemaRoot(kept);
        projected.setRowCount(rows.getRowCount());
        return projected;
    }
}
