package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.FlinkCodeSites;
import io.columnarkafka.planner.PlannerOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.functions.python.PythonFunction;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.codegen.CodeGenUtils;
import org.apache.flink.table.planner.functions.bridging.BridgingSqlFunction;
import org.apache.flink.table.planner.utils.ShortcutUtils;
import org.apache.flink.table.runtime.generated.GeneratedFunction;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Which calls of user-defined scalar functions in one Calc the columnar calc runs itself, with Flink's own generated
 * code for the call ({@link Expr.FlinkCode}), and that code. Flink 2.2.1's generated Calc evaluates its condition for
 * every row and its projections, one after the other, for each row that passed, in row order; inside AND, OR and CASE
 * only where the operand or branch is reached. The columnar calc evaluates the condition for every row, a projection
 * for the rows that passed, in row order, and its AND, OR and CASE narrow the rows the same way, so each call is made
 * for the same rows, in the same order, with the same arguments. What differs is the order between calls: Flink
 * makes a row's calls in turn before the next row, the calc makes one call for all rows before the next call.
 *
 * <p>Admitted: a {@link ScalarFunction} (not a Python one), in the condition or a projection, nested or with computed
 * arguments, when {@link PlannerOptions#FLINK_CODE_CALC} is not off and either it is the Calc's only call of a
 * user-defined function, or every function the Calc calls is deterministic. With deterministic functions a call's
 * value depends on its arguments only, so the order between calls changes no value (a non-deterministic function could
 * see it: then more than one call stays Flink's). All calls of a Calc are one generated class ({@link
 * FlinkCodeSitesGenerator}), made as Flink's Calc is, in one code generator context, so a function called twice has
 * one instance, opened and closed once, for both calls, as in Flink's Calc. That instance sees each call's rows in row
 * order, and as many calls per row as Flink's, but the calls across rows in another order ({@code f(a)} for every
 * row, then {@code f(b)}; Flink: {@code f(a), f(b)} of row 1, then of row 2): only a function whose value depends on
 * earlier calls (not deterministic, kept out above) or one with side effects could tell. Across a split all calls of
 * a function stay on one side ({@code CalcSplit}). The calc also checks that it holds the values of the call's
 * arguments and result ({@code CalcSupport}); anything not admitted stays Flink's, with the reason.
 */
final class FlinkCodeCalls {
    /** Why no call of this Calc runs in the calc, or null when the calls may. */
    private final String notAdmitted;
    /** Each distinct call the calc may run to its entry point in {@link #code}. */
    private final Map<RexCall, Integer> sites;
    /** Flink's generated class of the calls in {@link #sites}, or null when there is none. */
    private final GeneratedFunction<FlinkCodeSites> code;

    private FlinkCodeCalls(String notAdmitted, Map<RexCall, Integer> sites, GeneratedFunction<FlinkCodeSites> code) {
        this.notAdmitted = notAdmitted;
        this.sites = sites;
        this.code = code;
    }

    /** The admission for the calls of {@code program}, planned under the session of {@code context}. */
    static FlinkCodeCalls of(RexProgram program, RelNode context) {
        if (!ShortcutUtils.unwrapTableConfig(context).get(PlannerOptions.FLINK_CODE_CALC)) {
            return refused(PlannerOptions.FLINK_CODE_CALC.key() + " is false");
        }
        List<RexCall> calls = new ArrayList<>();
        if (program.getCondition() != null) {
            collectCalls(program.expandLocalRef(program.getCondition()), calls);
        }
        for (RexLocalRef projection : program.getProjectList()) {
            collectCalls(program.expandLocalRef(projection), calls);
        }
        Map<RexCall, Integer> sites = new LinkedHashMap<>();
        List<FlinkCodeSitesGenerator.Site> shapes = new ArrayList<>();
        for (RexCall call : calls) {
            if (calls.size() > 1 && !definition(call).isDeterministic()) {
                return refused(calls.size() + " calls of user-defined functions in one Calc, UDF "
                        + call.getOperator().getName() + " not deterministic (Flink's Calc makes a row's calls in"
                        + " turn, the calc one call for all rows before the next)");
            }
            // an equal call (one written twice, or a local reference read by two expressions) is the same code
            if (javaScalar(call) == null && !sites.containsKey(call)) {
                sites.put(call, shapes.size());
                shapes.add(site(call));
            }
        }
        if (shapes.isEmpty()) {
            return new FlinkCodeCalls(null, Map.of(), null);
        }
        return new FlinkCodeCalls(null, sites, FlinkCodeSitesGenerator.generate(shapes, context));
    }

    private static FlinkCodeCalls refused(String reason) {
        return new FlinkCodeCalls(reason, Map.of(), null);
    }

    /** No call runs in the calc (an expression outside a Calc: a watermark). */
    static FlinkCodeCalls none() {
        return refused("");
    }

