package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.planner.PlannerOptions;
import java.util.ArrayList;
import java.util.HashMap;
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
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.BoxedWrapperRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.functions.python.PythonFunction;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.codegen.CodeGenUtils;
import org.apache.flink.table.planner.codegen.CodeGeneratorContext;
import org.apache.flink.table.planner.codegen.ExprCodeGenerator;
import org.apache.flink.table.planner.codegen.FunctionCodeGenerator;
import org.apache.flink.table.planner.codegen.GeneratedExpression;
import org.apache.flink.table.planner.functions.bridging.BridgingSqlFunction;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
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
 * user-defined function, or every function the Calc calls is deterministic and this function is called once. With
 * deterministic functions a call's value depends on its arguments only, so the order between calls changes no value
 * (a non-deterministic function could see it, so then more than one call stays Flink's). A function called twice
 * stays Flink's because Flink's generated code keeps one instance per function ({@code CodeGenUtils.udfFieldName}),
 * opened once and shared by its calls, where the calc would open one per call. The calc also checks that it holds
 * the values of the call's arguments and result ({@code CalcSupport}); anything not admitted stays Flink's, with the
 * reason.
 */
final class FlinkCodeCalls {
    /** The generated function's class name (Flink makes it unique). */
    private static final String CLASS_NAME = "ColumnarCalcFlinkCode";

    private final RelNode context;
    /** Why no call of this Calc runs in the calc, or null when the calls may (but those of {@link #calledTwice}). */
    private final String notAdmitted;
    /** Functions ({@code CodeGenUtils.udfFieldName}) the Calc calls more than once, to how often. */
    private final Map<String, Integer> calledTwice;

    private FlinkCodeCalls(RelNode context, String notAdmitted, Map<String, Integer> calledTwice) {
        this.context = context;
        this.notAdmitted = notAdmitted;
        this.calledTwice = calledTwice;
    }

    /** The admission for the calls of {@code program}, planned under the session of {@code context}. */
    static FlinkCodeCalls of(RexProgram program, RelNode context) {
        if (!ShortcutUtils.unwrapTableConfig(context).get(PlannerOptions.FLINK_CODE_CALC)) {
            return new FlinkCodeCalls(context, PlannerOptions.FLINK_CODE_CALC.key() + " is false", Map.of());
        }
        List<RexCall> calls = new ArrayList<>();
        if (program.getCondition() != null) {
            collectCalls(program.expandLocalRef(program.getCondition()), calls);
        }
        for (RexLocalRef projection : program.getProjectList()) {
            collectCalls(program.expandLocalRef(projection), calls);
        }
        Map<String, Integer> perFunction = new HashMap<>();
        for (RexCall call : calls) {
            if (calls.size() > 1 && !definition(call).isDeterministic()) {
                return new FlinkCodeCalls(context, calls.size() + " calls of user-defined functions in one Calc,"
                        + " UDF " + call.getOperator().getName() + " not deterministic (Flink's Calc makes a row's"
                        + " calls in turn, the calc one call for all rows before the next)", Map.of());
            }
            perFunction.merge(CodeGenUtils.udfFieldName((UserDefinedFunction) definition(call)), 1, Integer::sum);
        }
        perFunction.values().removeIf(count -> count == 1);
        return new FlinkCodeCalls(context, null, perFunction);
    }

    /** No call runs in the calc (an expression outside a Calc: a watermark). */
    static FlinkCodeCalls none() {
        return new FlinkCodeCalls(null, "", Map.of());
    }

    static boolean isUserDefined(RexCall call) {
        return call.getOperator() instanceof BridgingSqlFunction function
                && function.getDefinition() instanceof UserDefinedFunction;
    }

    /** The call of a user-defined function as Flink's generated code for the calc, or why not. */
    Expr translate(RexCall call, Translator operands) throws NotTranslatable {
        String refused = refusal(call);
        if (refused != null) {
            throw new NotTranslatable("UDF " + call.getOperator().getName() + " (a user-defined function: only"
                    + " Flink's generated code calls it" + (refused.isEmpty() ? "" : "; not in the calc: " + refused)
                    + ")");
        }
        // each non-literal operand becomes a field of the code's input row, evaluated by the calc; a literal stays
        // one, so Flink's code sees it as its Calc does (type inference may ask whether an argument is a literal)
        List<RexNode> overInputs = new ArrayList<>();
        List<LogicalType> inputTypes = new ArrayList<>();
        List<Expr> arguments = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            if (operand instanceof RexLiteral) {
                overInputs.add(operand);
            } else {
                overInputs.add(new RexInputRef(inputTypes.size(), operand.getType()));
                inputTypes.add(FlinkTypeFactory.toLogicalType(operand.getType()));
                arguments.add(operands.translate(operand));
            }
        }
        LogicalType type = FlinkTypeFactory.toLogicalType(call.getType());
        GeneratedFunction<MapFunction<RowData, RowData>> code = generate(call.clone(call.getType(), overInputs),
                RowType.of(inputTypes.toArray(LogicalType[]::new)), RowType.of(type));
        return new Expr.FlinkCode(code, arguments, "UDF " + call.getOperator().getName(), type);
    }

    /** Why {@code call} does not run in the calc ("" for no reason to add), or null when it does. */
    private String refusal(RexCall call) {
        if (notAdmitted != null) {
            return notAdmitted;
        }
        FunctionDefinition definition = definition(call);
        if (!(definition instanceof ScalarFunction) || definition instanceof PythonFunction) {
            return "only a Java scalar function runs in the calc";
        }
        Integer times = calledTwice.get(CodeGenUtils.udfFieldName((UserDefinedFunction) definition));
        if (times != null) {
            return "called " + times + " times in one Calc (Flink's generated code shares one instance, opened once,"
                    + " between a function's calls; the calc would open one per call)";
        }
        return null;
    }

    private static FunctionDefinition definition(RexCall call) {
        return ((BridgingSqlFunction) call.getOperator()).getDefinition();
    }

    /**
     * Flink's code for {@code call} over an input row of {@code inputType}, as Flink compiles any expression
     * ({@code ExpressionReducer}'s way): the expression code of its Calc, the result in a {@link BoxedWrapperRowData}
     * (its Calc's output row class), in a {@code RichMapFunction} whose {@code open} opens the function with a {@code
     * FunctionContext} of its runtime context and whose {@code close} closes it.
     */
    @SuppressWarnings("unchecked")
    private GeneratedFunction<MapFunction<RowData, RowData>> generate(RexNode call, RowType inputType,
            RowType resultType) {
        ReadableConfig config = ShortcutUtils.unwrapTableConfig(context);
        CodeGeneratorContext ctx = new CodeGeneratorContext(config, ShortcutUtils.unwrapClassLoader(context));
        ExprCodeGenerator generator = new ExprCodeGenerator(ctx, false);
        generator.bindInput(inputType, CodeGenUtils.DEFAULT_INPUT1_TERM(), generator.bindInput$default$3());
        GeneratedExpression value = generator.generateExpression(call);
        GeneratedExpression result = generator.generateResultExpression(JavaScalaConversionUtil.toScala(List.of(value)),
                resultType, BoxedWrapperRowData.class, generator.generateResultExpression$default$4(),
                generator.generateResultExpression$default$5(), generator.generateResultExpression$default$6(),
                generator.generateResultExpression$default$7());
        String body = result.code() + "\nreturn " + result.resultTerm() + ";";
        Class<MapFunction<RowData, RowData>> mapFunction = (Class<MapFunction<RowData, RowData>>) (Class<?>) MapFunction.class;
        return FunctionCodeGenerator.generateFunction(ctx, CLASS_NAME, mapFunction, body, resultType, inputType,
                FunctionCodeGenerator.generateFunction$default$7(), FunctionCodeGenerator.generateFunction$default$8(),
                FunctionCodeGenerator.generateFunction$default$9(), FunctionCodeGenerator.generateFunction$default$10(),
                FunctionCodeGenerator.generateFunction$default$11());
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
