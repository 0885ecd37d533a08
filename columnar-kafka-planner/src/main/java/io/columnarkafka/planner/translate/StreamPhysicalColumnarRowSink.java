package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.table.ColumnarTables;
import io.columnarkafka.planner.match.PlanMatcher;
import io.columnarkafka.planner.match.RowSinkCalc;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalSink;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * A {@code kafka-columnar} / {@code upsert-kafka-columnar} sink fed rows, in place of Flink's sink node: the
 * connector's encode operator runs Flink's Calc before the sink where it was taken in, the node's constraint enforcer
 * and rowtime step on each row it is handed, then Flink's {@code KafkaSink} (EXPLAIN: {@code
 * ColumnarRowSink(table=[...], fields=[...], calc=[Calc(select=[...], where=[...])], head=[ConstraintEnforcer[...],
 * StreamRecordTimestampInserter(rowtime field: 3)], encode=[admitted: ...])}; {@code calc=[not taken: <why>]} over a
 * Calc left Flink's). With a Calc taken in, its input is the Calc's input.
 */
final class StreamPhysicalColumnarRowSink extends SingleRel implements StreamPhysicalRel {
    private final ContextResolvedTable table;
    private final DynamicTableSink sink;
    private final ExplainItems items;
    /** The rows the sink consumes (Flink's sink node's row type): the taken Calc's output, else the input's. */
    private final RelDataType rowType;
    private final ChangelogMode inputChangelogMode;
    private final TakenCalc calc;
    /**
     * What EXPLAIN says of the Calc before the sink: a Calc taken in as Flink describes it (the name of its Calc
     * operator), one not taken with why; null where the input is no Calc.
     */
    private final String calcItem;
    private final String head;
    private final String encode;

    private StreamPhysicalColumnarRowSink(RelOptCluster cluster, RelTraitSet traits, RelNode input,
            ContextResolvedTable table, DynamicTableSink sink, ExplainItems items, RelDataType rowType,
            ChangelogMode inputChangelogMode, TakenCalc calc, String calcItem, String head, String encode) {
        super(cluster, traits, input);
        this.table = table;
        this.sink = sink;
        this.items = items;
        this.rowType = rowType;
        this.inputChangelogMode = inputChangelogMode;
        this.calc = calc;
        this.calcItem = calcItem;
        this.head = head;
        this.encode = encode;
    }

    /**
     * The row sink in place of {@code sink} (one the connector admitted), over {@code input}, the sink's built input;
     * where {@code rowSinkCalc} was taken in, {@code input} is that Calc and the row sink reads the Calc's input.
     */
    static StreamPhysicalColumnarRowSink replacing(StreamPhysicalSink sink, RelNode input, RowSinkCalc rowSinkCalc) {
        RelNode reads = input;
        TakenCalc calc = null;
        String calcItem = null;
        if (rowSinkCalc != null && rowSinkCalc.taken()) {
            StreamPhysicalCalc built = (StreamPhysicalCalc) input;
            reads = built.getInput();
            calc = TakenCalc.of(built);
            calcItem = calc.name();
        } else if (rowSinkCalc != null) {
            calcItem = "not taken: " + rowSinkCalc.notTaken();
        }
        return new StreamPhysicalColumnarRowSink(sink.getCluster(), sink.getTraitSet(), reads,
                sink.contextResolvedTable(), sink.tableSink(), ExplainItems.of(sink), input.getRowType(),
                ChangelogPlanUtils.getChangelogMode((StreamPhysicalRel) sink.getInput()).get(), calc, calcItem,
                PlanMatcher.rowHead(sink), ColumnarTables.sinkAdmission(sink.tableSink()).orElseThrow().describe());
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return items.writeTo(super.explainTerms(pw)).itemIf("calc", calcItem, calcItem != null)
                .itemIf("head", head, !head.isEmpty()).item("encode", encode);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalColumnarRowSink(getCluster(), traitSet, inputs.get(0), table, sink, items, rowType,
                inputChangelogMode, calc, calcItem, head, encode);
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }

    @Override
    public ExecNode<?> translateToExecNode(boolean isCompiled) {
        PlanCompilation.refuse(isCompiled, "ColumnarRowSink");
        return translateToExecNode();
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        if (calc != null) {
            // Flink's plan numbers the Calc taken in, then the sink: skip the Calc's number, so the sink keeps Flink's
            // number and, with generated uids, the KafkaSink writer and committer keep the uids of Flink's plan
            ExecNodeContext.newNodeId();
        }
        return new ColumnarRowSinkExecNode(ShortcutUtils.unwrapTableConfig(this), table, sink, inputChangelogMode,
                FlinkTypeFactory.toLogicalRowType(rowType), calc, getRelDetailedDescription());
    }

    /**
     * A Calc taken in, as {@code StreamPhysicalCalc.translateToExecNode} hands it to {@code StreamExecCalc}: the
     * program's projections and condition with their local references expanded; {@code name} is the Calc's
     * description, Flink's name of its Calc operator.
     */
    record TakenCalc(List<RexNode> projection, RexNode condition, String name) {
        static TakenCalc of(StreamPhysicalCalc calc) {
            RexProgram program = calc.getProgram();
            return new TakenCalc(program.getProjectList().stream().map(program::expandLocalRef).toList(),
                    program.getCondition() == null ? null : program.expandLocalRef(program.getCondition()),
                    calc.getRelDetailedDescription());
        }
    }
}
