package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.table.LocalWindowAggSpec;
import io.columnarkafka.planner.match.LocalWindowAggTranslation;
import io.columnarkafka.planner.match.NodeDecision;
import io.columnarkafka.planner.match.NodeKind;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * Flink's local window aggregate reading Arrow batches (EXPLAIN: {@code ColumnarLocalWindowAggregate(groupBy=[...],
 * window=[...], select=[...])}, the replaced node's attributes). It emits the replaced node's rows, of its row type,
 * to Flink's global window aggregate.
 *
 * <p>It keeps Flink's node over the same input: Flink's node builds the operator (its generated key selector,
 * slice assigner and combiner), which {@link ColumnarLocalWindowAggregateExecNode} then runs on the batches, or,
 * for a shape computed on the vectors ({@code local=[vectorised]}), the node's name and parallelism. Its
 * digest is its input's and its attributes', as Flink's node's, so sub-plan reuse merges equal ones as Flink's.
 */
final class StreamPhysicalColumnarLocalWindowAggregate extends SingleRel implements StreamPhysicalRel {
    private final StreamPhysicalLocalWindowAggregate flinks;
    private final ExplainItems items;
    /** Null on Flink's operator over row views; else what the vectorised operator computes. */
    private final LocalWindowAggSpec vectorised;
    /** EXPLAIN's {@code local=[...]}: {@code vectorised} or {@code row view, not vectorised: <why>}. */
    private final String local;

    private StreamPhysicalColumnarLocalWindowAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
            StreamPhysicalLocalWindowAggregate flinks, ExplainItems items, LocalWindowAggSpec vectorised,
            String local) {
        super(cluster, traits, input);
        this.flinks = flinks;
        this.items = items;
        this.vectorised = vectorised;
        this.local = local;
    }

    /** The columnar local window aggregate {@code decision} decided in place of {@code aggregate}, over {@code input}. */
    static StreamPhysicalColumnarLocalWindowAggregate replacing(StreamPhysicalLocalWindowAggregate aggregate,
            RelNode input, NodeDecision decision) {
        boolean vector = decision.kind() == NodeKind.VECTOR_LOCAL_WINDOW_AGGREGATE;
        String local = vector ? "vectorised" : decision.detail().substring(decision.detail().indexOf("not vectorised"));
        return new StreamPhysicalColumnarLocalWindowAggregate(aggregate.getCluster(), aggregate.getTraitSet(), input,
                over(aggregate, input), ExplainItems.of(aggregate),
                vector ? LocalWindowAggTranslation.admitted(aggregate) : null, vector ? local : "row view, " + local);
    }

    private static StreamPhysicalLocalWindowAggregate over(StreamPhysicalLocalWindowAggregate aggregate, RelNode input) {
        return (StreamPhysicalLocalWindowAggregate) aggregate.copy(aggregate.getTraitSet(), List.of(input));
    }

    @Override
    protected RelDataType deriveRowType() {
        return flinks.getRowType();
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return items.writeTo(super.explainTerms(pw)).item("local", local);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarLocalWindowAggregate(getCluster(), traitSet, inputs.get(0),
                over(flinks, inputs.get(0)), items, vectorised, local);
    }

    @Override
    public boolean requireWatermark() {
        return flinks.requireWatermark();
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new ColumnarLocalWindowAggregateExecNode(ShortcutUtils.unwrapTableConfig(this),
                (StreamExecLocalWindowAggregate) flinks.translateToExecNode(), vectorised, getRelDetailedDescription());
    }
}
