package io.columnarkafka.format.json;

/**
 * Why a JSON value or record could not be read, in the words of Flink's deserializer (or of the Jackson
 * parser inside it), with the path of the innermost field being read when it happened. Thrown often under
 * {@code ignore-parse-errors}, so it carries no stack trace.
 */
final class JsonReadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String field;

    JsonReadException(String reason) {
        this(null, reason);
    }

    JsonReadException(String field, String reason) {
        super(reason, null, false, false);
        this.field = field;
    }

    /** Path of the innermost field being read, or null when the record's structure failed. */
    String field() {
        return field;
    }

    /** The reason of any failure while reading a value: ours, or a JDK parser's (number, date) message. */
    static String reasonOf(RuntimeException e) {
        if (e instanceof JsonReadException) {
            return e.getMessage();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
