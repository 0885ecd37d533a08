package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.table.ColumnarTables;
import io.columnarkafka.flink.table.SinkRowCalc;
import io.columnarkafka.planner.match.FlinkSinkSteps;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.types.logical.RowType;

/**
 * The connector's runtime for a sink fed rows, built where Flink's {@code StreamExecSink} would build its own
 * operators and hand the last one's stream to the connector's provider: the steps Flink's node would add ({@link
 * FlinkSinkSteps}, made from this node's configuration as Flink makes them) go into the encode operator instead
 * ({@link ColumnarTables#rowSink}), after the Calc taken in, if any (Flink's generated code for it, {@link
 * RowSinkCalcCode}, generated here as {@code CommonExecCalc.translateToPlanInternal} generates its operator's).
 * Uids and the sink's lineage as Flink's node gives them; like Flink's sink node it is a root of the plan.
 */
final class ColumnarRowSinkExecNode extends ExecNodeBase<Object> implements StreamExecNode<Object> {
    private final ContextResolvedTable table;
    private final DynamicTableSink sink;
    private final ChangelogMode inputChangelogMode;
    /** The Calc taken in, or null. */
    private final StreamPhysicalColumnarRowSink.TakenCalc calc;

    /** {@code rowType}: the rows the sink consumes (the Calc's output where one was taken in). */
    ColumnarRowSinkExecNode(ReadableConfig config, ContextResolvedTable table, DynamicTableSink sink,
            ChangelogMode inputChangelogMode, RowType rowType, StreamPhysicalColumnarRowSink.TakenCalc calc,
            String description) {
        super(ExecNodeContext.newNodeId(), new ExecNodeContext("stream-exec-columnar-row-sink_1"), config,
                List.of(InputProperty.DEFAULT), rowType, description);
        this.table = table;
        this.sink = sink;
        this.inputChangelogMode = inputChangelogMode;
        this.calc = calc;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<Object> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        RowType inputType = (RowType) getInputEdges().get(0).getOutputType();
        RowType consumed = (RowType) getOutputType();
        SinkRowCalc sinkCalc = calc == null ? null : new SinkRowCalc(RowSinkCalcCode.generate(config,
                planner.getFlinkContext().getClassLoader(), inputType, consumed, calc.projection(), calc.condition()),
                consumed, calc.name());
        ProviderContext uids = name -> config.shouldSetUid()
                ? Optional.of(createTransformationUid(name, config)) : Optional.empty();
        return SinkProvision.apply(planner, table, inputChangelogMode, () -> ColumnarTables.rowSink(sink,
                new DataStream<>(planner.getExecEnv(), input),
                FlinkSinkSteps.head(table.getResolvedSchema(), consumed, config, sinkCalc), uids));
    }
}
