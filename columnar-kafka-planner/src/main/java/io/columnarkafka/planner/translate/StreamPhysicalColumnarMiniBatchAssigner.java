package io.columnarkafka.planner.translate;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalMiniBatchAssigner;
import org.apache.flink.table.planner.plan.trait.MiniBatchIntervalTraitDef;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * Flink's mini-batch assigner on Arrow batches (EXPLAIN: {@code ColumnarMiniBatchAssigner(interval=[2000ms],
 * mode=[ProcTime])}, the replaced node's attributes). Its interval is the replaced node's mini-batch trait, which
 * it keeps.
 *
 * <p>Its digest is its input's and its attributes', as Flink's assigner's: where Flink's plan shares one assigner
 * between branches (Nexmark q3, q8), sub-plan reuse merges the columnar ones too, and the assigner hands each
 * batch, lent by the scan, on to every consumer within the scan's one hand-over.
 */
final class StreamPhysicalColumnarMiniBatchAssigner extends ColumnarSingleRel {
    private final ExplainItems items;

    private StreamPhysicalColumnarMiniBatchAssigner(RelOptCluster cluster, RelTraitSet traits, RelNode input,
            ExplainItems items) {
        super(cluster, traits, input);
        this.items = items;
    }

    /** The columnar assigner in place of {@code assigner}, over {@code input}. */
    static StreamPhysicalColumnarMiniBatchAssigner replacing(StreamPhysicalMiniBatchAssigner assigner, RelNode input) {
        return new StreamPhysicalColumnarMiniBatchAssigner(assigner.getCluster(), assigner.getTraitSet(), input,
                ExplainItems.of(assigner));
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return items.writeTo(super.explainTerms(pw));
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarMiniBatchAssigner(getCluster(), traitSet, inputs.get(0), items);
    }

    @Override
    ExecNode<?> newExecNode() {
        return new ColumnarMiniBatchAssignerExecNode(
                ShortcutUtils.unwrapTableConfig(this),
                getTraitSet().getTrait(MiniBatchIntervalTraitDef.INSTANCE()).getMiniBatchInterval(),
                FlinkTypeFactory.toLogicalRowType(getRowType()), getRelDetailedDescription());
    }
}
