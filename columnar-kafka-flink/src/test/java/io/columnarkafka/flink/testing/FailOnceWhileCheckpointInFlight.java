package io.columnarkafka.flink.testing;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

/**
 * Passes elements (batch indexes, or Arrow batches) through and injects exactly one failure per test while a checkpoint is really
 * in flight. Needs parallelism 2 and runs chained in front of the sink:
 * <ol>
 *   <li>once {@code completedBefore} checkpoints have completed, subtask 1 holds the next checkpoint
 *       {@code H} open by sleeping in its snapshot (so the job manager cannot complete {@code H});
 *   <li>subtask 0, past {@code H}'s barrier, writes a few more batches into its next transaction, waits
 *       briefly so the producer ships them, and throws.
 * </ol>
 * The job restarts from the checkpoint before {@code H}: {@code H}'s pre-committed transactions and the
 * open ones must be aborted, and their rows replayed. Static flags, because a restarted task gets new
 * function instances; call {@link #reset()} before each job. The element it fails on is closed if it is
 * {@link AutoCloseable} (an Arrow batch), as its owner would have closed it.
 */
public final class FailOnceWhileCheckpointInFlight<T> extends RichMapFunction<T, T>
        implements CheckpointedFunction, CheckpointListener {
    private static final long serialVersionUID = 1L;
    private static final int BATCHES_AFTER_BARRIER = 3;
    private static final long MAX_HOLD_MILLIS = 10_000;

    private static final AtomicBoolean FAILED = new AtomicBoolean();
    private static final AtomicLong COMPLETED = new AtomicLong();
    private static final AtomicLong HELD = new AtomicLong(-1);

    private final long completedBefore;
    private transient long snapshotted;
    private transient int sinceSnapshot;

    public FailOnceWhileCheckpointInFlight(long completedBefore) {
        this.completedBefore = completedBefore;
    }

    public static void reset() {
        FAILED.set(false);
        COMPLETED.set(0);
        HELD.set(-1);
    }

    public static boolean failed() {
        return FAILED.get();
    }

    /** The checkpoint that was held in flight when the failure was thrown, or -1. */
    public static long heldCheckpoint() {
        return HELD.get();
    }

    private int subtask() {
        return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    }

    @Override
    public T map(T element) throws Exception {
        long held = HELD.get();
        if (subtask() == 0 && !FAILED.get() && held > 0 && snapshotted >= held
                && ++sinceSnapshot >= BATCHES_AFTER_BARRIER) {
            Thread.sleep(300);
            FAILED.set(true);
            if (element instanceof AutoCloseable) {
                ((AutoCloseable) element).close();
            }
            throw new IllegalStateException("injected failure with checkpoint " + held + " in flight");
        }
        return element;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws InterruptedException {
        snapshotted = context.getCheckpointId();
        sinceSnapshot = 0;
        if (subtask() == 1 && !FAILED.get() && COMPLETED.get() >= completedBefore
                && HELD.compareAndSet(-1, context.getCheckpointId())) {
            long deadline = System.currentTimeMillis() + MAX_HOLD_MILLIS;
            while (!FAILED.get() && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
        }
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        COMPLETED.accumulateAndGet(checkpointId, Math::max);
    }
}
