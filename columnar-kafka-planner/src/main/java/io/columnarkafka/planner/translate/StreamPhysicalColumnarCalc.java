package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.calc.CalcProgram;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * A Calc evaluated on Arrow batches by the columnar calc (EXPLAIN: {@code ColumnarCalc(select=[...],
 * where=[...])}, Flink's own rendering of the expressions; {@code flinkCode=[c_counts (UDF count_char)]} names the
 * projections whose user-defined function calls run Flink's generated code in the calc).
 *
 * <p>Its digest is its input's and its expressions', as a Flink Calc's: Flink's sub-plan reuse merges two
 * equal columnar calcs (and the equal operators above them) as it merges two equal Calcs. The merged calc lends
 * its batches to every consumer ({@code ColumnarCalcOperator}).
 */
final class StreamPhysicalColumnarCalc extends ColumnarSingleRel {
    private final CalcProgram program;
    private final RelDataType rowType;
    private final ExplainItems items;

    private StreamPhysicalColumnarCalc(RelOptCluster cluster, RelTraitSet traits, RelNode input, CalcProgram program,
            RelDataType rowType, ExplainItems items) {
        super(cluster, traits, input);
        this.program = program;
        this.rowType = rowType;
        this.items = items;
    }

    /** The columnar calc in place of {@code calc}, over {@code input}. */
    static StreamPhysicalColumnarCalc replacing(StreamPhysicalCalc calc, RelNode input, CalcProgram program) {
        return new StreamPhysicalColumnarCalc(calc.getCluster(), calc.getTraitSet(), input, program, calc.getRowType(),
                ExplainItems.of(calc));
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    /** Flink's attributes, then the projections that run Flink's generated code for a call, if any. */
    @Override
    public RelWriter explainTerms(RelWriter pw) {
        List<String> flinkCode = program.flinkCodeParts();
        return items.writeTo(super.explainTerms(pw))
                .itemIf("flinkCode", String.join(", ", flinkCode), !flinkCode.isEmpty());
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarCalc(getCluster(), traitSet, inputs.get(0), program, rowType, items);
    }

    @Override
    ExecNode<?> newExecNode() {
        return new ColumnarCalcExecNode(ShortcutUtils.unwrapTableConfig(this), program,
                FlinkTypeFactory.toLogicalRowType(rowType), getRelDetailedDescription());
    }
}
