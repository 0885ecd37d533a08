package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.CalcProgram;
import java.util.Objects;
import org.apache.calcite.rel.RelNode;

/**
 * The decision for one node: columnar (of a {@link NodeKind}), or Flink's operator with a {@link Reason}.
 *
 * @param node the node of the physical plan
 * @param kind the columnar kind, or null for a node of no such kind
 * @param reason null when columnar; else why not
 * @param detail what is substituted, or the detail of the reason
 * @param program the translated program of a columnar Calc, else null
 * @param split the parts of a split Calc ({@link NodeKind#SPLIT_CALC}), else null
 * @param watermark how a columnar scan with a pushed watermark finds each batch's watermark row, else null
 * @param rowSinkCalc the Calc feeding a row sink ({@link NodeKind#ROW_SINK}), taken in or not, else null
 */
public record NodeDecision(RelNode node, NodeKind kind, Reason reason, String detail, CalcProgram program,
                           CalcSplit split, ScanWatermark watermark, RowSinkCalc rowSinkCalc) {

    public NodeDecision {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(detail, "detail");
    }

    static NodeDecision columnar(RelNode node, NodeKind kind, String detail, CalcProgram program) {
        return new NodeDecision(node, Objects.requireNonNull(kind), null, detail, program, null, null, null);
    }

    /** A row sink ({@link NodeKind#ROW_SINK}); {@code calc} null where its input is no Calc. */
    static NodeDecision rowSink(RelNode node, String detail, RowSinkCalc calc) {
        return new NodeDecision(node, NodeKind.ROW_SINK, null, detail, null, null, null, calc);
    }

    static NodeDecision split(RelNode node, CalcSplit split) {
        return new NodeDecision(node, NodeKind.SPLIT_CALC, null, split.summary(), null, split, null, null);
    }

    /** A columnar scan; {@code watermark} null when no watermark was pushed into it. */
    static NodeDecision columnarScan(RelNode node, String detail, ScanWatermark watermark) {
        return new NodeDecision(node, NodeKind.SCAN, null, detail, null, null, watermark, null);
    }

    static NodeDecision row(RelNode node, NodeKind kind, Reason reason, String detail) {
        return new NodeDecision(node, kind, Objects.requireNonNull(reason), detail, null, null, null, null);
    }

    public boolean isColumnar() {
        return reason == null;
    }

    /** True when the node runs columnar and emits Arrow batches: a consumer of it reads batches. */
    public boolean emitsBatches() {
        return isColumnar() && kind.emitsBatches();
    }

    /** {@code columnar CALC: ...} or {@code Flink Calc: CALC_NOT_EXACT ...}. */
    public String describe() {
        String name = node.getRelTypeName().replace("StreamPhysical", "");
        return isColumnar() ? "columnar " + name + ": " + detail : "Flink " + name + ": " + reason + " " + detail;
    }
}
