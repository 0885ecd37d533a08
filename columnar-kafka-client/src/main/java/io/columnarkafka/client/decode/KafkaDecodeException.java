package io.columnarkafka.client.decode;

import io.columnarkafka.format.DecodeException;

/**
 * A Kafka record the format rejects, located: topic, partition, offset, whether the key or the value
 * failed, the field and the reason. Fails the job (the Flink source) or the poll ({@code ArrowKafkaSource}), as
 * Flink's deserializers fail without {@code ignore-parse-errors}.
 */
public final class KafkaDecodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final int partition;
    private final long offset;
    private final String field;
    private final String reason;

    public KafkaDecodeException(String topic, int partition, long offset, boolean key, DecodeException cause) {
        super("cannot decode the " + (key ? "key" : "value") + " of the Kafka record at topic '" + topic
                + "', partition " + partition + ", offset " + offset
                + (cause.field() == null ? "" : ", field '" + cause.field() + "'") + ": " + cause.reason(),
                cause);
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.field = cause.field();
        this.reason = cause.reason();
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    /** The field being decoded, or null when the record as a whole is malformed. */
    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
