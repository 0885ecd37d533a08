package io.columnarkafka.flink.source.reader;

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
 */
public final class BatchTimeCap {
    /**
     * The fewest records a batch is cut to. When one step costs more than the target whatever the batch, cutting
     * further would spend per-batch work on ever fewer rows without reaching the target.
     */
    public static final int MIN_ROWS = 16;
    /** Weight of the newest step in the average: a slow step (a GC pause) moves the cap for a few steps only. */
    private static final double NEWEST_WEIGHT = 0.25;

    private final int maxRows;
    private final long targetNanos;
    private double nanosPerRecord = Double.NaN;

    /**
     * @param maxRows the row cap
     * @param targetNanos the target time of one step; 0 for none (every batch takes up to {@code maxRows})
     */
    public BatchTimeCap(int maxRows, long targetNanos) {
        if (maxRows <= 0 || targetNanos < 0) {
            throw new IllegalArgumentException("max rows " + maxRows + " and target " + targetNanos + " ns");
        }
        this.maxRows = maxRows;
        this.targetNanos = targetNanos;
    }

    /** Records the next batch may take: the row cap until a step was measured or without a target. */
    int rows() {
        if (targetNanos == 0 || Double.isNaN(nanosPerRecord)) {
            return maxRows;
        }
        return (int) Math.min(maxRows, Math.max(MIN_ROWS, targetNanos / nanosPerRecord));
    }

    /** A step emitted {@code records} records (at least one) in {@code nanos}. */
    void measured(int records, long nanos) {
        if (targetNanos == 0) {
            return;
        }
        double perRecord = (double) Math.max(nanos, 0) / records;
        nanosPerRecord = Double.isNaN(nanosPerRecord)
                ? perRecord
                : nanosPerRecord + NEWEST_WEIGHT * (perRecord - nanosPerRecord);
    }
}
