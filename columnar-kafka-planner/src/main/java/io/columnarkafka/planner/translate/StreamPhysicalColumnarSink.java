package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.table.ColumnarTables;
import io.columnarkafka.planner.match.FlinkSinkSteps;
import io.columnarkafka.planner.match.SinkExchange;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalSink;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.planner.utils.ShortcutUtils;
import org.apache.flink.table.runtime.operators.sink.constraint.ConstraintEnforcerExecutor;
import org.apache.flink.types.RowKind;

/**
 * A {@code kafka-columnar} sink fed Arrow batches: the encoders on each batch, no RowData on the way, then
 * Flink's {@code KafkaSink} (EXPLAIN: {@code ColumnarSink(table=[...], fields=[...], encode=[admitted: ...])}). Where
 * the table has NOT NULL columns, the encode operator runs Flink's NOT NULL enforcer on the batches first (EXPLAIN:
 * {@code head=[ConstraintEnforcer[NotNullEnforcer(fields=[...])]]}). A changelog format's sink may be fed a changelog:
 * its encoder writes each row by the kind in the batches' row-kind column ({@code rowKinds=[from batches]}). Where
 * Flink may move the rows to the sink's subtasks by the primary key or round-robin, depending on the input's
 * parallelism, so do the batches' rows ({@code exchange=[...]}, {@link SinkExchange#explain}).
 */
final class StreamPhysicalColumnarSink extends SingleRel implements StreamPhysicalRel {
    private final DynamicTableSink sink;
    private final ContextResolvedTable table;
    private final ExplainItems items;
    private final String encode;
    /** Flink's enforcer of the table's NOT NULL columns, or null when it has none. */
    private final ConstraintEnforcerExecutor notNull;
    /** The input's changelog mode: insert-only, or a changelog whose batches carry each row's kind. */
    private final ChangelogMode inputMode;
    /** How Flink may move the rows to the sink's subtasks, as EXPLAIN says it, or null where they go as they are. */
    private final String exchange;

    private StreamPhysicalColumnarSink(RelOptCluster cluster, RelTraitSet traits, RelNode input, DynamicTableSink sink,
            ContextResolvedTable table, ExplainItems items, String encode, ConstraintEnforcerExecutor notNull,
            ChangelogMode inputMode, String exchange) {
        super(cluster, traits, input);
        this.sink = sink;
        this.table = table;
        this.items = items;
        this.encode = encode;
        this.notNull = notNull;
        this.inputMode = inputMode;
        this.exchange = exchange;
    }

    /** The columnar sink in place of {@code sink}, over {@code input}. */
    static StreamPhysicalColumnarSink replacing(StreamPhysicalSink sink, RelNode input, String encode) {
        ResolvedSchema schema = sink.contextResolvedTable().getResolvedSchema();
        TableConfig config = ShortcutUtils.unwrapTableConfig(sink);
        ConstraintEnforcerExecutor notNull = FlinkSinkSteps.notNullOnly(schema, config).orElse(null);
        String exchange = SinkExchange.explain(schema.getPrimaryKey().isPresent(),
                ColumnarTables.reportedParallelism(sink.tableSink()), ColumnarTables.parallelism(sink.tableSink()),
                config).orElse(null);
        return new StreamPhysicalColumnarSink(sink.getCluster(), sink.getTraitSet(), input, sink.tableSink(),
                sink.contextResolvedTable(), ExplainItems.of(sink), encode, notNull,
                ChangelogPlanUtils.getChangelogMode((StreamPhysicalRel) sink.getInput()).get(), exchange);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return items.writeTo(super.explainTerms(pw))
                .itemIf("exchange", exchange, exchange != null)
                .itemIf("head", notNull == null ? "" : FlinkSinkSteps.enforcerName(notNull), notNull != null)
                .item("encode", encode)
                .itemIf("rowKinds", "from batches", !inputMode.containsOnly(RowKind.INSERT));
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarSink(getCluster(), traitSet, inputs.get(0), sink, table, items, encode,
                notNull, inputMode, exchange);
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode(boolean isCompiled) {
        PlanCompilation.refuse(isCompiled, "ColumnarSink");
        return translateToExecNode();
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new ColumnarSinkExecNode(ShortcutUtils.unwrapTableConfig(this), sink, table, notNull,
                inputMode, FlinkTypeFactory.toLogicalRowType(getRowType()), getRelDetailedDescription());
    }
}
