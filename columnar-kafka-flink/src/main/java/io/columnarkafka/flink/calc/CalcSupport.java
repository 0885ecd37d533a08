package io.columnarkafka.flink.calc;

import io.columnarkafka.flink.calc.eval.CalcPlan;
import io.columnarkafka.flink.calc.eval.UnsupportedExpressionException;
import java.util.Optional;

/**
 * Whether the columnar calc evaluates a program exactly as Flink's generated code does. The answer comes
 * from the same compiler that builds the evaluation plan, so what is admitted is exactly what runs.
 */
public final class CalcSupport {
    private CalcSupport() {}

    /**
     * Empty when every part of {@code program} is evaluated exactly; otherwise the first unsupported part
     * and why, e.g. "DIVIDE on DECIMAL(38, 10), DECIMAL(38, 10) typed DECIMAL(38, 6): DECIMAL DIVIDE
     * (rounding of the quotient or remainder) is not reproduced".
     */
    public static Optional<String> unsupported(CalcProgram program) {
        try {
            CalcPlan.compile(program);
            return Optional.empty();
        } catch (UnsupportedExpressionException e) {
            return Optional.of(e.getMessage());
        }
    }
}
