package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.table.LocalGroupAggSpec;
import io.columnarkafka.flink.table.VectorLocalGroupAggOperator;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@link VectorLocalGroupAggOperator} on the input's batches, at the input's parallelism (so it chains to the
 * columnar calc, as Flink's local aggregate to its Calc), with the bundle size Flink's exec node gives its {@code
 * CountBundleTrigger}: {@code table.exec.mini-batch.size} of the node's config. Its groups live on the heap, as
 * Flink's bundle map does: no managed memory.
 */
final class ColumnarLocalGroupAggregateExecNode extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    private final LocalGroupAggSpec spec;

    ColumnarLocalGroupAggregateExecNode(ReadableConfig config, LocalGroupAggSpec spec, RowType outputType,
            String description) {
        super(ExecNodeContext.newNodeId(), new ExecNodeContext("stream-exec-columnar-local-group-aggregate_1"),
                config, List.of(InputProperty.DEFAULT), outputType, description);
        this.spec = spec;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<ArrowBatch> input = (Transformation<ArrowBatch>) getInputEdges().get(0).translateToPlan(planner);
        long bundleSize = config.get(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_SIZE);
        return ExecNodeUtil.createOneInputTransformation(input,
                createTransformationMeta("columnar-local-group-aggregate", config),
                new VectorLocalGroupAggOperator(spec, bundleSize), InternalTypeInfo.of((RowType) getOutputType()),
                input.getParallelism(), false);
    }
}
