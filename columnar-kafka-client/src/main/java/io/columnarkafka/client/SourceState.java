package io.columnarkafka.client;

/** The lifecycle of an {@link ArrowKafkaSource}: Created → Running → Closed, never backwards. */
public enum SourceState {
    /** Built; nothing opened. {@code validate()}, {@code schema()} and {@code decoding()} answer without a broker. */
    CREATED,
    /** {@code open()} succeeded: the consumer is subscribed or assigned and batches may be polled. */
    RUNNING,
    /** {@code close()} was called: the consumer is closed; the allocator closes once the last batch is closed. */
    CLOSED
}
