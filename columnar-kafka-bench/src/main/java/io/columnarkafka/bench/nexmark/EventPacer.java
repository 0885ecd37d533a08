package io.columnarkafka.bench.nexmark;

import java.util.concurrent.locks.LockSupport;

/**
 * Paces a live fill at a fixed event rate, as Nexmark's rate-limited source does: event {@code i} is due {@code i /
 * rate} seconds after the start, so the rate holds on average over any stretch, and a sender that falls behind
 * (a pause of its own, a slow broker) catches up at once instead of drifting.
 */
final class EventPacer {
    /** Parks shorter than this are not worth the wake-up: the send runs up to this far ahead of its due time. */
    static final long SLACK_NANOS = 1_000_000;

    private final double eventsPerSecond;
    private final long startNanos;

    EventPacer(double eventsPerSecond, long startNanos) {
        if (!(eventsPerSecond > 0)) {
            throw new IllegalArgumentException("the rate must be positive: " + eventsPerSecond);
        }
        this.eventsPerSecond = eventsPerSecond;
        this.startNanos = startNanos;
    }

    /** The events of a run of {@code seconds} at {@code eventsPerSecond}, rounded to the nearest event. */
    static long events(double eventsPerSecond, double seconds) {
        return Math.round(eventsPerSecond * seconds);
    }

    /** When event {@code eventId} is due, on the {@link System#nanoTime} clock. */
    long dueNanos(long eventId) {
        return startNanos + (long) (eventId * 1e9 / eventsPerSecond);
    }

    /** How long to wait at {@code nowNanos} before sending event {@code eventId}: 0 when it is (nearly) due. */
    long waitNanos(long eventId, long nowNanos) {
        long wait = dueNanos(eventId) - nowNanos;
        return wait > SLACK_NANOS ? wait : 0;
    }

    /** Blocks until event {@code eventId} is due. */
    void awaitDue(long eventId) {
        for (long wait = waitNanos(eventId, System.nanoTime()); wait > 0;
                wait = waitNanos(eventId, System.nanoTime())) {
            LockSupport.parkNanos(wait);
        }
    }
}
