package io.columnarkafka.flink.calc.eval;

/** A part of a program the calc does not evaluate exactly as Flink does; the message says which and why. */
public final class UnsupportedExpressionException extends Exception {
    private static final long serialVersionUID = 1L;

    UnsupportedExpressionException(String reason) {
        super(reason, null, false, false);
    }
}
