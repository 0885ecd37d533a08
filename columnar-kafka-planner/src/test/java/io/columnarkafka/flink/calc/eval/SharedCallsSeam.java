package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import java.util.List;

/** Tests' access to the common sub-expressions of a compiled calc program. */
public final class SharedCallsSeam {
    private SharedCallsSeam() {}

    /**
     * The calls of {@code program} that its compiled plan computes once for several readers (one shared node each),
     * compiled as the columnar calc compiles it.
     */
    public static List<Expr.Call> sharedCalls(CalcProgram program) throws UnsupportedExpressionException {
        Compiler compiler = new Compiler(program.input());
        CalcPlan.compile(program, compiler);
        return compiler.sharedCalls();
    }
}
