package io.columnarkafka.planner.edge;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.table.ArrowToRowsOperator;
import io.columnarkafka.flink.table.EdgeRows;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
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
 * {@link ArrowToRowsOperator} at the input's parallelism, so it chains to the columnar node before it; its id is that
 * node's ({@link ArrowProducer}).
 */
final class ArrowToRowsExecNode extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    private final RowType rowType;
    private final EdgeRows rows;
    private final boolean rowKinds;

    ArrowToRowsExecNode(int id, ReadableConfig config, RowType rowType, EdgeRows rows, boolean rowKinds,
            String description) {
        super(id, new ExecNodeContext("stream-exec-arrow-to-rows_1"), config,
                List.of(InputProperty.DEFAULT), rowType, description);
        this.rowType = rowType;
        this.rows = rows;
        this.rowKinds = rowKinds;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<ArrowBatch> input = (Transformation<ArrowBatch>) getInputEdges().get(0).translateToPlan(planner);
        return ExecNodeUtil.createOneInputTransformation(input, createTransformationMeta("arrow-to-rows", config),
                new ArrowToRowsOperator(rowType, rows, rowKinds), InternalTypeInfo.of(rowType), input.getParallelism(),
                false);
    }
}
