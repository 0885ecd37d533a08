package io.columnarkafka.format.json;

/**
 * Why a JSON value or record could not be read, in the words of Flink's deserializer (or of the Jackson
 * parser inside it), with the path of the innermost field being read when it happened. Thrown often under
 * {@code ignore-parse-errors}, so it carries no stack trace.
 */
final class JsonReadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String field;
    /** The input ended where Flink's deserializer loops forever: see {@link #pastEnd}. */
    private final boolean pastEnd;

    JsonReadException(String reason) {
        this(null, reason);
    }

    JsonReadException(String field, String reason) {
        this(field, reason, false);
    }

    private JsonReadException(String field, String reason, boolean pastEnd) {
        super(reason, null, false, false);
        this.field = field;
        this.pastEnd = pastEnd;
    }

    /**
     * The record's input ended (outside any structure, after a failure under {@code ignore-parse-errors} moved the
     * parser out of step with the converters) inside an array, a map, a skipped value or the record's top-level
     * array. Flink 2.2's loops there ({@code while (jp.nextToken() != JsonToken.END_ARRAY)}, the map converter's
     * {@code END_OBJECT} loop, {@code skipToNextField}, {@code processArray}) get a null token forever and never
     * return, so Flink never gets past the record. We fail the batch at the record instead, even under {@code
     * ignore-parse-errors}: skipping it would emit the later records, which Flink never does.
     */
    static JsonReadException pastEnd(String where) {
        return new JsonReadException(null, "Unexpected end-of-input in " + where + ": the record ends inside it after"
                + " a value that failed; Flink 2.2's deserializer never returns on this record", true);
    }

    /** This failure, in field {@code field} (the path of the innermost field that had none), with its reason. */
    JsonReadException inField(String field, String reason) {
        return new JsonReadException(field, reason, pastEnd);
    }

    /** True if {@code e} is a {@link #pastEnd} failure, which {@code ignore-parse-errors} does not skip. */
    static boolean isPastEnd(RuntimeException e) {
        return e instanceof JsonReadException read && read.pastEnd;
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
