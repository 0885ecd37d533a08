package io.columnarkafka.planner.match;

/** The node kinds the stage can run on Arrow, and whether each emits Arrow batches or rows. */
public enum NodeKind {
    SCAN(true),
    CALC(true),
    /**
     * A Calc split at an edge ({@link CalcSplit}): the columnar calc applies its condition, Flink's Calc computes
     * the projections it keeps on the rows that passed; it emits Flink's rows.
     */
    SPLIT_CALC(false),
    /**
     * Flink's Expand (the split distinct aggregate's one row per distinct column) on the batches ({@code
     * ColumnarExpand}): each input row's projections in turn, as Flink's operator emits them.
     */
    EXPAND(true),
    /**
     * Flink's {@code DropUpdateBefore} on the batches of a changelog: the columnar calc's selection of the rows whose
     * kind is not UPDATE_BEFORE ({@link DropUpdateBeforeTranslation}).
     */
    DROP_UPDATE_BEFORE(true),
    /** Flink's mini-batch assigner, which forwards elements unread and only emits watermarks. */
    MINI_BATCH_ASSIGNER(true),
    /**
     * Flink's local window aggregate (the first phase of a two-phase window aggregate), reading the batches in
     * place; it emits Flink's rows (keys, accumulators, slice end) for Flink's global window aggregate.
     */
    LOCAL_WINDOW_AGGREGATE(false),
    /**
     * The same node computed on the vectors ({@code VectorLocalWindowAggOperator}): the same rows for the shapes
     * {@code LocalWindowAggTranslation} admits.
     */
    VECTOR_LOCAL_WINDOW_AGGREGATE(false),
    /**
     * Flink's local group aggregate (mini-batch's first phase of a group aggregate) computed on the vectors ({@code
     * VectorLocalGroupAggOperator}) for the shapes {@code LocalGroupAggTranslation} admits; it emits Flink's rows
     * (keys, accumulators) for Flink's global group aggregate.
     */
    LOCAL_GROUP_AGGREGATE(false),
    SINK(false),
    /**
     * A {@code kafka-columnar} sink fed rows, Flink's sink node replaced ({@code ColumnarRowSink}): the connector's
     * encode operator runs Flink's constraint enforcer and rowtime step on each row itself.
     */
    ROW_SINK(false),
    /**
     * Flink's Calc over rows feeding a {@link #ROW_SINK}, taken into its encode operator ({@code RowSinkCalc}): the
     * row sink runs Flink's generated code for it; the translator leaves it for the row sink to take apart.
     */
    ROW_SINK_CALC(false);

    private final boolean emitsBatches;

    NodeKind(boolean emitsBatches) {
        this.emitsBatches = emitsBatches;
    }

    /** True when the node's output is Arrow batches, false when it is rows (or nothing). */
    public boolean emitsBatches() {
        return emitsBatches;
    }
}
