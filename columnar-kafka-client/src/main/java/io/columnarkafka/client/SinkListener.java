package io.columnarkafka.client;

/**
 * Receives the sink's metrics as they happen. Called on the thread that calls the sink, except {@link
 * #sendFailed}, which Kafka's producer calls on its I/O thread; keep implementations cheap and thread-safe.
 * Every method has an empty default, so a listener overrides only what it records.
 */
public interface SinkListener {
    /** A listener that records nothing. */
    SinkListener NONE = new SinkListener() {};

    /**
     * One batch was encoded and handed to the producer.
     *
     * @param records records sent
     * @param bytes encoded key and value bytes
     * @param encodeNanos time spent encoding the key and value slabs
     * @param sendNanos time spent copying records out and in {@code producer.send} (which blocks when the
     *     producer's buffer is full)
     */
    default void batchWritten(long records, long bytes, long encodeNanos, long sendNanos) {}

    /** A write, flush or epoch step failed, or the producer reported a failed send. */
    default void sendFailed(Throwable error) {}

    /** An epoch's transaction was committed. */
    default void epochCommitted(long epoch) {}

    /** An epoch's transaction was aborted. */
    default void epochAborted(long epoch) {}
}
