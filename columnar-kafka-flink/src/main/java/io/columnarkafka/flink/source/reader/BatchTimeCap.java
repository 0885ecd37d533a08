package io.columnarkafka.flink.source.reader;

import java.util.function.LongSupplier;

/**
 * How many records the next batch may take so that emitting it, one step of the source task's mailbox loop,
 * lasts about a target time. A checkpoint's trigger is a mail that waits for the step under way, so the step's
 * length bounds the barrier's start delay; a row cap alone cannot bound it, since the time per row depends on the
 * format, the chained operators and the machine's load.
 *
 * <p>The emitter reports each step's records and wall time (decode, emit and the chained operators' work, including
 * time the thread was descheduled, as that delays the trigger too); the cap is the target over a moving average of
 * nanoseconds per record, between {@link #MIN_ROWS} and the row cap. Per-step costs that do not scale with the
 * records (allocating vectors, planning a calc's call) are in that average, so the cap settles where a whole step
 * lasts the target. Used by the task thread only: the emitter reports, and the fetch it cuts batches from asks on
 * the same thread just before the next step, so a change applies to the very next batch.
 *
 * <p><b>Near an expected checkpoint</b> the batches are cut to a second, shorter target ({@code
 * checkpointTargetNanos}), with or without the first. The reader cannot see a pending trigger (a mail in the task's
 * mailbox), but checkpoints come at the job's interval, which the reader sees in the times of its snapshots: from an
 * eighth of that interval before the next snapshot is due until an eighth after it, steps are kept short so that the
 * trigger, when it comes, waits for a short step; the rest of the time batches take the whole fetch (or the first
 * target). Measured: a source barrier's start delay is what remains of the step under way when the trigger arrives,
 * on average E[S²]/2E[S] over the step times S, about half a 500-record step (docs/nexmark.md).
 */
public final class BatchTimeCap {
    /**
     * The fewest records a batch is cut to. When one step costs more than the target whatever the batch, cutting
     * further would spend per-batch work on ever fewer rows without reaching the target.
     */
    public static final int MIN_ROWS = 16;
    /** Weight of the newest step in the average: a slow step (a GC pause) moves the cap for a few steps only. */
    private static final double NEWEST_WEIGHT = 0.25;
    /** The window of short steps around an expected checkpoint: this fraction of the interval each side. */
    private static final int WINDOW_FRACTION = 8;
    private static final long NONE = Long.MIN_VALUE;

    private final int maxRows;
    private final long targetNanos;
    private final long checkpointTargetNanos;
    private final LongSupplier clock;
    private double nanosPerRecord = Double.NaN;
    private long lastCheckpointNanos = NONE;
    private long intervalNanos = NONE;

    /**
     * @param maxRows the row cap
     * @param targetNanos the target time of one step; 0 for none (every batch takes up to {@code maxRows})
     */
    public BatchTimeCap(int maxRows, long targetNanos) {
        this(maxRows, targetNanos, 0, System::nanoTime);
    }

    /**
     * @param maxRows the row cap
     * @param targetNanos the target time of one step; 0 for none (every batch takes up to {@code maxRows})
     * @param checkpointTargetNanos the target time of one step near an expected checkpoint; 0 for none
     */
    public BatchTimeCap(int maxRows, long targetNanos, long checkpointTargetNanos) {
        this(maxRows, targetNanos, checkpointTargetNanos, System::nanoTime);
    }

    BatchTimeCap(int maxRows, long targetNanos, long checkpointTargetNanos, LongSupplier clock) {
        if (maxRows <= 0 || targetNanos < 0 || checkpointTargetNanos < 0) {
            throw new IllegalArgumentException("max rows " + maxRows + ", target " + targetNanos
                    + " ns and checkpoint target " + checkpointTargetNanos + " ns");
        }
        this.maxRows = maxRows;
        this.targetNanos = targetNanos;
        this.checkpointTargetNanos = checkpointTargetNanos;
        this.clock = clock;
    }

    /**
     * Records the next batch may take: the row cap until a step was measured or without a target in force (the
     * checkpoint target is in force only near an expected checkpoint).
     */
    int rows() {
        long target = targetNanos;
        if (checkpointTargetNanos > 0 && checkpointNear()) {
            target = target == 0 ? checkpointTargetNanos : Math.min(target, checkpointTargetNanos);
        }
        if (target == 0 || Double.isNaN(nanosPerRecord)) {
            return maxRows;
        }
        return (int) Math.min(maxRows, Math.max(MIN_ROWS, target / nanosPerRecord));
    }

    /** A step emitted {@code records} records (at least one) in {@code nanos}. */
    void measured(int records, long nanos) {
        if (targetNanos == 0 && checkpointTargetNanos == 0) {
            return;
        }
        double perRecord = (double) Math.max(nanos, 0) / records;
        nanosPerRecord = Double.isNaN(nanosPerRecord)
                ? perRecord
                : nanosPerRecord + NEWEST_WEIGHT * (perRecord - nanosPerRecord);
    }

    /** The reader took a checkpoint's snapshot now: the interval to the one before is the next one's estimate. */
    public void checkpointTaken() {
        long now = clock.getAsLong();
        if (lastCheckpointNanos != NONE) {
            intervalNanos = now - lastCheckpointNanos;
        }
        lastCheckpointNanos = now;
    }

    /** Within an eighth of the estimated interval of the next checkpoint's due time, either side. */
    private boolean checkpointNear() {
        if (intervalNanos <= 0) {
            return false;
        }
        long fromDue = clock.getAsLong() - (lastCheckpointNanos + intervalNanos);
        return Math.abs(fromDue) <= intervalNanos / WINDOW_FRACTION;
    }
}
