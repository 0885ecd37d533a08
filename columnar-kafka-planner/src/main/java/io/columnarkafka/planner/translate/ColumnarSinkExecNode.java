package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.table.ColumnarTables;
import io.columnarkafka.planner.match.SinkExchange;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.operators.sink.constraint.ConstraintEnforcerExecutor;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The encode operator on the input's batches and Flink's {@code KafkaSink} behind it, built by the connector
 * ({@link ColumnarTables#arrowSink}); like Flink's sink node it is a root of the plan. The encode operator runs
 * Flink's NOT NULL enforcer ({@code notNull}, or none) on the batches, where Flink's node runs it on rows. Where
 * Flink moves the rows to the sink's subtasks otherwise than as they come (by the primary key, or round-robin), the
 * batches' rows are moved so first ({@link SinkExchange}).
 */
final class ColumnarSinkExecNode extends ExecNodeBase<Object> implements StreamExecNode<Object> {
    private final DynamicTableSink sink;
    private final ContextResolvedTable table;
    private final ConstraintEnforcerExecutor notNull;
    /** The input's changelog: insert-only, or a changelog format's kinds, carried in the batches' last column. */
    private final ChangelogMode inputMode;

    ColumnarSinkExecNode(ReadableConfig config, DynamicTableSink sink, ContextResolvedTable table,
            ConstraintEnforcerExecutor notNull, ChangelogMode inputMode, RowType rowType, String description) {
        super(ExecNodeContext.newNodeId(), new ExecNodeContext("stream-exec-columnar-sink_1"), config,
                List.of(InputProperty.DEFAULT), rowType, description);
        this.sink = sink;
        this.table = table;
        this.notNull = notNull;
        this.inputMode = inputMode;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<Object> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<ArrowBatch> input = (Transformation<ArrowBatch>) getInputEdges().get(0).translateToPlan(planner);
        ProviderContext uids = name -> config.shouldSetUid()
                ? Optional.of(createTransformationUid(name, config)) : Optional.empty();
        boolean rowKinds = !inputMode.containsOnly(RowKind.INSERT);
        DataStream<ArrowBatch> batches = shuffledAsFlinks(planner, config,
                new DataStream<>(planner.getExecEnv(), input), rowKinds, uids);
        return SinkProvision.apply(planner, table, inputMode,
                () -> ColumnarTables.arrowSink(sink, batches, createTransformationName(config), uids,
                        notNull, rowKinds));
    }

    /**
     * The batches moved to the sink's subtasks as Flink moves its rows ({@link SinkExchange#flinks}, with the input's
     * parallelism now known): by the primary key, each row's key made by Flink's own key selector of the input's rows
     * ({@code KeySelectorUtil.getRowDataSelector}, as {@code CommonExecSink.applyKeyBy} makes it), or round-robin, or
     * as they are.
     */
    private DataStream<ArrowBatch> shuffledAsFlinks(PlannerBase planner, ExecNodeConfig config,
            DataStream<ArrowBatch> batches, boolean rowKinds, ProviderContext uids) {
        int[] primaryKey = SinkExchange.primaryKey(table.getResolvedSchema());
        Integer configured = ColumnarTables.parallelism(sink);
        int sinkParallelism = configured != null ? configured : batches.getParallelism();
        return switch (SinkExchange.flinks(primaryKey.length > 0, ColumnarTables.reportedParallelism(sink), configured,
                batches.getParallelism(), config)) {
            case AS_IS -> batches;
            case ROUND_ROBIN -> ColumnarTables.roundRobinExchange(sink, batches, sinkParallelism, uids);
            case KEY_GROUPS -> ColumnarTables.keyedExchange(sink, batches,
                    KeySelectorUtil.getRowDataSelector(planner.getFlinkContext().getClassLoader(), primaryKey,
                            InternalTypeInfo.of(getInputEdges().get(0).getOutputType())),
                    rowKinds, sinkParallelism, uids);
        };
    }
}
