package io.columnarkafka.flink.table;

import io.columnarkafka.format.arrow.RowKindLayout;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's keyed shuffle in front of a sink ({@code CommonExecSink.applyKeyBy}: a {@code KeyGroupStreamPartitioner}
 * over the primary key) on Arrow batches: each row to the sink subtask {@code
 * KeyGroupRangeAssignment.assignKeyToParallelOperator} picks for the key Flink's own key selector ({@code keys}, the
 * planner's) makes of the row, read in place from the batch. The key is a row of its own, of kind INSERT whatever the
 * row's (Flink's generated projection sets none), so the row's kind is not read.
 */
final class KeyGroupSplit extends BatchSplit {
    private static final long serialVersionUID = 1L;

    private final KeySelector<RowData, RowData> keys;
    /** The rows' type: the batches' columns before any row-kind column. */
    private final RowType rowType;
    private final boolean rowKinds;
    /** The key groups of the sink's subtasks: their max parallelism, which Flink's partitioner is configured with. */
    private final int maxParallelism;

    private transient ArrowInPlaceRowView rows;
    private transient RowKindLayout layout;

    /**
     * @param keys Flink's key selector of the sink node's input rows (its {@code RowDataKeySelector})
     * @param rowType the rows' type, every field nullable as the batches' layout
     * @param rowKinds whether the batches carry each row's kind in a column after {@code rowType}'s (not read)
     * @param sinkParallelism the sink's subtasks
     * @param maxParallelism the sink's max parallelism, the key groups Flink's partitioner assigns
     */
    KeyGroupSplit(KeySelector<RowData, RowData> keys, RowType rowType, boolean rowKinds, int sinkParallelism,
            int maxParallelism) {
        super(sinkParallelism);
        this.keys = keys;
        this.rowType = rowType;
        this.rowKinds = rowKinds;
        this.maxParallelism = maxParallelism;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        super.open(openContext);
        rows = new ArrowInPlaceRowView(rowType);
        layout = RowKindLayout.of(rowType.getFieldCount(), rowKinds);
    }

    @Override
    int[] subtasksOf(VectorSchemaRoot root, int[] selection, int count) throws Exception {
        rows.bind(layout.rows(root));
        int[] subtasks = new int[count];
        for (int i = 0; i < count; i++) {
            RowData row = rows.row(selection == null ? i : selection[i]);
            subtasks[i] = KeyGroupRangeAssignment.assignKeyToParallelOperator(keys.getKey(row), maxParallelism,
                    sinkParallelism);
        }
        return subtasks;
    }
}
