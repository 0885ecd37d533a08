package io.columnarkafka.bench.nexmark;

import java.util.Locale;

/**
 * When a recovery cell's kill fires ({@link FailureInjection} feeds it what it sees, every poll): at the first
 * checkpoint that completes after the sources have read the target share of the input, once its offsets have had
 * {@code settleMillis} to be committed, and before the job manager may start the next checkpoint.
 *
 * <p>The recovery cell's job has a checkpoint min-pause ({@link RecoveryCell}): the job manager starts no checkpoint
 * until {@code minPauseMillis} after the last one completed. A kill before that moment therefore follows a completed
 * checkpoint with none in flight, and the job restores exactly that checkpoint: the replay is the position at the
 * kill − that checkpoint's offsets. The completion time is the checkpoint statistics' trigger time + end-to-end
 * duration (the last acknowledgement), which is no later than the moment the job manager counts the pause from;
 * {@code marginMillis} leaves room for the harness's last reads and the kill. Without the pause, a job whose
 * checkpoints take the whole interval has a next checkpoint in flight at every moment and the kill would never fire
 * (the columnar q5 cell's miss in the 2026-12-02 smokes). A window missed (the harness saw the checkpoint too late
 * on a loaded machine) waits for the next completed checkpoint; the wait ends only with the job or its sources.
 */
final class KillTrigger {
    /** What to do after an observation. */
    enum Action { WAIT, FIRE, FAIL }

    /** An action; for FIRE the checkpoint the kill follows, for FAIL the reason. */
    record Decision(Action action, long checkpoint, String reason) {
        static final Decision WAIT = new Decision(Action.WAIT, -1, "");
    }

    /**
     * What the harness saw at {@code nowMillis}: the sources' read position (events), whether the job has ended
     * and its state, and the latest completed checkpoint (id -1 if none) with its completion time, and how many
     * checkpoints are in flight.
     */
    record Observation(long nowMillis, long position, boolean jobEnded, String jobState, long latestCompleted,
                       long latestCompletedEndMillis, int inProgress) {}

    private final long target;
    private final long events;
    private final long settleMillis;
    private final long minPauseMillis;
    private final long marginMillis;
    private long highestPosition;
    /** The latest completed checkpoint when the target was reached; -2 until it is. */
    private long completedAtTarget = -2;
    private long lastMissed = -1;
    private int windowsMissed;

    KillTrigger(long target, long events, long settleMillis, long minPauseMillis, long marginMillis) {
        if (settleMillis + marginMillis >= minPauseMillis) {
            throw new IllegalArgumentException("the min-pause (" + minPauseMillis + " ms) leaves no window after "
                    + settleMillis + " ms of commit settling and a " + marginMillis + " ms margin");
        }
        this.target = target;
        this.events = events;
        this.settleMillis = settleMillis;
        this.minPauseMillis = minPauseMillis;
        this.marginMillis = marginMillis;
    }

    Decision decide(Observation seen) {
        if (seen.jobEnded()) {
            return fail("the job ended (" + seen.jobState() + ")");
        }
        if (seen.position() < highestPosition) {
            // The position files only lose a source's gauges when its reader closes: the input is read to its end.
            return fail("the sources finished (their positions are gone)");
        }
        highestPosition = seen.position();
        if (completedAtTarget == -2) {
            if (seen.position() >= target) {
                completedAtTarget = seen.latestCompleted();
            }
            return Decision.WAIT;
        }
        if (seen.latestCompleted() <= completedAtTarget) {
            return Decision.WAIT;
        }
        long sinceCompleted = seen.nowMillis() - seen.latestCompletedEndMillis();
        boolean nextMayStart = sinceCompleted >= minPauseMillis - marginMillis;
        if (seen.inProgress() > 0 || nextMayStart) {
            missed(seen.latestCompleted());
            return Decision.WAIT;
        }
        return sinceCompleted >= settleMillis
                ? new Decision(Action.FIRE, seen.latestCompleted(), "")
                : Decision.WAIT;
    }

    /** Whether a kill at {@code nowMillis} still falls before the next checkpoint may start after {@code fired}'s. */
    boolean stillInWindow(long nowMillis, Observation fired) {
        boolean inWindow = nowMillis - fired.latestCompletedEndMillis() < minPauseMillis - marginMillis;
        if (!inWindow) {
            missed(fired.latestCompleted());
        }
        return inWindow;
    }

    private void missed(long checkpoint) {
        if (checkpoint != lastMissed) {
            lastMissed = checkpoint;
            windowsMissed++;
        }
    }

    private Decision fail(String what) {
        String progress = completedAtTarget == -2
                ? String.format(Locale.ROOT, "before its sources had read %,d of %,d events (at most %,d seen): the"
                        + " input is too small for a failure mid-run, use more --events", target, events,
                        highestPosition)
                : String.format(Locale.ROOT, "after its sources had read %,d of %,d events (at most %,d seen) but"
                        + " before a checkpoint completed after checkpoint %d with a kill window (%d window(s)"
                        + " missed)", target, events, highestPosition, completedAtTarget, windowsMissed);
        return new Decision(Action.FAIL, -1, what + " " + progress);
    }
}
