package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.expand.ExpandSpec;
import io.columnarkafka.planner.match.ExpandTranslation;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalExpand;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * Flink's Expand on the Arrow batches (EXPLAIN: {@code ColumnarExpand(projects=[...])}, the replaced node's
 * attributes). It emits batches of the replaced node's row type. Its digest is its input's and its attributes', as
 * Flink's node's, so sub-plan reuse merges equal ones as Flink's.
 */
final class StreamPhysicalColumnarExpand extends ColumnarSingleRel {
    private final RelDataType rowType;
    private final ExplainItems items;
    private final ExpandSpec spec;

    private StreamPhysicalColumnarExpand(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelDataType rowType,
            ExplainItems items, ExpandSpec spec) {
        super(cluster, traits, input);
        this.rowType = rowType;
        this.items = items;
        this.spec = spec;
    }

    /** The columnar expand in place of {@code expand}, over {@code input}. */
    static StreamPhysicalColumnarExpand replacing(StreamPhysicalExpand expand, RelNode input) {
        return new StreamPhysicalColumnarExpand(expand.getCluster(), expand.getTraitSet(), input, expand.getRowType(),
                ExplainItems.of(expand), ExpandTranslation.admitted(expand));
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return items.writeTo(super.explainTerms(pw));
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarExpand(getCluster(), traitSet, inputs.get(0), rowType, items, spec);
    }

    @Override
    ExecNode<?> newExecNode() {
        return new ColumnarExpandExecNode(ShortcutUtils.unwrapTableConfig(this), spec,
                getRelDetailedDescription());
    }
}
