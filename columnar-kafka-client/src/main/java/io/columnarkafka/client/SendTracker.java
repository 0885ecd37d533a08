package io.columnarkafka.client;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The callback of every send through one producer: keeps the first failure, so the next write, flush or
 * pre-commit surfaces it instead of losing it, and reports each to the listener.
 */
final class SendTracker implements Callback {
    private final SinkListener listener;
    private final AtomicReference<Exception> firstError = new AtomicReference<>();

    SendTracker(SinkListener listener) {
        this.listener = listener;
    }

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
        if (exception != null) {
            firstError.compareAndSet(null, exception);
            listener.sendFailed(exception);
        }
    }

    /** Throws the first send failure since the last {@link #reset()}, if any. */
    void throwIfFailed(String during) {
        Exception error = firstError.get();
        if (error != null) {
            throw new SinkException("a record failed to send (" + during + "): " + error.getMessage(), error);
        }
    }

    /** Forgets past failures, at the start of a new epoch (the failed one was rolled back). */
    void reset() {
        firstError.set(null);
    }
}
