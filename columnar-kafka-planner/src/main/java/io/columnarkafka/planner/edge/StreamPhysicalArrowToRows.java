package io.columnarkafka.planner.edge;

import io.columnarkafka.flink.table.EdgeRows;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * The edge from a columnar node to a row node: Arrow batches become Flink rows again, the row type
 * unchanged. EXPLAIN shows why the consumer is not columnar and what the rows are: {@code
 * ArrowToRows(reason=[CALC_NOT_EXACT ...], rows=[binary])}, and {@code rowKinds=[from batches]} where the batches are a
 * changelog's, each row's kind in a column after the fields ({@code RowKindBatches}).
 */
public final class StreamPhysicalArrowToRows extends SingleRel implements StreamPhysicalRel {
    private final String reason;
    private final EdgeRows rows;
    private final boolean rowKinds;

    public StreamPhysicalArrowToRows(RelOptCluster cluster, RelTraitSet traits, RelNode input, String reason,
                                     EdgeRows rows, boolean rowKinds) {
        super(cluster, traits, input);
        this.reason = reason;
        this.rows = rows;
        this.rowKinds = rowKinds;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("reason", reason).item("rows", rows.name().toLowerCase(Locale.ROOT))
                .itemIf("rowKinds", "from batches", rowKinds);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalArrowToRows(getCluster(), traitSet, inputs.get(0), reason, rows, rowKinds);
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        // Flink translates a node's inputs before the node (ExecNodeGraphGenerator), so the producer's id is set
        return new ArrowToRowsExecNode(execNodeId(), ShortcutUtils.unwrapTableConfig(this),
                FlinkTypeFactory.toLogicalRowType(getRowType()), rows, rowKinds, getRelDetailedDescription());
    }

    /** The id of this edge's exec node: its producer's, which a node after it may share too. */
    public int execNodeId() {
        return ((ArrowProducer) getInput()).execNodeId();
    }
}
