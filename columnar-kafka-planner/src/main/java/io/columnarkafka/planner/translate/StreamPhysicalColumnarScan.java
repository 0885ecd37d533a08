package io.columnarkafka.planner.translate;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalTableSourceScan;
import org.apache.flink.table.planner.plan.schema.TableSourceTable;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * A {@code kafka-columnar} scan emitting Arrow batches of the columns the planner pushed into the source
 * (EXPLAIN: {@code ColumnarScan(table=[...], fields=[...], decode=[admitted: ...])}).
 */
final class StreamPhysicalColumnarScan extends AbstractRelNode implements StreamPhysicalRel {
    private final DynamicTableSource source;
    private final RelDataType rowType;
    private final ExplainItems items;
    private final String decode;
    private final ReuseBarrier barrier = new ReuseBarrier();

    private StreamPhysicalColumnarScan(RelOptCluster cluster, RelTraitSet traits, DynamicTableSource source,
            RelDataType rowType, ExplainItems items, String decode) {
        super(cluster, traits);
        this.source = source;
        this.rowType = rowType;
        this.items = items;
        this.decode = decode;
    }

    /** The columnar scan in place of {@code scan}. */
    static StreamPhysicalColumnarScan replacing(StreamPhysicalTableSourceScan scan, String decode) {
        return new StreamPhysicalColumnarScan(scan.getCluster(), scan.getTraitSet(),
                scan.getTable().unwrap(TableSourceTable.class).tableSource(), scan.getRowType(), ExplainItems.of(scan),
                decode);
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return barrier.writeTo(items.writeTo(pw).item("decode", decode));
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarScan(getCluster(), traitSet, source, rowType, items, decode);
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        return new ColumnarScanExecNode(ShortcutUtils.unwrapTableConfig(this), source,
                FlinkTypeFactory.toLogicalRowType(rowType), getRelDetailedDescription());
    }
}
