package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.expand.ColumnarExpandOperator;
import io.columnarkafka.flink.expand.ExpandSpec;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;

/**
 * {@link ColumnarExpandOperator} on the input's batches, at the input's parallelism (so it chains, as Flink's Expand
 * does: {@code CommonExecExpand} gives its operator the input's parallelism).
 */
final class ColumnarExpandExecNode extends ExecNodeBase<ArrowBatch>
        implements StreamExecNode<ArrowBatch>, SingleTransformationTranslator<ArrowBatch> {
    private final ExpandSpec spec;

    ColumnarExpandExecNode(ReadableConfig config, ExpandSpec spec, String description) {
        super(ExecNodeContext.newNodeId(), new ExecNodeContext("stream-exec-columnar-expand_1"), config,
                List.of(InputProperty.DEFAULT), spec.output(), description);
        this.spec = spec;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<ArrowBatch> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<ArrowBatch> input = (Transformation<ArrowBatch>) getInputEdges().get(0).translateToPlan(planner);
        return ExecNodeUtil.createOneInputTransformation(input, createTransformationMeta("columnar-expand", config),
                new ColumnarExpandOperator(spec), ArrowBatchTypeInfo.INSTANCE, input.getParallelism(), false);
    }
}
