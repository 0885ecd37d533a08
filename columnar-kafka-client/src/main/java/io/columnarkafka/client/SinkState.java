package io.columnarkafka.client;

/** The lifecycle of an {@link ArrowKafkaSink}: Created → Running → Closed, never backwards. */
public enum SinkState {
    /** Built and validated; nothing opened. Prepared epochs of an earlier process may be committed or aborted. */
    CREATED,
    /** {@code open()} succeeded: producers are connected and batches may be written. */
    RUNNING,
    /** {@code close()} was called: every producer is closed and no transaction of this sink is open. */
    CLOSED
}
