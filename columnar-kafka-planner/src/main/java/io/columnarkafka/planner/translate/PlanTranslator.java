package io.columnarkafka.planner.translate;

import io.columnarkafka.planner.edge.StreamPhysicalArrowToRows;
import io.columnarkafka.planner.match.CalcSplit;
import io.columnarkafka.planner.match.NodeDecision;
import io.columnarkafka.planner.match.PlanDecision;
import io.columnarkafka.planner.match.RowKindBatches;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalDropUpdateBefore;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalExpand;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalMiniBatchAssigner;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalSink;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalTableSourceScan;

/**
 * Builds the plan a {@link PlanDecision} describes: each columnar node in place of Flink's, and an
 * Arrow-to-rows edge wherever a Flink node reads a columnar one (carrying the Flink node's reason, so
 * EXPLAIN says why the plan leaves Arrow there); a split Calc as its columnar part, an edge and Flink's Calc of
 * the rest. Decides nothing.
 */
final class PlanTranslator {
    private PlanTranslator() {}

    static RelNode apply(RelNode node, PlanDecision decision) {
        NodeDecision self = decision.of(node);
        List<RelNode> inputs = new ArrayList<>(node.getInputs().size());
        boolean changed = false;
        for (RelNode input : node.getInputs()) {
            RelNode built = apply(input, decision);
            if (decision.of(input).emitsBatches() && !self.isColumnar()) {
                built = new StreamPhysicalArrowToRows(input.getCluster(), input.getTraitSet(), built,
                        self.reason() + " " + self.detail(), decision.edgeRows(), RowKindBatches.carried(input));
            }
            changed |= built != input;
            inputs.add(built);
        }
        if (!self.isColumnar()) {
            return changed ? node.copy(node.getTraitSet(), inputs) : node;
        }
        return switch (self.kind()) {
            case SCAN -> StreamPhysicalColumnarScan.replacing((StreamPhysicalTableSourceScan) node, self.detail(),
                    self.watermark());
            case CALC -> StreamPhysicalColumnarCalc.replacing((StreamPhysicalCalc) node, inputs.get(0), self.program());
            case SPLIT_CALC -> split((StreamPhysicalCalc) node, inputs.get(0), self.split(), decision);
            case DROP_UPDATE_BEFORE -> StreamPhysicalColumnarDropUpdateBefore.replacing(
                    (StreamPhysicalDropUpdateBefore) node, inputs.get(0), self.program());
            case MINI_BATCH_ASSIGNER -> StreamPhysicalColumnarMiniBatchAssigner.replacing(
                    (StreamPhysicalMiniBatchAssigner) node, inputs.get(0));
            case LOCAL_WINDOW_AGGREGATE, VECTOR_LOCAL_WINDOW_AGGREGATE ->
                    StreamPhysicalColumnarLocalWindowAggregate.replacing((StreamPhysicalLocalWindowAggregate) node,
                            inputs.get(0), self);
            case LOCAL_GROUP_AGGREGATE -> StreamPhysicalColumnarLocalGroupAggregate.replacing(
                    (StreamPhysicalLocalGroupAggregate) node, inputs.get(0));
            case EXPAND -> StreamPhysicalColumnarExpand.replacing((StreamPhysicalExpand) node, inputs.get(0));
            case SINK -> StreamPhysicalColumnarSink.replacing((StreamPhysicalSink) node, inputs.get(0), self.detail());
            case ROW_SINK -> StreamPhysicalColumnarRowSink.replacing((StreamPhysicalSink) node, inputs.get(0),
                    self.rowSinkCalc());
            // Left as Flink's Calc (over its built input) for the row sink reading it to take apart.
            case ROW_SINK_CALC -> changed ? node.copy(node.getTraitSet(), inputs) : node;
        };
    }

    /** The columnar calc of the split's columnar part, the edge, then Flink's Calc of the rest over its rows. */
    private static RelNode split(StreamPhysicalCalc calc, RelNode input, CalcSplit split, PlanDecision decision) {
        StreamPhysicalCalc columnarPart = new StreamPhysicalCalc(calc.getCluster(), calc.getTraitSet(), input,
                split.columnarPart(), split.columnarPart().getOutputRowType());
        RelNode columnar = StreamPhysicalColumnarCalc.replacing(columnarPart, input, split.columnarProgram());
        StreamPhysicalArrowToRows rows = new StreamPhysicalArrowToRows(calc.getCluster(), calc.getTraitSet(), columnar,
                split.flinkReason(), decision.edgeRows(), RowKindBatches.carried(calc));
        return new StreamPhysicalSplitRestCalc(calc.getCluster(), calc.getTraitSet(), rows, split.flinkPart(),
                calc.getRowType());
    }
}
