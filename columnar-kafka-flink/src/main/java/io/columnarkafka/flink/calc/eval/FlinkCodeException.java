package io.columnarkafka.flink.calc.eval;

/**
 * Flink's generated code of a call the calc runs ({@code Expr.FlinkCode}) threw: the message names the call and the
 * row, the cause is what the code threw (the user-defined function's own exception), as Flink's Calc would fail with it.
 */
public final class FlinkCodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FlinkCodeException(String message, Throwable cause) {
        super(message, cause);
    }
}
