package io.columnarkafka.bench.nexmark;

import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.flink.FlinkProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * A recovery cell's one failure, triggered by the job's progress, not by wall time: at the first checkpoint that
 * completes after the sources have read {@code failAtFraction} of the input ({@link SourcePositions}), once its
 * offsets have had time to be committed and before the job manager may start the next one ({@link KillTrigger}),
 * the TaskManager process running the job's tasks is killed with {@code SIGKILL} (no shutdown of any kind; every
 * task of the job is lost with it) and the job restarts on the cluster's spare TaskManager ({@link RecoveryCell}).
 * The position trigger puts the failure at the same share of the input on a fast and a slow machine, for stock
 * and columnar alike.
 *
 * <p>Measured: noticed (the kill to the job manager failing the job's tasks: its heartbeat RPCs to the dead process
 * fail, see {@link RecoveryCell}), restart (the kill to every task running again in a new attempt: Flink's region failover restarts
 * the tasks without the job leaving RUNNING, so the job status cannot tell), caught up (the kill to the new
 * attempts' sources having read past the failure position again, or the job having finished; at a fixed input
 * rate, past where they would be without the failure, {@link #caughtUpPosition}), and records
 * replayed = position at the failure − the offsets the source committed for the checkpoint the kill follows, the
 * one the job restores (both checkpoint ids are recorded; should the job restore another, the replay is unknown:
 * -1).
 */
final class FailureInjection {
    private static final long POLL_MS = 20;
    /** The source commits a checkpoint's offsets when notified of its completion: time for that to land. */
    static final long COMMIT_SETTLE_MS = 200;
    /** Room for the harness's last reads and the kill before the next checkpoint may start. */
    static final long KILL_MARGIN_MS = 50;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final FlinkCluster cluster;
    private final ClusterJob job;
    private final CellSpec spec;
    private final Path positions;
    private final TaskManagerCpu cpu;
    /** When the restarted sources were first seen reading (System.nanoTime), -1 until then. */
    private long firstReadAt = -1;
    /** The same moment in ms since the epoch, for the phases against Flink's timestamps. */
    private long firstReadAtMillis = -1;

    FailureInjection(FlinkCluster cluster, ClusterJob job, CellSpec spec, Path positions, TaskManagerCpu cpu) {
        this.cluster = cluster;
        this.job = job;
        this.spec = spec;
        this.positions = positions;
        this.cpu = cpu;
    }

    void run(Properties result) throws Exception {
        long target = (long) Math.ceil(spec.failAtFraction() * spec.events());
        long minPause = job.checkpointMinPauseMillis();
        if (minPause != RecoveryCell.CHECKPOINT_MIN_PAUSE_MS) {
            throw new IllegalStateException("the job's checkpoint min-pause is " + minPause + " ms, not the "
                    + RecoveryCell.CHECKPOINT_MIN_PAUSE_MS + " ms the kill trigger relies on");
        }
        KillTrigger trigger = new KillTrigger(target, spec.events(), COMMIT_SETTLE_MS, minPause, KILL_MARGIN_MS);
        FlinkProcess victim = null;
        List<ClusterJob.Subtask> attempts = null;
        KillTrigger.Observation fired;
        long position;
        while (true) {
            KillTrigger.Observation seen = observe();
            KillTrigger.Decision decision = trigger.decide(seen);
            if (decision.action() == KillTrigger.Action.FAIL) {
                throw new IllegalStateException("no kill: " + decision.reason());
            }
            if (victim == null && seen.position() >= target) {
                // Read once, ahead of the kill window: neither changes until the kill.
                victim = victim();
                attempts = job.subtasks();
            }
            if (decision.action() == KillTrigger.Action.FIRE) {
                position = SourcePositions.read(positions, 0);
                if (position >= seen.position() && trigger.stillInWindow(System.currentTimeMillis(), seen)) {
                    fired = seen;
                    break;
                }
            }
            Thread.sleep(POLL_MS);
        }
        cpu.stop(victim);
        long failedAt = System.nanoTime();
        long killedAtMillis = System.currentTimeMillis();
        victim.kill();
        // Read after the kill, not in the kill window: the dead attempts commit nothing more, the restarted ones
        // only at their first checkpoint, seconds later.
        long committed;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers()))) {
            committed = committed(admin);
        }
        long noticedAt = awaitNoticed(attempts);
        long restartedAt = awaitRestart(attempts);
        // Splits the restart into the tasks' deployment, set-up (state, clients, classes) and start, per task.
        result.setProperty("restartByTask", job.taskStateTimes(killedAtMillis));
        long caughtUpAt = awaitCaughtUp(position, failedAt);
        long caughtUpAtMillis = System.currentTimeMillis();
        result.setProperty("recoveryPhasesMs", phases(killedAtMillis, caughtUpAtMillis));
        result.setProperty("openStepsMs", openSteps(victim));
        long restoredCheckpoint = job.checkpoints().restored();
        long lastCheckpoint = fired.latestCompleted();
        result.setProperty("killedTaskManager", victim.name());
        result.setProperty("failurePosition", Long.toString(position));
        result.setProperty("failureCommitted", Long.toString(committed));
        result.setProperty("recordsReplayed", Long.toString(
                restoredCheckpoint == lastCheckpoint ? Math.max(0, position - committed) : -1));
        result.setProperty("checkpointAtFailure", Long.toString(lastCheckpoint));
        result.setProperty("restoredCheckpoint", Long.toString(restoredCheckpoint));
        result.setProperty("killAfterCheckpointMillis",
                Long.toString(killedAtMillis - fired.latestCompletedEndMillis()));
        result.setProperty("noticedSeconds", Double.toString((noticedAt - failedAt) / 1e9));
        result.setProperty("restartSeconds", Double.toString((restartedAt - failedAt) / 1e9));
        result.setProperty("recoverySeconds", Double.toString((caughtUpAt - failedAt) / 1e9));
        // Between restart and caught up: the restarted sources' first record (set-up of the new attempts: state,
        // clients, classes) against the rest (reading the replay and catching up).
        result.setProperty("firstReadSeconds", Double.toString(((firstReadAt < 0 ? caughtUpAt : firstReadAt)
                - failedAt) / 1e9));
    }

    /** Records when the restarted sources first read a record; returns their position. */
    private long restartedPosition() {
        long read = SourcePositions.read(positions, 1);
        if (read > 0 && firstReadAt < 0) {
            firstReadAt = System.nanoTime();
            firstReadAtMillis = System.currentTimeMillis();
        }
        return read;
    }

    /**
     * The recovery's {@link RecoveryPhases}, or why there are none (no failure recorded): a missing breakdown never
     * fails the cell.
     */
    private String phases(long killedAtMillis, long caughtUpAtMillis) {
        ClusterJob.Failure failure = job.failureSince(killedAtMillis);
        if (failure == null) {
            return "unavailable: the job manager recorded no failure after the kill";
        }
        long[] attempts = job.attemptStateTimes();
        long firstRead = firstReadAtMillis < 0 ? caughtUpAtMillis : firstReadAtMillis;
        return RecoveryPhases.of(new RecoveryPhases.Timeline(killedAtMillis, failure.timestamp(), failure.text(),
                attempts[0], attempts[1], attempts[2], attempts[3], firstRead, caughtUpAtMillis)).toString();
    }

    /** The spare TaskManager's log cut into the open phase's {@link OpenSteps}, or why not. */
    private String openSteps(FlinkProcess victim) throws java.io.IOException {
        for (FlinkProcess taskManager : cluster.taskManagers()) {
            if (taskManager != victim) {
                OpenSteps steps = OpenSteps.of(java.nio.file.Files.readAllLines(taskManager.log()));
                return steps == null ? "unavailable: no task initialized in " + taskManager.name() : steps.toString();
            }
        }
        return "unavailable: no spare TaskManager";
    }

    private KillTrigger.Observation observe() {
        long now = System.currentTimeMillis();
        long position = SourcePositions.read(positions, 0);
        String state = job.state();
        ClusterJob.Checkpoints checkpoints = job.checkpoints();
        return new KillTrigger.Observation(now, position, ClusterJob.terminal(state), state, checkpoints.latestCompleted(),
                checkpoints.latestCompletedEndMillis(), checkpoints.inProgress());
    }

    /**
     * The TaskManager running the job's tasks; the cell's cluster has two, one of them a spare with every slot
     * free, and a job spread over both would leave no spare: that cell fails rather than recover differently.
     */
    private FlinkProcess victim() {
        List<FlinkProcess> busy = cluster.taskManagersRunningTasks();
        if (busy.size() != 1) {
            throw new IllegalStateException("the job's slots are on " + busy + ", not on one TaskManager with the"
                    + " other one spare");
        }
        return busy.get(0);
    }

    /**
     * Waits until the job manager has noticed the lost TaskManager: a task of the killed attempts no longer
     * RUNNING (failed, cancelled, or a new attempt); returns when.
     */
    private long awaitNoticed(List<ClusterJob.Subtask> before) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            List<ClusterJob.Subtask> now = job.subtasks();
            for (int i = 0; i < Math.min(now.size(), before.size()); i++) {
                if (now.get(i).attempt() != before.get(i).attempt() || !now.get(i).state().equals("RUNNING")) {
                    return System.nanoTime();
                }
            }
            Thread.sleep(POLL_MS / 4);
        }
        throw new IllegalStateException("the job manager did not notice the killed TaskManager within " + TIMEOUT);
    }

    /** Waits until every task runs (or has finished) in an attempt after {@code before}'s; returns when. */
    private long awaitRestart(List<ClusterJob.Subtask> before) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (job.ended()) {
                throw new IllegalStateException("the job ended (" + job.state() + ") instead of restarting");
            }
            restartedPosition();
            List<ClusterJob.Subtask> now = job.subtasks();
            boolean restarted = now.size() == before.size();
            for (int i = 0; restarted && i < now.size(); i++) {
                restarted = now.get(i).attempt() > before.get(i).attempt() && now.get(i).runningOrFinished();
            }
            if (restarted) {
                return System.nanoTime();
            }
            Thread.sleep(POLL_MS / 4);
        }
        throw new IllegalStateException("the job did not restart within " + TIMEOUT);
    }

    /** Waits until the restarted sources are caught up ({@link #caughtUpPosition}) or the job finished; returns when. */
    private long awaitCaughtUp(long position, long failedAt) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            long now = System.nanoTime();
            long target = caughtUpPosition(position, now - failedAt, spec.rate(), spec.events());
            if (restartedPosition() >= target || job.ended()) {
                return now;
            }
            if (now > deadline) {
                throw new IllegalStateException("the restarted sources had not read " + target + " events " + TIMEOUT
                        + " after the kill");
            }
            Thread.sleep(POLL_MS / 4);
        }
    }

    /**
     * The position the restarted sources are caught up at, {@code sinceKillNanos} after the kill: from a filled topic
     * ({@code rate} 0), the failure position; at a fixed input rate, where they would be without the failure (the
     * live input's head as they trailed it at the kill): the failure position plus the events the fill has written
     * since, at most the input. A faster job has more room to catch up at the same rate; a bounded full-speed run
     * has none, its catch-up only replays.
     */
    static long caughtUpPosition(long failurePosition, long sinceKillNanos, double rate, long events) {
        if (rate <= 0) {
            return failurePosition;
        }
        return Math.min(events, failurePosition + (long) (rate * sinceKillNanos / 1e9));
    }

    /** Sum over partitions of the offsets the source's consumer group committed for completed checkpoints. */
    private long committed(Admin admin) throws Exception {
        Map<?, OffsetAndMetadata> offsets =
                admin.listConsumerGroupOffsets(spec.runId()).partitionsToOffsetAndMetadata().get();
        return offsets.values().stream().filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
    }
}
