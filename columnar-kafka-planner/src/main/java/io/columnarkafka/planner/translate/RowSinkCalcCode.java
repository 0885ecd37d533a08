package io.columnarkafka.planner.translate;

import java.util.List;
import java.util.Optional;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.BoxedWrapperRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.codegen.CalcCodeGenerator$;
import org.apache.flink.table.planner.codegen.CodeGenUtils;
import org.apache.flink.table.planner.codegen.CodeGeneratorContext;
import org.apache.flink.table.planner.codegen.FunctionCodeGenerator$;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.runtime.generated.GeneratedFunction;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's generated code for a Calc taken into a row sink, as a function the encode operator calls per row. Flink
 * 2.2.1's {@code CalcCodeGenerator.generateFunction} is the two calls below: {@code generateProcessCode} (the Calc's
 * condition and projections, exactly the code {@code generateCalcOperator} puts in the stream Calc operator, with the
 * output collected directly) and {@code FunctionCodeGenerator.generateFunction} (the class: members, constructor,
 * {@code open} opening the UDFs with a {@code FunctionContext} of the runtime context, {@code close}). The one
 * difference is {@code StreamExecCalc}'s {@code retainHeader = true}, which {@code generateFunction} leaves at its
 * default: each output row gets the input row's kind, as Flink's stream Calc does. The output row class is the Calc
 * operator's ({@link BoxedWrapperRowData}), the context the one {@code CommonExecCalc} makes (the node's
 * configuration, the planner's class loader).
 */
final class RowSinkCalcCode {
    /** Flink's name stem for the class ({@code CommonExecCalc} names its operator after the exec node's class). */
    private static final String NAME = "StreamExecCalc";

    private RowSinkCalcCode() {}

    static GeneratedFunction<FlatMapFunction<RowData, RowData>> generate(ReadableConfig config,
            ClassLoader classLoader, RowType inputType, RowType outputType, List<RexNode> projection,
            RexNode condition) {
        CodeGeneratorContext ctx = new CodeGeneratorContext(config, classLoader);
        CalcCodeGenerator$ calcs = CalcCodeGenerator$.MODULE$;
        String inputTerm = CodeGenUtils.DEFAULT_INPUT1_TERM();
        String collectorTerm = CodeGenUtils.DEFAULT_COLLECTOR_TERM();
        String processCode = calcs.generateProcessCode(ctx, inputType, outputType, BoxedWrapperRowData.class,
                JavaScalaConversionUtil.toScala(projection),
                JavaScalaConversionUtil.toScala(Optional.ofNullable(condition)), inputTerm, collectorTerm,
                false /* eagerInputUnboxingCode, as generateFunction */, true /* retainHeader, as StreamExecCalc */,
                true /* outputDirectly, as generateFunction */);
        FunctionCodeGenerator$ functions = FunctionCodeGenerator$.MODULE$;
        @SuppressWarnings({"unchecked", "rawtypes"})
        GeneratedFunction<FlatMapFunction<RowData, RowData>> function = (GeneratedFunction) functions.generateFunction(
                ctx, NAME, FlatMapFunction.class, processCode, outputType, inputType, inputTerm,
                functions.generateFunction$default$8(), functions.generateFunction$default$9(), collectorTerm,
                functions.generateFunction$default$11());
        return function;
    }
}
