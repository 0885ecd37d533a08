package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.table.ColumnarTables;
import io.columnarkafka.planner.match.PlanMatcher;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalSink;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * A {@code kafka-columnar} / {@code upsert-kafka-columnar} sink fed rows, in place of Flink's sink node: the
 * connector's encode operator runs the node's constraint enforcer and rowtime step on each row it is handed, then
 * Flink's {@code KafkaSink} (EXPLAIN: {@code ColumnarRowSink(table=[...], fields=[...], head=[ConstraintEnforcer[...],
 * StreamRecordTimestampInserter(rowtime field: 3)], encode=[admitted: ...])}).
 */
final class StreamPhysicalColumnarRowSink extends SingleRel implements StreamPhysicalRel {
    private final ContextResolvedTable table;
    private final DynamicTableSink sink;
    private final ExplainItems items;
    private final String head;
    private final String encode;

    private StreamPhysicalColumnarRowSink(RelOptCluster cluster, RelTraitSet traits, RelNode input,
            ContextResolvedTable table, DynamicTableSink sink, ExplainItems items, String head, String encode) {
        super(cluster, traits, input);
        this.table = table;
        this.sink = sink;
        this.items = items;
        this.head = head;
        this.encode = encode;
    }

    /** The row sink in place of {@code sink} (one the connector admitted), over its input. */
    static StreamPhysicalColumnarRowSink replacing(StreamPhysicalSink sink, RelNode input) {
        return new StreamPhysicalColumnarRowSink(sink.getCluster(), sink.getTraitSet(), input,
                sink.contextResolvedTable(), sink.tableSink(), ExplainItems.of(sink), PlanMatcher.rowHead(sink),
                ColumnarTables.sinkAdmission(sink.tableSink()).orElseThrow().describe());
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return items.writeTo(super.explainTerms(pw)).item("head", head).item("encode", encode);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarRowSink(getCluster(), traitSet, inputs.get(0), table, sink, items, head,
                encode);
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new ColumnarRowSinkExecNode(ShortcutUtils.unwrapTableConfig(this), table, sink,
                ChangelogPlanUtils.getChangelogMode((StreamPhysicalRel) getInput()).get(),
                FlinkTypeFactory.toLogicalRowType(getRowType()), getRelDetailedDescription());
    }
}
