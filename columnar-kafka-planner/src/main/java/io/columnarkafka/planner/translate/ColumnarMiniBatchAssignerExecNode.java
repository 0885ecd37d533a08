package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.planner.plan.trait.MiniBatchInterval;
import org.apache.flink.table.runtime.operators.wmassigners.ProcTimeMiniBatchAssignerOperator;
import org.apache.flink.table.runtime.operators.wmassigners.RowTimeMiniBatchAssginerOperator;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's own mini-batch assigner operator on the input's batches, picked by mode as {@code
 * StreamExecMiniBatchAssigner} picks it, at the input's parallelism (so it chains to the scan, as Flink's does).
 *
 * <p>The operators are declared on {@code RowData}, but neither reads an element: {@code processElement} of
 * either (Flink 2.2.1) is {@code output.collect(element)}, after the processing-time one has compared the clock
 * with its last mini-batch and emitted a watermark for a new one. So on batches they emit the watermarks Flink's
 * emit on rows: the row-time one's depend on the input's watermarks alone, and the processing-time one's, checked
 * once per batch, are those it emits when a batch's rows arrive within one clock reading
 * ({@code ColumnarMiniBatchAssignerTest} runs both against their own runs on rows).
 */
final class ColumnarMiniBatchAssignerExecNode extends ExecNodeBase<ArrowBatch>
        implements StreamExecNode<ArrowBatch>, SingleTransformationTranslator<ArrowBatch> {
    private final MiniBatchInterval interval;

    ColumnarMiniBatchAssignerExecNode(ReadableConfig config, MiniBatchInterval interval, RowType rowType,
            String description) {
        super(ExecNodeContext.newNodeId(), new ExecNodeContext("stream-exec-columnar-mini-batch-assigner_1"), config,
                List.of(InputProperty.DEFAULT), rowType, description);
        this.interval = interval;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<ArrowBatch> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<ArrowBatch> input = (Transformation<ArrowBatch>) getInputEdges().get(0).translateToPlan(planner);
        return ExecNodeUtil.createOneInputTransformation(input,
                createTransformationMeta("columnar-mini-batch-assigner", config), operator(interval),
                ArrowBatchTypeInfo.INSTANCE, input.getParallelism(), false);
    }

    /** Flink's assigner for {@code interval}'s mode, on batches. */
    @SuppressWarnings("unchecked")
    static OneInputStreamOperator<ArrowBatch, ArrowBatch> operator(MiniBatchInterval interval) {
        OneInputStreamOperator<?, ?> operator = switch (interval.getMode()) {
            case ProcTime -> new ProcTimeMiniBatchAssignerOperator(interval.getInterval());
            case RowTime -> new RowTimeMiniBatchAssginerOperator(interval.getInterval());
            case None -> throw new TableException("a mini-batch assigner in mode None: Flink plans none");
        };
        return (OneInputStreamOperator<ArrowBatch, ArrowBatch>) operator;
    }
}
