package io.columnarkafka.planner.match;

import io.columnarkafka.planner.PlannerOptions;
import java.util.Optional;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlOperator;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.planner.functions.bridging.BridgingSqlFunction;
import org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalSink;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * Flink's Calc feeding a row sink ({@code ColumnarRowSink}), and whether the sink's encode operator takes it in: runs
 * Flink's generated code for it (as a function, {@code CalcCodeGenerator.generateFunction}'s form, opened with the
 * operator's runtime context) before the sink's steps, so the row crosses no hop, and with object reuse off no
 * copy, between the Calc and the encoder. Taken only where the Calc is over rows, read by the sink alone, and its
 * code reads nothing of Flink's Calc operator but the runtime context.
 *
 * @param calc the sink's input
 * @param notTaken null when taken; else why it stays Flink's operator
 */
public record RowSinkCalc(StreamPhysicalCalc calc, String notTaken) {

    /** The Calc that is {@code sink}'s input, taken or with why not; empty where the input is no Calc. */
    static Optional<RowSinkCalc> of(StreamPhysicalSink sink, PlanDecision decision) {
        if (!(sink.getInput() instanceof StreamPhysicalCalc calc)) {
            return Optional.empty();
        }
        return Optional.of(new RowSinkCalc(calc, notTaken(calc, decision).orElse(null)));
    }

    public boolean taken() {
        return notTaken == null;
    }

    /** {@code taken: Flink's generated code in the encode operator} or {@code not taken: <why>}, for the decision. */
    String describe() {
        return taken() ? "calc taken in: Flink's generated code in the encode operator" : "calc not taken: " + notTaken;
    }

    private static Optional<String> notTaken(StreamPhysicalCalc calc, PlanDecision decision) {
        if (!ShortcutUtils.unwrapTableConfig(calc).get(PlannerOptions.ROW_SINK_CALC)) {
            return Optional.of(PlannerOptions.ROW_SINK_CALC.key() + " is false");
        }
        if (decision.of(calc).isColumnar()) {
            // A row-fed sink over a columnar Calc is a split one: its columnar part feeds Flink's Calc of the rest.
            return Optional.of("a split Calc: its filter runs on the batches, Flink's Calc of the rest after the edge");
        }
        if (decision.of(calc.getInput()).emitsBatches()) {
            return Optional.of("its input is columnar: Flink's Calc reads the rows of an Arrow-to-rows edge");
        }
        int consumers = decision.consumers(calc);
        if (consumers > 1) {
            return Optional.of("read by " + consumers + " nodes");
        }
        return operatorContextCall(calc).map(call -> call + " reads Flink's Calc operator (its timer service or"
                + " record timestamp), which a generated function has not");
    }

    /**
     * The first call whose code Flink 2.2.1's {@code ExprCodeGenerator} generates over its operator's context term
     * (the generated Calc operator's {@code TableStreamOperator} context: {@code GenerateUtils.generateProctimeTimestamp},
     * {@code generateRowtimeAccess}, {@code generateWatermark}), which no function class declares; empty if none.
     */
    private static Optional<String> operatorContextCall(StreamPhysicalCalc calc) {
        String[] found = new String[1];
        RexVisitorImpl<Void> finder = new RexVisitorImpl<>(true) {
            @Override
            public Void visitCall(RexCall call) {
                if (found[0] == null && readsOperatorContext(call.getOperator())) {
                    found[0] = call.getOperator().getName();
                }
                return super.visitCall(call);
            }
        };
        for (RexNode expression : calc.getProgram().getExprList()) {
            expression.accept(finder);
        }
        return Optional.ofNullable(found[0]);
    }

    private static boolean readsOperatorContext(SqlOperator operator) {
        // As ExprCodeGenerator matches them.
        return FlinkSqlOperatorTable.PROCTIME_MATERIALIZE.equals(operator)
                || FlinkSqlOperatorTable.STREAMRECORD_TIMESTAMP.equals(operator)
                || operator instanceof BridgingSqlFunction function
                        && BuiltInFunctionDefinitions.CURRENT_WATERMARK.equals(function.getDefinition());
    }
}
