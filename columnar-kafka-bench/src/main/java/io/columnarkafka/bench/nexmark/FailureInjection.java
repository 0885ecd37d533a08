package io.columnarkafka.bench.nexmark;

import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.flink.FlinkProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * A recovery cell's one failure, triggered by the job's progress, not by wall time: once the sources have read
 * {@code failAtFraction} of the input ({@link SourcePositions}) and a checkpoint has completed, at the next moment
 * with no checkpoint in flight, the TaskManager process running the job's tasks is killed with {@code SIGKILL}
 * (no shutdown of any kind; every task of the job is lost with it) and the job restarts on the cluster's spare
 * TaskManager ({@link RecoveryCell}). The position trigger puts the failure at the same share of the input on a
 * fast and a slow machine, for stock and columnar alike.
 *
 * <p>Measured: noticed (the kill to the job manager failing the job's tasks: its heartbeat RPCs to the dead process
 * fail, see {@link RecoveryCell}), restart (the kill to every task running again in a new attempt: Flink's region failover restarts
 * the tasks without the job leaving RUNNING, so the job status cannot tell), caught up (the kill to the new
 * attempts' sources having read past the failure position again, or the job having finished), and records
 * replayed = position at the failure − the offsets the source committed for the last completed checkpoint, the
 * checkpoint the job restores (both checkpoint ids are recorded; if a checkpoint still completed just before the
 * kill and the job restored that one, the replay is unknown: -1).
 */
final class FailureInjection {
    private static final long POLL_MS = 20;
    /** The source commits a checkpoint's offsets when notified of its completion: time for that to land. */
    private static final long COMMIT_SETTLE_MS = 200;
    /** How long, in checkpoint intervals, the trigger waits for a moment with no checkpoint in flight. */
    private static final long QUIET_WAIT_INTERVALS = 3;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final FlinkCluster cluster;
    private final ClusterJob job;
    private final CellSpec spec;
    private final Path positions;
    private final TaskManagerCpu cpu;

    FailureInjection(FlinkCluster cluster, ClusterJob job, CellSpec spec, Path positions, TaskManagerCpu cpu) {
        this.cluster = cluster;
        this.job = job;
        this.spec = spec;
        this.positions = positions;
        this.cpu = cpu;
    }

    void run(Properties result) throws Exception {
        long target = (long) Math.ceil(spec.failAtFraction() * spec.events());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers()))) {
            long lastCheckpoint;
            long committed;
            long position;
            FlinkProcess victim;
            List<ClusterJob.Subtask> attempts;
            do {
                lastCheckpoint = awaitTrigger(target);
                victim = victim();
                committed = committed(admin);
                attempts = job.subtasks();
                position = SourcePositions.read(positions, 0);
                // A checkpoint completed, or started and could complete before the kill, while these were read:
                // its offsets may not be the ones read.
            } while (!stillQuiet(lastCheckpoint));
            cpu.stop(victim);
            long failedAt = System.nanoTime();
            victim.kill();
            long noticedAt = awaitNoticed(attempts);
            long restartedAt = awaitRestart(attempts);
            long caughtUpAt = awaitCaughtUp(position);
            long restoredCheckpoint = job.checkpoints().restored();
            result.setProperty("killedTaskManager", victim.name());
            result.setProperty("failurePosition", Long.toString(position));
            result.setProperty("failureCommitted", Long.toString(committed));
            // Restored from a checkpoint completed just before the kill: its offsets are unknown here.
            result.setProperty("recordsReplayed", Long.toString(
                    restoredCheckpoint == lastCheckpoint ? Math.max(0, position - committed) : -1));
            result.setProperty("checkpointAtFailure", Long.toString(lastCheckpoint));
            result.setProperty("restoredCheckpoint", Long.toString(restoredCheckpoint));
            result.setProperty("noticedSeconds", Double.toString((noticedAt - failedAt) / 1e9));
            result.setProperty("restartSeconds", Double.toString((restartedAt - failedAt) / 1e9));
            result.setProperty("recoverySeconds", Double.toString((caughtUpAt - failedAt) / 1e9));
        }
    }

    /**
     * Waits until the sources have read {@code target} events and a checkpoint has completed, then for a quiet
     * moment: no checkpoint in flight (one in flight could complete just before the kill, and the restart would
     * restore offsets not read here) and the latest completed checkpoint's offsets have had time to be committed.
     * A job whose checkpoints take longer than the interval has no quiet moment: after {@link
     * #QUIET_WAIT_INTERVALS} checkpoint intervals it fails anyway (its replay may then be unknown). Returns the
     * latest completed checkpoint's id.
     */
    private long awaitTrigger(long target) throws Exception {
        long reachedAt = -1;
        long read = 0;
        long checkpoint = -1;
        while (true) {
            if (job.ended()) {
                throw new IllegalStateException(String.format(Locale.ROOT, "the job ended (%s) before its sources had"
                        + " read %,d of %,d events with a checkpoint completed and then a quiet moment (seen: at most"
                        + " %,d read, checkpoint %d; a finished source's position is gone): the input is too small for"
                        + " a failure mid-run, use more --events", job.state(), target, spec.events(), read,
                        checkpoint));
            }
            ClusterJob.Checkpoints checkpoints = job.checkpoints();
            long current = SourcePositions.read(positions, 0);
            read = Math.max(read, current);
            checkpoint = checkpoints.latestCompleted();
            if (checkpoint >= 0 && current >= target) {
                long now = System.currentTimeMillis();
                reachedAt = reachedAt < 0 ? now : reachedAt;
                boolean quiet = checkpoints.inProgress() == 0
                        && now - checkpoints.latestCompletedEndMillis() >= COMMIT_SETTLE_MS;
                if (quiet || now - reachedAt >= QUIET_WAIT_INTERVALS * spec.checkpointIntervalMs()) {
                    return checkpoints.latestCompleted();
                }
            }
            Thread.sleep(POLL_MS);
        }
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

    /** Whether {@code lastCheckpoint} is still the latest completed one and no checkpoint is in flight. */
    private boolean stillQuiet(long lastCheckpoint) {
        ClusterJob.Checkpoints now = job.checkpoints();
        return now.latestCompleted() == lastCheckpoint && now.inProgress() == 0;
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

    /** Waits until the restarted sources have read {@code position} events again (or the job finished). */
    private long awaitCaughtUp(long position) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (SourcePositions.read(positions, 1) >= position || job.ended()) {
                return System.nanoTime();
            }
            Thread.sleep(POLL_MS / 4);
        }
        throw new IllegalStateException("the restarted sources did not read " + position + " events within " + TIMEOUT);
    }

    /** Sum over partitions of the offsets the source's consumer group committed for completed checkpoints. */
    private long committed(Admin admin) throws Exception {
        Map<?, OffsetAndMetadata> offsets =
                admin.listConsumerGroupOffsets(spec.runId()).partitionsToOffsetAndMetadata().get();
        return offsets.values().stream().filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
    }
}
