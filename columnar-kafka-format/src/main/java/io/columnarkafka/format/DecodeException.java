package io.columnarkafka.format;

/**
 * A record that Flink's deserializer rejects, with the record's index in its batch, the field (a path
 * such as {@code bid.price}, or null when the record as a whole is malformed) and the reason. When it is
 * thrown, the decoder has freed everything the call allocated. The Kafka source adds the topic,
 * partition and offset the index stands for.
 */
public final class DecodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int record;
    private final String field;
    private final String reason;

    public DecodeException(int record, String field, String reason, Throwable cause) {
        super("record " + record + (field == null ? "" : ", field '" + field + "'") + ": " + reason, cause);
        this.record = record;
        this.field = field;
        this.reason = reason;
    }

    public DecodeException(int record, String field, String reason) {
        this(record, field, reason, null);
    }

    /** Index of the record in the decoded batch. */
    public int record() {
        return record;
    }

    /** The field being decoded, or null when the record as a whole is malformed. */
    public String field() {
        return field;
    }

    /** Why the record was rejected, without the record and field. */
    public String reason() {
        return reason;
    }
}
