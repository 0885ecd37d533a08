package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.table.ArrowLocalWindowAggOperator;
import io.columnarkafka.flink.table.LocalWindowAggSpec;
import io.columnarkafka.flink.table.VectorLocalWindowAggOperator;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.runtime.operators.aggregate.window.LocalSlicingWindowAggOperator;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's local window aggregate on the input's batches: Flink's exec node translates the aggregate over this
 * node's input (generating its key selector, slice assigner and combiner exactly as for rows), and its operator
 * runs as {@link ArrowLocalWindowAggOperator} in a transformation with the same name, parallelism (the input's,
 * so it chains to the columnar calc) and managed memory weight; or, for a vectorised shape, {@link
 * VectorLocalWindowAggOperator} in its place, with the same name and parallelism.
 */
final class ColumnarLocalWindowAggregateExecNode extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    private final StreamExecLocalWindowAggregate flinks;
    private final LocalWindowAggSpec vectorised;

    ColumnarLocalWindowAggregateExecNode(ReadableConfig config, StreamExecLocalWindowAggregate flinks,
            LocalWindowAggSpec vectorised, String description) {
        // Flink's node, made only to translate the aggregate, already took this node's number in Flink's plan: take it
        // too, not the next, so Flink's nodes after this one keep their numbers, and so their generated uids
        super(flinks.getId(), new ExecNodeContext("stream-exec-columnar-local-window-aggregate_1"),
                config, List.of(InputProperty.DEFAULT), flinks.getOutputType(), description);
        this.flinks = flinks;
        this.vectorised = vectorised;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<ArrowBatch> input = (Transformation<ArrowBatch>) getInputEdges().get(0).translateToPlan(planner);
        flinks.setInputEdges(getInputEdges());
        OneInputTransformation<?, RowData> flinksTransformation =
                (OneInputTransformation<?, RowData>) flinks.translateToPlan(planner);
        LocalSlicingWindowAggOperator flinksOperator = (LocalSlicingWindowAggOperator)
                ((SimpleOperatorFactory<RowData>) flinksTransformation.getOperatorFactory()).getOperator();
        OneInputTransformation<ArrowBatch, RowData> transformation = new OneInputTransformation<>(input,
                flinksTransformation.getName(),
                SimpleOperatorFactory.of(vectorised != null ? new VectorLocalWindowAggOperator(vectorised)
                        : ArrowLocalWindowAggOperator.of(flinksOperator,
                                (RowType) getInputEdges().get(0).getOutputType())),
                flinksTransformation.getOutputType(), flinksTransformation.getParallelism(), false);
        transformation.setDescription(flinksTransformation.getDescription());
        if (config.shouldSetUid()) {
            transformation.setUid(createTransformationUid("columnar-local-window-aggregate", config));
        }
        if (vectorised != null) {
            return transformation; // its groups live on the heap: no managed memory
        }
        Integer weight = flinksTransformation.getManagedMemoryOperatorScopeUseCaseWeights()
                .get(ManagedMemoryUseCase.OPERATOR);
        if (weight != null) {
            transformation.declareManagedMemoryUseCaseAtOperatorScope(ManagedMemoryUseCase.OPERATOR, weight);
        }
        return transformation;
    }
}
