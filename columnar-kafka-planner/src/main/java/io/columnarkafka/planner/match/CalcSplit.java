package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.CalcSupport;
import io.columnarkafka.flink.calc.Expr;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.types.logical.RowType;

/**
 * The narrow answer for a Calc the columnar calc cannot run whole because of some projections: a columnar part
 * that applies the Calc's condition and computes the projections it admits (with the input values the rest
 * reads: columns, or just their nested fields), an Arrow-to-rows edge, then Flink's own Calc, without the condition, for the remaining projections
 * over the rows that passed. Flink's generated Calc evaluates its projections only for rows that passed its
 * condition, and so does the columnar calc ({@code ColumnarCalc}), so each projection sees the same rows, in
 * the same order, whichever side computes it.
 *
 * @param columnarPart the condition and the columnar projections, over the Calc's input (the columnar calc's
 *     Calcite program, for EXPLAIN and the digest)
 * @param columnarProgram {@code columnarPart} translated, as the columnar calc runs it
 * @param flinkPart Flink's Calc after the edge: the Calc's projections over {@code columnarPart}'s output, no
 *     condition; its output row type is the Calc's
 * @param flinkReason why Flink's Calc keeps its projections, one {@code <REASON> <name>: <detail>} each
 * @param summary what runs where and why, for the decision line
 */
