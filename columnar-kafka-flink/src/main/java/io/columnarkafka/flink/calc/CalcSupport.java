package io.columnarkafka.flink.calc;

import java.util.Optional;

/**
 * Whether the columnar calc evaluates a program exactly as Flink's generated code does. The answer comes
 * from the same compiler that builds the evaluation plan, so what is admitted is what runs.
 */
public final class CalcSupport {
    private CalcSupport() {}

    /**
     * Empty when every part of {@code program} is evaluated exactly; otherwise the first unsupported part
     * and why, e.g. "DIVIDE on DECIMAL(38, 10) / DECIMAL(38, 10): result scale rule not reproduced".
     */
    public static Optional<String> unsupported(CalcProgram program) {
        return Optional.of("the columnar calc evaluates no expression yet");
    }
}
