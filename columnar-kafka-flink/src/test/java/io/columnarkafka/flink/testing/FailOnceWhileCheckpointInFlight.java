package io.columnarkafka.flink.testing;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

/**
 * Passes batch indexes through and throws exactly once in the whole JVM: after {@code
 * completedBefore} checkpoints have completed, at the first element that arrives while a later
 * checkpoint has been snapshotted here but is not yet complete, so the failure lands with a checkpoint
 * in flight (its pre-committed transaction must be aborted, not committed). Static flags, because a
 * restarted task gets new function instances; {@link #reset()} before each job.
 */
public final class FailOnceWhileCheckpointInFlight
        implements MapFunction<Long, Long>, CheckpointedFunction, CheckpointListener {
    private static final long serialVersionUID = 1L;

    private static final AtomicBoolean FAILED = new AtomicBoolean();
    private static final AtomicLong COMPLETED = new AtomicLong();
    private static final AtomicLong SNAPSHOTTED = new AtomicLong();
    private static final AtomicLong FAILED_WITH_IN_FLIGHT = new AtomicLong(-1);

    private final long completedBefore;

    public FailOnceWhileCheckpointInFlight(long completedBefore) {
        this.completedBefore = completedBefore;
    }

    public static void reset() {
        FAILED.set(false);
        COMPLETED.set(0);
        SNAPSHOTTED.set(0);
        FAILED_WITH_IN_FLIGHT.set(-1);
    }

    public static boolean failed() {
        return FAILED.get();
    }

    /** Id of the checkpoint that was in flight when the failure was thrown, or -1. */
    public static long inFlightCheckpointAtFailure() {
        return FAILED_WITH_IN_FLIGHT.get();
    }

    @Override
    public Long map(Long index) {
        long snapshotted = SNAPSHOTTED.get();
        long completed = COMPLETED.get();
        boolean inFlight = snapshotted > completed;
        // A fallback, should the in-flight window never be hit, keeps the test from running forever.
        boolean due = completed >= completedBefore && (inFlight || completed >= completedBefore + 20);
        if (due && FAILED.compareAndSet(false, true)) {
            FAILED_WITH_IN_FLIGHT.set(inFlight ? snapshotted : -1);
            throw new IllegalStateException("injected failure after checkpoint " + completed
                    + (inFlight ? " with checkpoint " + snapshotted + " in flight" : ""));
        }
        return index;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        SNAPSHOTTED.accumulateAndGet(context.getCheckpointId(), Math::max);
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        COMPLETED.accumulateAndGet(checkpointId, Math::max);
    }
}
