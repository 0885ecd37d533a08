package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.CalcSupport;
import io.columnarkafka.flink.table.Admission;
import io.columnarkafka.flink.table.ArrowLocalWindowAggOperator;
import io.columnarkafka.flink.table.ColumnarTables;
import io.columnarkafka.flink.table.EdgeRows;
import io.columnarkafka.flink.table.SinkRowHead;
import io.columnarkafka.planner.PlannerOptions;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalDropUpdateBefore;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalExpand;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalMiniBatchAssigner;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalSink;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalTableSourceScan;
import org.apache.flink.table.planner.plan.schema.TableSourceTable;
import org.apache.flink.table.planner.plan.trait.MiniBatchInterval;
import org.apache.flink.table.planner.plan.trait.MiniBatchIntervalTraitDef;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * Decides, once per query, which nodes of Flink's optimized physical plan run columnar: a {@code
 * kafka-columnar} scan the connector admitted; a Calc over a columnar input whose every expression
 * translates (a projection's UDF call as Flink's generated code for it: {@link FlinkCodeCalls}) and which the calc
 * evaluates exactly (or, where only projections keep it from that, its condition
 * and the projections it admits, with Flink's Calc for the rest after an edge: {@link CalcSplit}); a mini-batch assigner over a columnar input (Flink's own
 * assigner operator, which never reads an element, passes each batch on, so the Calcs mini-batch puts after it
 * stay columnar); a DropUpdateBefore over a columnar changelog (a filter on the batches' row kinds); a {@code
 * kafka-columnar} sink over a columnar input that the connector admits for Arrow input,
 * fed inserts or a changelog it writes by the row kinds (a changelog format's envelopes, an upsert table's
 * tombstones) unless Flink puts its upsert materializer in front; a local window aggregate over a columnar input (computed on the vectors where its shape is
 * admitted, else Flink's own operator for the node reading the batches in place); a local group aggregate over a
 * columnar input whose shape is admitted (computed on the vectors); an Expand over a columnar input whose projections
 * copy input fields, NULL and integer constants (each input row's projections in turn, Flink's order); a sink fed rows
 * into an admitted {@code kafka-columnar} table where Flink's sink node adds nothing but its constraint enforcer and
 * rowtime step, which the encode operator then runs, with Flink's Calc over rows before it ({@link RowSinkCalc}).
 * Every other node stays Flink's, with its reason.
 * It builds nothing: {@code PlanTranslator} does, from the decision alone.
 */
public final class PlanMatcher {
    private PlanMatcher() {}

    public static PlanDecision decide(RelNode root) {
        // Binary rows unless the session asks for views (EdgeRows.OPTION, a PlannerOptions path choice): they are
        // Flink's own Calc's output form, which its network serializer, chained copy and key selectors take fastest.
        PlanDecision decision = new PlanDecision(ShortcutUtils.unwrapTableConfig(root).get(EdgeRows.OPTION));
        visit(root, decision);
        return decision;
    }

    private static void visit(RelNode node, PlanDecision decision) {
        if (decision.has(node)) {
            return; // a node several consumers read (a united scan) is decided once
        }
        for (RelNode input : node.getInputs()) {
            decision.consumed(input);
            visit(input, decision);
        }
        decision.add(decide(node, decision));
    }

    private static NodeDecision decide(RelNode node, PlanDecision decision) {
        if (node instanceof StreamPhysicalTableSourceScan scan) {
            return scan(scan);
        }
        if (node instanceof StreamPhysicalCalc calc) {
            return calc(calc, decision);
        }
        if (node instanceof StreamPhysicalMiniBatchAssigner assigner) {
            return miniBatchAssigner(assigner, decision);
        }
        if (node instanceof StreamPhysicalDropUpdateBefore drop) {
            return dropUpdateBefore(drop, decision);
        }
        if (node instanceof StreamPhysicalSink sink) {
            return sink(sink, decision);
        }
        if (node instanceof StreamPhysicalLocalWindowAggregate aggregate) {
            return localWindowAggregate(aggregate, decision);
        }
        if (node instanceof StreamPhysicalLocalGroupAggregate aggregate) {
            return localGroupAggregate(aggregate, decision);
        }
        if (node instanceof StreamPhysicalExpand expand) {
            return expand(expand, decision);
        }
        return NodeDecision.row(node, null, Reason.ROW_OPERATOR, "no columnar operator for this node kind");
    }

    private static NodeDecision scan(StreamPhysicalTableSourceScan scan) {
        TableSourceTable table = scan.getTable().unwrap(TableSourceTable.class);
        Optional<Admission> admission = ColumnarTables.arrowScanAdmission(table.tableSource());
        if (admission.isEmpty()) {
            return NodeDecision.row(scan, NodeKind.SCAN, Reason.NOT_KAFKA_COLUMNAR_SCAN, table.tableSource().asSummaryString());
        }
        if (!admission.get().isAdmitted()) {
            return NodeDecision.row(scan, NodeKind.SCAN, Reason.SCAN_NOT_ADMITTED, admission.get().describe());
        }
        return NodeDecision.columnarScan(scan, admission.get().describe(), ScanWatermark.of(scan).orElse(null));
    }

    private static NodeDecision calc(StreamPhysicalCalc calc, PlanDecision decision) {
        if (!decision.of(calc.getInput()).emitsBatches()) {
            return NodeDecision.row(calc, NodeKind.CALC, Reason.INPUT_NOT_COLUMNAR, "input " + inputName(calc));
        }
        CalcProgram program;
        try {
            program = CalcTranslation.of(calc);
        } catch (NotTranslatable e) {
            return splitOrRow(calc, Reason.EXPRESSION_NOT_TRANSLATED, e.getMessage());
        }
        Optional<String> unsupported = CalcSupport.unsupported(program);
        if (unsupported.isPresent()) {
            return splitOrRow(calc, Reason.CALC_NOT_EXACT, unsupported.get());
        }
        return NodeDecision.columnar(calc, NodeKind.CALC,
                program.projections().size() + " projections" + (program.condition() == null ? "" : ", a filter")
                        + FlinkCodeCalls.describe(program), program);
    }

    /**
     * A columnar-fed Calc the columnar calc cannot run whole: split where its condition runs columnar and only
     * projections stay Flink's ({@link CalcSplit}), unless {@link PlannerOptions#SPLIT_CALC} is off; else Flink's
     * Calc whole, with its reason and why not split.
     */
    private static NodeDecision splitOrRow(StreamPhysicalCalc calc, Reason whole, String detail) {
        if (!ShortcutUtils.unwrapTableConfig(calc).get(PlannerOptions.SPLIT_CALC)) {
            return NodeDecision.row(calc, NodeKind.CALC, whole,
                    detail + "; not split: " + PlannerOptions.SPLIT_CALC.key() + " is false");
        }
        try {
            return NodeDecision.split(calc, CalcSplit.of(calc));
        } catch (NotTranslatable e) {
            return NodeDecision.row(calc, NodeKind.CALC, whole, detail + "; not split: " + e.getMessage());
        }
    }

    /** A DropUpdateBefore over a columnar changelog: a filter on the batches' row-kind column. */
    private static NodeDecision dropUpdateBefore(StreamPhysicalDropUpdateBefore drop, PlanDecision decision) {
        if (!decision.of(drop.getInput()).emitsBatches()) {
            return NodeDecision.row(drop, NodeKind.DROP_UPDATE_BEFORE, Reason.INPUT_NOT_COLUMNAR,
                    "input " + inputName(drop));
        }
        CalcProgram program = DropUpdateBeforeTranslation.of(drop);
        Optional<String> unsupported = CalcSupport.unsupported(program);
        if (unsupported.isPresent()) {
            return NodeDecision.row(drop, NodeKind.DROP_UPDATE_BEFORE, Reason.CALC_NOT_EXACT, unsupported.get());
        }
        return NodeDecision.columnar(drop, NodeKind.DROP_UPDATE_BEFORE, "a filter on the row kinds", program);
    }

    /**
     * Flink's assigners ({@code ProcTimeMiniBatchAssignerOperator}, {@code RowTimeMiniBatchAssginerOperator}) forward
     * every element as it came and emit watermarks from processing time or from the input's watermarks alone, so
     * the same operator runs on batches (docs/planner.md, "Mini-batch").
     */
    private static NodeDecision miniBatchAssigner(StreamPhysicalMiniBatchAssigner assigner, PlanDecision decision) {
        if (!decision.of(assigner.getInput()).emitsBatches()) {
            return NodeDecision.row(assigner, NodeKind.MINI_BATCH_ASSIGNER, Reason.INPUT_NOT_COLUMNAR,
                    "input " + inputName(assigner));
        }
        MiniBatchInterval interval = assigner.getTraitSet().getTrait(MiniBatchIntervalTraitDef.INSTANCE())
                .getMiniBatchInterval();
        return NodeDecision.columnar(assigner, NodeKind.MINI_BATCH_ASSIGNER,
                "Flink's " + interval.getMode() + " assigner, " + interval.getInterval() + " ms, forwarding batches",
                null);
    }

    /**
     * A local window aggregate over a columnar input: computed on the vectors where {@link LocalWindowAggTranslation}
     * admits the shape (and {@link PlannerOptions#VECTORISED_LOCAL_WINDOW_AGG} is not off); else Flink's {@code
     * LocalSlicingWindowAggOperator}, built by Flink's planner for the node, reading each row of a batch as a view
     * ({@code ArrowLocalWindowAggOperator}: the same operator on the same rows, so every shape Flink plans), if this
     * Flink keeps that operator's parts where 2.2.1 does; else Flink's node behind the edge.
     */
    private static NodeDecision localWindowAggregate(StreamPhysicalLocalWindowAggregate aggregate,
            PlanDecision decision) {
        if (!decision.of(aggregate.getInput()).emitsBatches()) {
            return NodeDecision.row(aggregate, NodeKind.LOCAL_WINDOW_AGGREGATE, Reason.INPUT_NOT_COLUMNAR,
                    "input " + inputName(aggregate));
        }
        String notVectorised;
        if (!vectorisedLocalWindowAgg(aggregate)) {
            notVectorised = PlannerOptions.VECTORISED_LOCAL_WINDOW_AGG.key() + " is false";
        } else {
            try {
                return NodeDecision.columnar(aggregate, NodeKind.VECTOR_LOCAL_WINDOW_AGGREGATE,
                        "vectorised " + LocalWindowAggTranslation.of(aggregate).describe(), null);
            } catch (NotTranslatable e) {
                notVectorised = e.getMessage();
            }
        }
        if (RowKindBatches.carried(aggregate.getInput())) {
            // Flink's functions retract a changelog's rows; the row view does not carry their kinds
            return NodeDecision.row(aggregate, NodeKind.LOCAL_WINDOW_AGGREGATE, Reason.NOT_INSERT_ONLY,
                    "the input is a changelog; not vectorised: " + notVectorised);
        }
        Optional<String> unreadable = ArrowLocalWindowAggOperator.unreadableParts();
        if (unreadable.isPresent()) {
            return NodeDecision.row(aggregate, NodeKind.LOCAL_WINDOW_AGGREGATE, Reason.FLINK_INTERNALS_UNREADABLE,
                    unreadable.get() + "; not vectorised: " + notVectorised);
        }
        return NodeDecision.columnar(aggregate, NodeKind.LOCAL_WINDOW_AGGREGATE,
                "row view: Flink's local window aggregate reading the batches in place; not vectorised: "
                        + notVectorised, null);
    }

    private static boolean vectorisedLocalWindowAgg(RelNode node) {
        return ShortcutUtils.unwrapTableConfig(node).get(PlannerOptions.VECTORISED_LOCAL_WINDOW_AGG);
    }

    /**
     * A local group aggregate (mini-batch's first phase) over a columnar input: computed on the vectors where {@link
     * LocalGroupAggTranslation} admits the shape and {@link PlannerOptions#VECTORISED_LOCAL_GROUP_AGG} is not off
     * (over a changelog, where this Flink's node keeps its retraction flags where 2.2.1 does); else Flink's node
     * behind the edge, with the reason.
     */
    private static NodeDecision localGroupAggregate(StreamPhysicalLocalGroupAggregate aggregate,
            PlanDecision decision) {
        if (!decision.of(aggregate.getInput()).emitsBatches()) {
            return NodeDecision.row(aggregate, NodeKind.LOCAL_GROUP_AGGREGATE, Reason.INPUT_NOT_COLUMNAR,
                    "input " + inputName(aggregate));
        }
        if (!ShortcutUtils.unwrapTableConfig(aggregate).get(PlannerOptions.VECTORISED_LOCAL_GROUP_AGG)) {
            return NodeDecision.row(aggregate, NodeKind.LOCAL_GROUP_AGGREGATE, Reason.AGGREGATE_NOT_VECTORISED,
                    PlannerOptions.VECTORISED_LOCAL_GROUP_AGG.key() + " is false");
        }
        Optional<String> unreadable = LocalGroupAggTranslation.unreadableRetractions();
        if (unreadable.isPresent() && RowKindBatches.carried(aggregate.getInput())) {
            return NodeDecision.row(aggregate, NodeKind.LOCAL_GROUP_AGGREGATE, Reason.FLINK_INTERNALS_UNREADABLE,
                    unreadable.get() + "; not vectorised: the input is a changelog");
        }
        try {
            return NodeDecision.columnar(aggregate, NodeKind.LOCAL_GROUP_AGGREGATE,
                    "vectorised " + LocalGroupAggTranslation.of(aggregate).describe(), null);
        } catch (NotTranslatable e) {
            return NodeDecision.row(aggregate, NodeKind.LOCAL_GROUP_AGGREGATE, Reason.AGGREGATE_NOT_VECTORISED,
                    e.getMessage());
        }
    }

    /**
     * An Expand over a columnar input: copied on the batches where {@link ExpandTranslation} admits its projections,
     * each input row's projections in turn as Flink's operator emits them; else Flink's node behind the edge.
     */
    private static NodeDecision expand(StreamPhysicalExpand expand, PlanDecision decision) {
        if (!decision.of(expand.getInput()).emitsBatches()) {
            return NodeDecision.row(expand, NodeKind.EXPAND, Reason.INPUT_NOT_COLUMNAR, "input " + inputName(expand));
        }
        try {
            ExpandTranslation.of(expand);
        } catch (NotTranslatable e) {
            return NodeDecision.row(expand, NodeKind.EXPAND, Reason.EXPAND_NOT_TRANSLATED, e.getMessage());
        }
        return NodeDecision.columnar(expand, NodeKind.EXPAND, expand.projects().size()
                + " projections per row, in Flink's order", null);
    }

    private static NodeDecision sink(StreamPhysicalSink sink, PlanDecision decision) {
        if (!decision.of(sink.getInput()).emitsBatches()) {
            return rowFedSink(sink, decision);
        }
        Optional<Admission> admission = ColumnarTables.arrowSinkAdmission(sink.tableSink());
        if (admission.isEmpty()) {
            return NodeDecision.row(sink, NodeKind.SINK, Reason.NOT_KAFKA_COLUMNAR_SINK, sink.tableSink().asSummaryString());
        }
        if (!admission.get().isAdmitted()) {
            return NodeDecision.row(sink, NodeKind.SINK, Reason.SINK_NOT_ADMITTED, admission.get().describe());
        }
        if (sink.upsertMaterialize()) {
            return NodeDecision.row(sink, NodeKind.SINK, Reason.NOT_INSERT_ONLY,
                    "the input is a changelog, through Flink's upsert materializer");
        }
        if (RowKindBatches.carried(sink.getInput()) && !ColumnarTables.writesChangelog(sink.tableSink())) {
            return NodeDecision.row(sink, NodeKind.SINK, Reason.NOT_INSERT_ONLY,
                    "the input is a changelog and the value format writes no row kinds");
        }
        ResolvedSchema schema = sink.contextResolvedTable().getResolvedSchema();
        ReadableConfig config = ShortcutUtils.unwrapTableConfig(sink);
        Optional<String> constraints = FlinkSinkSteps.constraints(schema, config);
        if (constraints.isPresent() && FlinkSinkSteps.notNullOnly(schema, config).isEmpty()) {
            // Flink's enforcer trims, pads or checks the nested fields of single rows: the batch's encoders do none
            // of it. Its NOT NULL check alone runs on the batches.
            return NodeDecision.row(sink, NodeKind.SINK, Reason.SINK_NOT_ADMITTED,
                    "Flink's sink node checks each row beyond NOT NULL: " + constraints.get());
        }
        Optional<String> rejected = rejectedRowtimes(sink);
        if (rejected.isPresent()) {
            return NodeDecision.row(sink, NodeKind.SINK, Reason.SINK_NOT_ADMITTED, rejected.get());
        }
        return NodeDecision.columnar(sink, NodeKind.SINK, admission.get().describe(), null);
    }

    /**
     * A sink fed rows into a table whose connector admitted it: Flink's sink node replaced by one whose encode
     * operator runs the node's constraint enforcer and rowtime step itself ({@link FlinkSinkSteps}), and Flink's Calc
     * before it where {@link RowSinkCalc} takes that in, where the node would add nothing else; else Flink's node,
     * with why not. A Calc taken in is decided {@link NodeKind#ROW_SINK_CALC}.
     */
    private static NodeDecision rowFedSink(StreamPhysicalSink sink, PlanDecision decision) {
        Optional<Admission> admission = ColumnarTables.sinkAdmission(sink.tableSink());
        if (admission.isEmpty()) {
            return NodeDecision.row(sink, NodeKind.SINK, Reason.NOT_KAFKA_COLUMNAR_SINK, sink.tableSink().asSummaryString());
        }
        if (!admission.get().isAdmitted()) {
            return NodeDecision.row(sink, NodeKind.SINK, Reason.SINK_NOT_ADMITTED, admission.get().describe());
        }
        Optional<RowSinkCalc> calc = RowSinkCalc.of(sink, decision);
        boolean takesCalc = calc.isPresent() && calc.get().taken();
        Optional<String> noHead = rowHeadUnsupported(sink, takesCalc);
        if (noHead.isPresent()) {
            return NodeDecision.row(sink, NodeKind.SINK, Reason.INPUT_NOT_COLUMNAR, "input " + inputName(sink)
                    + "; no row head: " + noHead.get()
                    + calc.filter(c -> !c.taken()).map(c -> "; " + c.describe()).orElse(""));
        }
        if (takesCalc) {
            decision.replace(NodeDecision.columnar(calc.get().calc(), NodeKind.ROW_SINK_CALC,
                    "in the row sink's encode operator, Flink's generated code", null));
        }
        String head = rowHead(sink);
        return NodeDecision.rowSink(sink, (head.isEmpty() ? "" : "row head: " + head + "; ")
                + calc.map(c -> c.describe() + "; ").orElse("") + admission.get().describe(), calc.orElse(null));
    }

    /** The steps of Flink's sink node the row sink's encode operator runs, as EXPLAIN names them. */
    public static String rowHead(StreamPhysicalSink sink) {
        return flinkSinkSteps(sink).describe();
    }

    private static SinkRowHead flinkSinkSteps(StreamPhysicalSink sink) {
        return FlinkSinkSteps.head(sink.contextResolvedTable().getResolvedSchema(),
                FlinkTypeFactory.toLogicalRowType(sink.getInput().getRowType()), ShortcutUtils.unwrapTableConfig(sink),
                null);
    }

    /**
     * Why Flink's sink node over rows adds more than its constraint enforcer and rowtime step (Flink 2.2.1's {@code
     * CommonExecSink.createSinkTransformation}), or the session keeps it, or, unless {@code takesCalc}, it adds
     * neither; empty when it adds no more. Flink's {@code RowKindSetter} needs row-level delete or update abilities,
     * which the connector's sink does not offer.
     */
    private static Optional<String> rowHeadUnsupported(StreamPhysicalSink sink, boolean takesCalc) {
        ReadableConfig config = ShortcutUtils.unwrapTableConfig(sink);
        if (!config.get(PlannerOptions.ROW_SINK_HEAD)) {
            return Optional.of(PlannerOptions.ROW_SINK_HEAD.key() + " is false");
        }
        Optional<String> connector = ColumnarTables.rowSinkUnsupported(sink.tableSink());
        if (connector.isPresent()) {
            return connector;
        }
        if (sink.upsertMaterialize()) {
            return Optional.of("Flink's upsert materializer (SinkUpsertMaterializer) before the sink");
        }
        if (sink.contextResolvedTable().getResolvedSchema().getPrimaryKey().isPresent()
                && config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_KEYED_SHUFFLE)
                        == ExecutionConfigOptions.SinkKeyedShuffle.FORCE) {
            return Optional.of("table.exec.sink.keyed-shuffle FORCE: Flink's sink node shuffles by the primary key");
        }
        Optional<String> rejected = rejectedRowtimes(sink);
        if (rejected.isPresent()) {
            return rejected;
        }
        if (!takesCalc && flinkSinkSteps(sink).isEmpty()) {
            return Optional.of("Flink's sink node adds no step before the connector's encoder");
        }
        return Optional.empty();
    }

    /** Flink's sink node fails a query writing more than one rowtime attribute while its rowtime inserter is on. */
    private static Optional<String> rejectedRowtimes(StreamPhysicalSink sink) {
        int rowtimes = FlinkSinkSteps.rowtimeFields(FlinkTypeFactory.toLogicalRowType(sink.getInput().getRowType()))
                .length;
        if (rowtimes > 1 && ShortcutUtils.unwrapTableConfig(sink).get(ExecutionConfigOptions.TABLE_EXEC_SINK_ROWTIME_INSERTER)
                == ExecutionConfigOptions.RowtimeInserter.ENABLED) {
            return Optional.of(rowtimes + " rowtime attributes: Flink's sink node rejects the query");
        }
        return Optional.empty();
    }

    private static String inputName(RelNode node) {
        return node.getInput(0).getRelTypeName().replace("StreamPhysical", "");
    }
}
