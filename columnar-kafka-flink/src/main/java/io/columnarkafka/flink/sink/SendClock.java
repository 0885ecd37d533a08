package io.columnarkafka.flink.sink;

import java.util.concurrent.locks.LockSupport;

/**
 * The time a {@link SendWindow} reads and the way its task thread waits: the system's in a job; a model link's
 * simulated time in the window's tests, so that what they assert of the window does not depend on how the
 * machine running them schedules threads.
 */
interface SendClock {
    SendClock SYSTEM = new SendClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void park(Object blocker, long nanos) {
            LockSupport.parkNanos(blocker, nanos);
        }
    };

    long nanoTime();

    /** Waits at most {@code nanos}; may return sooner (as {@link LockSupport#parkNanos}, on an unpark). */
    void park(Object blocker, long nanos);
}
