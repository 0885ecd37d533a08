package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.table.LocalGroupAggSpec;
import io.columnarkafka.planner.match.LocalGroupAggTranslation;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * Flink's local group aggregate computed on the Arrow batches (EXPLAIN: {@code ColumnarLocalGroupAggregate(groupBy=
 * [...], select=[...], local=[vectorised])}, the replaced node's attributes). It emits the replaced node's rows, of
 * its row type, to Flink's global group aggregate. Its digest is its input's and its attributes', as Flink's
 * node's, so sub-plan reuse merges equal ones as Flink's.
 */
final class StreamPhysicalColumnarLocalGroupAggregate extends SingleRel implements StreamPhysicalRel {
    private final RelDataType rowType;
    private final ExplainItems items;
    private final LocalGroupAggSpec spec;

    private StreamPhysicalColumnarLocalGroupAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
            RelDataType rowType, ExplainItems items, LocalGroupAggSpec spec) {
        super(cluster, traits, input);
        this.rowType = rowType;
        this.items = items;
        this.spec = spec;
    }

    /** The vectorised local group aggregate in place of {@code aggregate}, over {@code input}. */
    static StreamPhysicalColumnarLocalGroupAggregate replacing(StreamPhysicalLocalGroupAggregate aggregate,
            RelNode input) {
        return new StreamPhysicalColumnarLocalGroupAggregate(aggregate.getCluster(), aggregate.getTraitSet(), input,
                aggregate.getRowType(), ExplainItems.of(aggregate), LocalGroupAggTranslation.admitted(aggregate));
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return items.writeTo(super.explainTerms(pw)).item("local", "vectorised");
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarLocalGroupAggregate(getCluster(), traitSet, inputs.get(0), rowType, items,
                spec);
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new ColumnarLocalGroupAggregateExecNode(ShortcutUtils.unwrapTableConfig(this), spec,
                FlinkTypeFactory.toLogicalRowType(rowType),
                getRelDetailedDescription());
    }
}
