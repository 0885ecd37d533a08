package io.columnarkafka.planner.translate;

import io.columnarkafka.planner.edge.ArrowProducer;
import io.columnarkafka.planner.match.ScanWatermark;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalTableSourceScan;
import org.apache.flink.table.planner.plan.schema.TableSourceTable;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * A {@code kafka-columnar} scan emitting Arrow batches of the columns the planner pushed into the source
 * (EXPLAIN: {@code ColumnarScan(table=[...], fields=[...], decode=[admitted: ...])}, and with a pushed watermark
 * how each batch's watermark row is found, {@code watermark=[columnar]} or {@code watermark=[row probe: ...]},
 * {@link ScanWatermark}).
 *
 * <p>Its digest is the replaced scan's attributes (table with every pushed-down spec, fields, hints), so Flink's
 * sub-plan reuse merges two equal columnar scans as it merges their {@code TableSourceScan}s: one scan for the
 * branches that read a table, its batches lent to every consumer ({@code ArrowBatch#lend}). With source reuse
 * off ({@code table.optimizer.reuse-source-enabled}) a {@link ReuseBarrier} keeps each scan apart, as Flink
 * keeps its scans.
 */
final class StreamPhysicalColumnarScan extends AbstractRelNode implements StreamPhysicalRel, ArrowProducer {
    private final DynamicTableSource source;
    private final ContextResolvedTable table;
    private final RelDataType rowType;
    private final ExplainItems items;
    private final String decode;
    /** Null when no watermark was pushed into the source. */
    private final ScanWatermark watermark;
    /** Null where the scan may be merged with an equal one. */
    private final ReuseBarrier barrier;
    /** The id of the exec node this node was translated into (an edge after it shares it); -1 before. */
    private int execNodeId = -1;

    private StreamPhysicalColumnarScan(RelOptCluster cluster, RelTraitSet traits, DynamicTableSource source,
            ContextResolvedTable table, RelDataType rowType, ExplainItems items, String decode, ScanWatermark watermark,
            ReuseBarrier barrier) {
        super(cluster, traits);
        this.source = source;
        this.table = table;
        this.rowType = rowType;
        this.items = items;
        this.decode = decode;
        this.watermark = watermark;
        this.barrier = barrier;
    }

    /** The columnar scan in place of {@code scan}. */
    static StreamPhysicalColumnarScan replacing(StreamPhysicalTableSourceScan scan, String decode,
            ScanWatermark watermark) {
        boolean sourceReuse = ShortcutUtils.unwrapTableConfig(scan)
                .get(OptimizerConfigOptions.TABLE_OPTIMIZER_REUSE_SOURCE_ENABLED);
        TableSourceTable table = scan.getTable().unwrap(TableSourceTable.class);
        return new StreamPhysicalColumnarScan(scan.getCluster(), scan.getTraitSet(), table.tableSource(),
                table.contextResolvedTable(), scan.getRowType(), ExplainItems.of(scan), decode, watermark,
                sourceReuse ? null : new ReuseBarrier());
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        RelWriter written = items.writeTo(pw).item("decode", decode)
                .itemIf("watermark", watermark == null ? null : watermark.explain(), watermark != null);
        return barrier == null ? written : barrier.writeTo(written);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarScan(getCluster(), traitSet, source, table, rowType, items, decode, watermark,
                barrier == null ? null : new ReuseBarrier());
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode(boolean isCompiled) {
        PlanCompilation.refuse(isCompiled, "ColumnarScan");
        return translateToExecNode();
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        ColumnarScanExecNode node = new ColumnarScanExecNode(ShortcutUtils.unwrapTableConfig(this), source, table,
                FlinkTypeFactory.toLogicalRowType(rowType), getRelDetailedDescription(),
                watermark == null ? null : watermark.columnar());
        execNodeId = node.getId();
        return node;
    }

    @Override
    public int execNodeId() {
        return execNodeId;
    }
}
