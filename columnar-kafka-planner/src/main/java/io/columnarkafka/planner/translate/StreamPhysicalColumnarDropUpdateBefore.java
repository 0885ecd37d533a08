package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.calc.CalcProgram;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalDropUpdateBefore;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * Flink's {@code DropUpdateBefore} on the batches of a changelog (EXPLAIN: {@code ColumnarDropUpdateBefore}): the
 * columnar calc with {@code DropUpdateBeforeTranslation}'s program, a selection of the rows whose kind is not
 * UPDATE_BEFORE. It emits batches of its input's fields and row kinds; its digest is its input's, as Flink's node's.
 */
final class StreamPhysicalColumnarDropUpdateBefore extends ColumnarSingleRel {
    private final CalcProgram program;

    private StreamPhysicalColumnarDropUpdateBefore(RelOptCluster cluster, RelTraitSet traits, RelNode input,
            CalcProgram program) {
        super(cluster, traits, input);
        this.program = program;
    }

    /** The columnar node in place of {@code drop}, over {@code input}. */
    static StreamPhysicalColumnarDropUpdateBefore replacing(StreamPhysicalDropUpdateBefore drop, RelNode input,
            CalcProgram program) {
        return new StreamPhysicalColumnarDropUpdateBefore(drop.getCluster(), drop.getTraitSet(), input, program);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarDropUpdateBefore(getCluster(), traitSet, inputs.get(0), program);
    }

    @Override
    ExecNode<?> newExecNode() {
        return new ColumnarCalcExecNode(ShortcutUtils.unwrapTableConfig(this), program,
                FlinkTypeFactory.toLogicalRowType(getRowType()), getRelDetailedDescription());
    }
}
