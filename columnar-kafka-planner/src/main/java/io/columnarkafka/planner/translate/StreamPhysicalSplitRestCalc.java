package io.columnarkafka.planner.translate;

import io.columnarkafka.planner.edge.StreamPhysicalArrowToRows;
import io.columnarkafka.planner.translate.StreamPhysicalColumnarRowSink.TakenCalc;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexProgram;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * Flink's Calc of what a split Calc leaves to Flink, after the split's edge: Flink's node, numbered as the Calc it
 * was split from, which its columnar part and the edge are numbered as too ({@code ArrowProducer}). So the split adds
 * no number, Flink's nodes after it keep the numbers they have in Flink's plan and, with generated uids, their uids
 * (q12's window aggregate and sink), and this Calc's uid ({@code <n>_calc}) is the split Calc's.
 */
final class StreamPhysicalSplitRestCalc extends StreamPhysicalCalc {
    StreamPhysicalSplitRestCalc(RelOptCluster cluster, RelTraitSet traits, StreamPhysicalArrowToRows edge,
            RexProgram program, RelDataType rowType) {
        super(cluster, traits, edge, program, rowType);
    }

    /** Flink's Calc, so EXPLAIN names it as such ({@code Calc(select=...)}). */
    @Override
    public String getRelTypeName() {
        return StreamPhysicalCalc.class.getSimpleName();
    }

    @Override
    public Calc copy(RelTraitSet traitSet, RelNode child, RexProgram program) {
        return new StreamPhysicalSplitRestCalc(getCluster(), traitSet, (StreamPhysicalArrowToRows) child, program,
                getRowType());
    }

    /** As Flink's {@code StreamPhysicalCalc} translates, with the edge's number instead of a new one. */
    @Override
    public ExecNode<?> translateToExecNode() {
        TakenCalc calc = TakenCalc.of(this);
        return new StreamExecCalc(((StreamPhysicalArrowToRows) getInput()).execNodeId(),
                ExecNodeContext.newContext(StreamExecCalc.class),
                ExecNodeContext.newPersistedConfig(StreamExecCalc.class, ShortcutUtils.unwrapTableConfig(this)),
                calc.projection(), calc.condition(), List.of(InputProperty.DEFAULT),
                FlinkTypeFactory.toLogicalRowType(getRowType()), calc.name());
    }
}
