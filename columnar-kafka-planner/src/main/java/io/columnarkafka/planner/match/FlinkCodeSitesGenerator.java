package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.FlinkCodeSites;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.api.common.functions.AbstractRichFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.BoxedWrapperRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.codegen.CodeGenUtils;
import org.apache.flink.table.planner.codegen.CodeGeneratorContext;
import org.apache.flink.table.planner.codegen.ExprCodeGenerator;
import org.apache.flink.table.planner.codegen.GeneratedExpression;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.planner.utils.ShortcutUtils;
import org.apache.flink.table.runtime.generated.GeneratedFunction;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's generated code for the calls of user-defined functions of one Calc, as one class ({@link FlinkCodeSites}).
 * Each call's code is Flink's own ({@code ExprCodeGenerator}, its Calc's expression code), and all are generated in
 * ONE {@code CodeGeneratorContext}, as Flink 2.2.1's {@code CalcCodeGenerator} generates a Calc's condition and
 * projections in one: so the context's {@code addReusableFunction} declares one field per function ({@code
 * CodeGenUtils.udfFieldName}: the class, and a hash of the serialized instance unless the class alone names it) and
 * adds its open and close statements once; every call of the function reads that field, so it has one instance,
 * opened once, as in Flink's Calc. The class is {@code FunctionCodeGenerator}'s (the context's members, constructor,
 * open and close), with one method per call in place of {@code map}: the call's input unboxing and local variables,
 * its code, its value in a {@link BoxedWrapperRowData} (its Calc's output row class); {@code call(site, row)}
 * dispatches to the method.
 */
final class FlinkCodeSitesGenerator {
    /** The generated class's name (Flink makes it unique). */
    private static final String CLASS_NAME = "ColumnarCalcFlinkCode";

    private FlinkCodeSitesGenerator() {}

    /**
     * A call site: {@code call} reads each non-literal operand from its input row of {@code input}; its value is the
     * one field of {@code result}.
     */
    record Site(RexNode call, RowType input, RowType result) {}

    /** The class of {@code sites}, entry point {@code s} being {@code sites.get(s)}, in {@code context}'s session. */
    static GeneratedFunction<FlinkCodeSites> generate(List<Site> sites, RelNode context) {
        ReadableConfig config = ShortcutUtils.unwrapTableConfig(context);
        CodeGeneratorContext ctx = new CodeGeneratorContext(config, ShortcutUtils.unwrapClassLoader(context));
        List<String> inputs = new ArrayList<>();
        List<GeneratedExpression> results = new ArrayList<>();
        for (int s = 0; s < sites.size(); s++) {
            Site site = sites.get(s);
            ctx.startNewLocalVariableStatement(method(s));
            String input = CodeGenUtils.newName(ctx, "siteInput");
            ExprCodeGenerator generator = new ExprCodeGenerator(ctx, false);
            generator.bindInput(site.input(), input, generator.bindInput$default$3());
            GeneratedExpression value = generator.generateExpression(site.call());
            results.add(generator.generateResultExpression(JavaScalaConversionUtil.toScala(List.of(value)),
                    site.result(), BoxedWrapperRowData.class, CodeGenUtils.newName(ctx, "siteOut"),
                    generator.generateResultExpression$default$5(), generator.generateResultExpression$default$6(),
                    generator.generateResultExpression$default$7()));
            inputs.add(input);
        }
        String name = CodeGenUtils.newName(ctx, CLASS_NAME);
        String row = RowData.class.getCanonicalName();
        StringBuilder dispatch = new StringBuilder();
        StringBuilder methods = new StringBuilder();
        // A site method has its own input unboxing (by input term) and local variables (by method name), but not its
        // own per-record statements: the context keeps one set for the class, not which expression asked for each,
        // and adds a statement once, so a site needing one an earlier site added could not be given it. Every site
        // method runs the whole set, which changes no value: in Flink 2.2.1 an expression's per-record statements are
        // the context's record-level current time, local time and date (CurrentTimePointCallGen), each assigning a
        // member from the clock, and a site reading one assigns it itself first. And a site has none: its operands
        // are input fields and literals, only the UDF call is generated.
        for (int s = 0; s < sites.size(); s++) {
            dispatch.append("      case ").append(s).append(": return ").append(method(s)).append("(arguments);\n");
            methods.append("  private ").append(row).append(' ').append(method(s)).append('(').append(row).append(' ')
                    .append(inputs.get(s)).append(") throws Exception {\n")
                    .append(ctx.reusePerRecordCode()).append('\n')
                    .append(ctx.reuseLocalVariableCode(method(s))).append('\n')
                    .append(ctx.reuseInputUnboxingCode(inputs.get(s))).append('\n')
                    .append(results.get(s).code()).append('\n')
                    .append("    return ").append(results.get(s).resultTerm()).append(";\n  }\n\n");
        }
        String code = ctx.getClassHeaderComment() + "\n"
                + "public final class " + name + " extends " + AbstractRichFunction.class.getCanonicalName()
                + " implements " + FlinkCodeSites.class.getCanonicalName() + " {\n"
                + ctx.reuseMemberCode() + "\n"
                + "  public " + name + "(Object[] references) throws Exception {\n" + ctx.reuseInitCode() + "\n  }\n"
                + ctx.reuseConstructorCode(name) + "\n"
                + "  @Override\n  public void open(" + OpenContext.class.getCanonicalName()
                + " openContext) throws Exception {\n" + ctx.reuseOpenCode() + "\n  }\n\n"
                + "  @Override\n  public " + row + " call(int site, " + row + " arguments) throws Exception {\n"
                + "    switch (site) {\n" + dispatch
                + "      default: throw new IllegalArgumentException(\"no call site \" + site);\n    }\n  }\n\n"
                + methods
                + "  @Override\n  public void close() throws Exception {\n" + ctx.reuseCloseCode() + "\n  }\n"
                + ctx.reuseInnerClassDefinitionCode() + "\n}\n";
        return new GeneratedFunction<>(name, code, JavaScalaConversionUtil.toJava(ctx.references()).toArray(),
                config);
    }

    private static String method(int site) {
        return "site" + site;
    }
}
