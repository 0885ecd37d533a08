package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.ColumnarCalcOperator;
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
import org.apache.flink.table.types.logical.RowType;

/** {@link ColumnarCalcOperator} on the input's batches, at the input's parallelism (so it chains, as Flink's Calc). */
final class ColumnarCalcExecNode extends ExecNodeBase<ArrowBatch>
        implements StreamExecNode<ArrowBatch>, SingleTransformationTranslator<ArrowBatch> {
    private final CalcProgram program;

    ColumnarCalcExecNode(ReadableConfig config, CalcProgram program, RowType rowType, String description) {
        super(ExecNodeContext.newNodeId(), new ExecNodeContext("stream-exec-columnar-calc_1"), config,
                List.of(InputProperty.DEFAULT), rowType, description);
        this.program = program;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<ArrowBatch> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<ArrowBatch> input = (Transformation<ArrowBatch>) getInputEdges().get(0).translateToPlan(planner);
        return ExecNodeUtil.createOneInputTransformation(input, createTransformationMeta("columnar-calc", config),
                new ColumnarCalcOperator(program), ArrowBatchTypeInfo.INSTANCE, input.getParallelism(), false);
    }
}