    static boolean isUserDefined(RexCall call) {
        return call.getOperator() instanceof BridgingSqlFunction function
                && function.getDefinition() instanceof UserDefinedFunction;
    }

    /**
     * The user-defined functions {@code node} calls: each as Flink's generated code names its one instance in a Calc
     * ({@code CodeGenUtils.udfFieldName}), to the name of a call of it ({@code UDF count_char}).
     */
    static Map<String, String> functions(RexNode node) {
        List<RexCall> calls = new ArrayList<>();
        collectCalls(node, calls);
        Map<String, String> functions = new LinkedHashMap<>();
        for (RexCall call : calls) {
            functions.putIfAbsent(CodeGenUtils.udfFieldName((UserDefinedFunction) definition(call)),
                    "UDF " + call.getOperator().getName());
        }
        return functions;
    }

    /**
     * Refuses a SEARCH (an IN list or range) over a call of a user-defined function: Flink 2.2.1's code ({@code
     * SearchOperatorGen.generateSearch}) evaluates the searched expression once per row, but the calc expands the
     * SEARCH into comparisons ({@code RexUtil.expandSearch}), each evaluating it again.
     */
    static void checkSearched(RexCall search) throws NotTranslatable {
        Map<String, String> searched = functions(search.getOperands().get(0));
        if (!searched.isEmpty()) {
            throw new NotTranslatable("SEARCH (an IN list or range) over " + String.join(", ", searched.values())
                    + " (Flink's code makes the call once per row, the calc's comparisons once each)");
        }
    }

    /** The call of a user-defined function as Flink's generated code for the calc, or why not. */
    Expr translate(RexCall call, Translator operands) throws NotTranslatable {
        String refused = refusal(call);
        if (refused != null) {
            throw new NotTranslatable("UDF " + call.getOperator().getName() + " (a user-defined function: only"
                    + " Flink's generated code calls it" + (refused.isEmpty() ? "" : "; not in the calc: " + refused)
                    + ")");
        }
        List<Expr> arguments = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            if (!(operand instanceof RexLiteral)) {
                arguments.add(operands.translate(operand));
            }
        }
        Integer site = sites.get(call);
        if (site == null) {
            throw new IllegalStateException("UDF call " + call + " is not among the calls of its Calc "
                    + sites.keySet());
        }
        return new Expr.FlinkCode(code, site, arguments, "UDF " + call.getOperator().getName(),
                FlinkTypeFactory.toLogicalType(call.getType()));
    }

    /**
     * The code's entry point for {@code call}: each non-literal operand becomes a field of its input row, evaluated by
     * the calc; a literal stays one, so Flink's code sees it as its Calc does (type inference may ask whether an
     * argument is a literal).
     */
    private static FlinkCodeSitesGenerator.Site site(RexCall call) {
        List<RexNode> overInputs = new ArrayList<>();
        List<LogicalType> inputTypes = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            if (operand instanceof RexLiteral) {
                overInputs.add(operand);
            } else {
                overInputs.add(new RexInputRef(inputTypes.size(), operand.getType()));
                inputTypes.add(FlinkTypeFactory.toLogicalType(operand.getType()));
            }
        }
        return new FlinkCodeSitesGenerator.Site(call.clone(call.getType(), overInputs),
                RowType.of(inputTypes.toArray(LogicalType[]::new)),
                RowType.of(FlinkTypeFactory.toLogicalType(call.getType())));
    }

    /** Why {@code call} does not run in the calc ("" for no reason to add), or null when it does. */
    private String refusal(RexCall call) {
        return notAdmitted != null ? notAdmitted : javaScalar(call);
    }

    /** Null for a Java scalar function, else why it does not run in the calc. */
    private static String javaScalar(RexCall call) {
        FunctionDefinition definition = definition(call);
        if (!(definition instanceof ScalarFunction) || definition instanceof PythonFunction) {
            return "only a Java scalar function runs in the calc";
        }
        return null;
    }

    private static FunctionDefinition definition(RexCall call) {
        return ((BridgingSqlFunction) call.getOperator()).getDefinition();
    }

    /** The calls of user-defined functions in {@code node}, added to {@code calls}. */
    private static void collectCalls(RexNode node, List<RexCall> calls) {
        node.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                if (isUserDefined(call)) {
                    calls.add(call);
                }
                return super.visitCall(call);
            }
        });
    }

    /**
     * The decision line's note on the condition and projections of {@code program} that run Flink's generated code in
     * the calc ({@code ; Flink's generated code in the calc: c_counts (UDF count_char)}), or "" when none does.
     */
    static String describe(CalcProgram program) {
        List<String> parts = program.flinkCodeParts();
        return parts.isEmpty() ? "" : "; Flink's generated code in the calc: " + String.join(", ", parts);
    }

    /** Translates an operand of the call into the calc's expression. */
    @FunctionalInterface
    interface Translator {
        Expr translate(RexNode operand) throws NotTranslatable;
    }
}
