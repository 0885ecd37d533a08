package io.columnarkafka.planner.match;

/** A Calc expression with no columnar counterpart; the message names it and says why. */
final class NotTranslatable extends Exception {
    private static final long serialVersionUID = 1L;

    NotTranslatable(String message) {
        super(message, null, false, false);
    }
}
