package io.columnarkafka.client;

/** A write, flush or epoch step of an {@link ArrowKafkaSink} failed; the message says which and why. */
public final class SinkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SinkException(String message, Throwable cause) {
        super(message, cause);
    }

    public SinkException(String message) {
        super(message);
    }
}
