package io.columnarkafka.client;

/**
 * An encoded record over the size the sink's Kafka producer accepts ({@link RecordSizeLimit}), found before
 * any record of its batch was handed to {@code KafkaSink}'s writer or, in {@link ArrowKafkaSink}, to the
 * producer. The message names the record's topic and row, its size as Kafka's producer counts it, the limit and
 * the producer property to raise.
 */
public final class OversizedRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OversizedRecordException(String message) {
        super(message);
    }
}