public record CalcSplit(RexProgram columnarPart, CalcProgram columnarProgram, RexProgram flinkPart,
                        String flinkReason, String summary) {
    /** Why all calls of a user-defined function stay on one side of the edge. */
    private static final String ONE_INSTANCE = "Flink's generated code has one instance of a function for all its"
            + " calls, opened once";

    /**
     * The split of {@code calc}, whose whole program the columnar calc does not run.
     *
     * @throws NotTranslatable why it is not split, and so stays Flink's whole: no condition (every row would cross
     *     the edge anyway), a condition that is not deterministic, not translated or not evaluated exactly, or
     *     Flink's part reading no input value
     */
    static CalcSplit of(Calc calc) throws NotTranslatable {
        RexProgram program = calc.getProgram();
        if (program.getCondition() == null) {
            throw new NotTranslatable("no condition to apply before the edge");
        }
        RexNode condition = program.expandLocalRef(program.getCondition());
        if (!RexUtil.isDeterministic(condition)) {
            throw new NotTranslatable("the condition is not deterministic");
        }
        RexToExpr rexes = CalcTranslation.rexes(program, calc);
        Expr conditionExpr;
        try {
            conditionExpr = rexes.translate(program.getCondition());
        } catch (NotTranslatable e) {
            throw new NotTranslatable("the condition: " + e.getMessage());
        }
        RowType input = FlinkTypeFactory.toLogicalRowType(program.getInputRowType());
        Optional<String> conditionAlone = CalcSupport.unsupported(new CalcProgram(input, List.of(), List.of(),
                conditionExpr));
        if (conditionAlone.isPresent()) {
            throw new NotTranslatable("the condition: " + conditionAlone.get());
        }

        List<String> names = program.getOutputRowType().getFieldNames();
        List<RexNode> projections = new ArrayList<>();
        Map<Integer, String> flinkOnly = new TreeMap<>(); // projection -> its reason
        for (int i = 0; i < program.getProjectList().size(); i++) {
            projections.add(program.expandLocalRef(program.getProjectList().get(i)));
            try {
                Expr projection = rexes.translate(program.getProjectList().get(i));
                // with the condition: what it fixes (ConditionFacts) may decide whether a CASE is admitted
                Optional<String> unsupported = CalcSupport.unsupported(new CalcProgram(input, List.of(projection),
                        List.of(names.get(i)), conditionExpr));
                if (unsupported.isPresent()) {
                    flinkOnly.put(i, Reason.CALC_NOT_EXACT + " " + names.get(i) + ": " + unsupported.get());
                }
            } catch (NotTranslatable e) {
                flinkOnly.put(i, Reason.EXPRESSION_NOT_TRANSLATED + " " + names.get(i) + ": " + e.getMessage());
            }
        }
        if (flinkOnly.isEmpty()) {
            throw new NotTranslatable("each projection is admitted alone but not all together");
        }
        keepEachFunctionOnOneSide(condition, projections, names, flinkOnly);
        return split(calc, condition, projections, names, flinkOnly);
    }

    /**
     * Adds to {@code flinkOnly} each projection that calls a user-defined function which a projection there calls too:
     * Flink's generated Calc has one instance of a function for all its calls (opened once), and the columnar calc
     * and Flink's Calc after the edge would have one each.
     *
     * @throws NotTranslatable when the condition calls such a function (then no projection of it can stay Flink's)
     */
    private static void keepEachFunctionOnOneSide(RexNode condition, List<RexNode> projections, List<String> names,
            Map<Integer, String> flinkOnly) throws NotTranslatable {
        // each expression's functions once; Flink's calls grow as projections move
        Map<String, String> conditionCalls = FlinkCodeCalls.functions(condition);
        List<Map<String, String>> projectionCalls = projections.stream().map(FlinkCodeCalls::functions).toList();
        Map<String, Integer> flinkCalls = new HashMap<>(); // function -> the first projection of Flink's calling it
        List<Integer> moved = new ArrayList<>(flinkOnly.keySet());
        while (!moved.isEmpty()) {
            for (int i : moved) {
                projectionCalls.get(i).keySet().forEach(function -> flinkCalls.merge(function, i, Math::min));
            }
            moved.clear();
            for (Map.Entry<String, String> function : conditionCalls.entrySet()) {
                if (flinkCalls.containsKey(function.getKey())) {
                    throw new NotTranslatable("the condition calls " + function.getValue() + ", which "
                            + names.get(flinkCalls.get(function.getKey())) + " calls in Flink's Calc ("
                            + ONE_INSTANCE + ")");
                }
            }
            for (int i = 0; i < projections.size() && moved.isEmpty(); i++) {
                if (flinkOnly.containsKey(i)) {
                    continue;
                }
                for (Map.Entry<String, String> function : projectionCalls.get(i).entrySet()) {
                    if (flinkCalls.containsKey(function.getKey())) {
                        flinkOnly.put(i, Reason.CALC_NOT_EXACT + " " + names.get(i) + ": calls " + function.getValue()
                                + ", which " + names.get(flinkCalls.get(function.getKey())) + " calls in Flink's Calc ("
                                + ONE_INSTANCE + ")");
                        moved.add(i);
                        break;
                    }
                }
            }
        }
    }

    private static CalcSplit split(Calc calc, RexNode condition, List<RexNode> projections, List<String> names,
            Map<Integer, String> flinkOnly) throws NotTranslatable {
        RexProgram program = calc.getProgram();
        RexBuilder rexBuilder = calc.getCluster().getRexBuilder();
        List<RexNode> columnar = new ArrayList<>();
        List<String> columnarNames = new ArrayList<>();
        Map<Integer, Integer> projectionAt = new HashMap<>(); // a columnar projection -> its column
        Map<String, Integer> readAt = new HashMap<>(); // an input value the columnar part passes on -> its column
        for (int i = 0; i < projections.size(); i++) {
            if (!flinkOnly.containsKey(i)) {
                if (isInputValue(projections.get(i))) {
                    readAt.putIfAbsent(projections.get(i).toString(), columnar.size());
                }
                projectionAt.put(i, columnar.size());
                columnar.add(projections.get(i));
                columnarNames.add(names.get(i));
            }
        }
        // what Flink's part reads: input columns, or their nested fields alone (q14's UDF reads bid.extra, not bid)
        List<RexNode> reads = new ArrayList<>();
        RexVisitorImpl<Void> inputValues = new RexVisitorImpl<>(true) {
            @Override
            public Void visitInputRef(RexInputRef ref) {
                reads.add(ref);
                return null;
            }

            @Override
            public Void visitFieldAccess(RexFieldAccess access) {
                if (isInputValue(access)) {
                    reads.add(access);
                    return null;
                }
                return super.visitFieldAccess(access);
            }
        };
        for (Integer i : flinkOnly.keySet()) {
            projections.get(i).accept(inputValues);
        }
        List<RelDataTypeField> inputFields = program.getInputRowType().getFieldList();
        for (RexNode read : reads) {
            if (!readAt.containsKey(read.toString())) {
                readAt.put(read.toString(), columnar.size());
                columnar.add(read);
                columnarNames.add(read instanceof RexFieldAccess access ? access.getField().getName()
                        : inputFields.get(((RexInputRef) read).getIndex()).getName());
            }
        }
        if (columnar.isEmpty()) {
            throw new NotTranslatable("Flink's part reads no input column");
        }
        RexProgram columnarPart = RexProgram.create(program.getInputRowType(), columnar, condition,
                SqlValidatorUtil.uniquify(columnarNames, true), rexBuilder);
        CalcProgram columnarProgram = CalcTranslation.of(columnarPart, calc);
        Optional<String> together = CalcSupport.unsupported(columnarProgram);
        if (together.isPresent()) {
            throw new NotTranslatable("the columnar part: " + together.get());
        }

        RelDataType passed = columnarPart.getOutputRowType();
        RexShuttle overPassed = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(readAt.get(ref.toString()), ref.getType());
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                return isInputValue(access) ? new RexInputRef(readAt.get(access.toString()), access.getType())
                        : super.visitFieldAccess(access);
            }
        };
        List<RexNode> flink = new ArrayList<>(projections.size());
        for (int i = 0; i < projections.size(); i++) {
            Integer at = projectionAt.get(i);
            flink.add(at != null ? new RexInputRef(at, passed.getFieldList().get(at).getType())
                    : projections.get(i).accept(overPassed));
        }
        RexProgram flinkPart = RexProgram.create(passed, flink, null, calc.getRowType(), rexBuilder);
        String flinkReason = String.join("; ", flinkOnly.values());
        int passedOn = columnar.size() - projectionAt.size();
        String summary = "split: the filter and " + projectionAt.size() + " of " + projections.size()
                + " projections columnar" + (passedOn == 0 ? "" : ", " + passedOn + " more input value"
                + (passedOn == 1 ? "" : "s") + " to the edge") + FlinkCodeCalls.describe(columnarProgram)
                + "; Flink's Calc after the edge: " + flinkReason;
        return new CalcSplit(columnarPart, columnarProgram, flinkPart, flinkReason, summary);
    }

    /** An input column, or a nested field of one ({@code bid.extra}): a value the columnar calc passes on as is. */
    private static boolean isInputValue(RexNode node) {
        return node instanceof RexInputRef
                || node instanceof RexFieldAccess access && isInputValue(access.getReferenceExpr());
    }
}
