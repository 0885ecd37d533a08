package io.columnarkafka.bench.nexmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.RestoredCheckpointStats;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * A recovery cell's one failure, triggered by the job's progress, not by wall time: once the sources have read
 * {@code failAtFraction} of the input ({@link SourcePositions}, live) and a checkpoint has completed, at the next
 * moment with no checkpoint in flight, the cell's only TaskManager is terminated (every task of the job fails;
 * in-process, the MiniCluster's TaskExecutor shut down, not a process kill) and a fresh one is started for the
 * restart. The position trigger puts the failure at the same share of the input on a fast and a slow machine, for
 * stock and columnar alike.
 *
 * <p>Measured: restart (failure to every task running again in a new attempt: Flink's region failover restarts
 * the tasks without the job leaving RUNNING, so the job status cannot tell), caught up (failure to the new
 * attempts' sources having read past the failure position again, or the job having finished), and records
 * replayed = position at the failure − the offsets the source committed for the last completed checkpoint, the
 * checkpoint the job restores (both checkpoint ids are recorded; if a checkpoint still completed during the
 * termination and the job restored that one, the replay is unknown: -1).
 */
final class FailureInjection {
    private static final long POLL_MS = 20;
    /** The source commits a checkpoint's offsets when notified of its completion: time for that to land. */
    private static final long COMMIT_SETTLE_MS = 200;
    /** How long, in checkpoint intervals, the trigger waits for a moment with no checkpoint in flight. */
    private static final long QUIET_WAIT_INTERVALS = 3;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final MiniCluster cluster;
    private final JobID job;
    private final CellSpec spec;

    FailureInjection(MiniCluster cluster, JobID job, CellSpec spec) {
        this.cluster = cluster;
        this.job = job;
        this.spec = spec;
    }

    void run(Properties result) throws Exception {
        long target = (long) Math.ceil(spec.failAtFraction() * spec.events());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers()))) {
            long lastCheckpoint;
            long committed;
            long position;
            List<Integer> attempts;
            do {
                lastCheckpoint = awaitTrigger(target).getCheckpointId();
                committed = committed(admin);
                attempts = attempts(graph());
                position = SourcePositions.read(0);
                // A checkpoint completed while these were read: its offsets may not be the ones read.
            } while (latestCompleted(graph()) != lastCheckpoint);
            long failedAt = System.nanoTime();
            cluster.terminateTaskManager(0).get();
            cluster.startTaskManager();
            long restartedAt = awaitRestart(attempts);
            long caughtUpAt = awaitCaughtUp(position);
            RestoredCheckpointStats restored = graph().getCheckpointStatsSnapshot().getLatestRestoredCheckpoint();
            long restoredCheckpoint = restored == null ? -1 : restored.getCheckpointId();
            result.setProperty("failurePosition", Long.toString(position));
            result.setProperty("failureCommitted", Long.toString(committed));
            // Restored from a checkpoint completed during the termination: its offsets are unknown here.
            result.setProperty("recordsReplayed", Long.toString(
                    restoredCheckpoint == lastCheckpoint ? Math.max(0, position - committed) : -1));
            result.setProperty("checkpointAtFailure", Long.toString(lastCheckpoint));
            result.setProperty("restoredCheckpoint", Long.toString(restoredCheckpoint));
            result.setProperty("restartSeconds", Double.toString((restartedAt - failedAt) / 1e9));
            result.setProperty("recoverySeconds", Double.toString((caughtUpAt - failedAt) / 1e9));
        }
    }

    /**
     * Waits until the sources have read {@code target} events and a checkpoint has completed, then for a quiet
     * moment: no checkpoint in flight (one in flight could complete while the TaskManager terminates, and the
     * restart would restore offsets not read here) and the latest completed checkpoint's offsets have had time to
     * be committed. A job whose checkpoints take longer than the interval has no quiet moment: after {@link
     * #QUIET_WAIT_INTERVALS} checkpoint intervals it fails anyway (its replay may then be unknown). Returns the
     * latest completed checkpoint.
     */
    private CompletedCheckpointStats awaitTrigger(long target) throws Exception {
        long reachedAt = -1;
        while (true) {
            AccessExecutionGraph graph = graph();
            if (graph.getState().isGloballyTerminalState()) {
                throw new IllegalStateException(String.format(Locale.ROOT, "the job ended (%s) before its sources had"
                        + " read %,d of %,d events with a checkpoint completed: the input is too small for a failure"
                        + " mid-run, use more --events", graph.getState(), target, spec.events()));
            }
            CompletedCheckpointStats last = latest(graph);
            if (last != null && SourcePositions.read(0) >= target) {
                long now = System.currentTimeMillis();
                reachedAt = reachedAt < 0 ? now : reachedAt;
                boolean quiet = graph.getCheckpointStatsSnapshot().getCounts().getNumberOfInProgressCheckpoints() == 0
                        && now - (last.getTriggerTimestamp() + last.getEndToEndDuration()) >= COMMIT_SETTLE_MS;
                if (quiet || now - reachedAt >= QUIET_WAIT_INTERVALS * spec.checkpointIntervalMs()) {
                    return last;
                }
            }
            Thread.sleep(POLL_MS);
        }
    }

    /** Waits until every task runs (or has finished) in an attempt after {@code before}; returns when. */
    private long awaitRestart(List<Integer> before) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            AccessExecutionGraph graph = graph();
            if (graph.getState().isGloballyTerminalState()) {
                throw new IllegalStateException("the job ended (" + graph.getState() + ") instead of restarting");
            }
            List<Integer> now = attempts(graph);
            boolean restarted = true;
            int i = 0;
            for (AccessExecutionVertex task : graph.getAllExecutionVertices()) {
                ExecutionState state = task.getExecutionState();
                restarted &= now.get(i) > before.get(i++)
                        && (state == ExecutionState.RUNNING || state == ExecutionState.FINISHED);
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
            if (SourcePositions.read(1) >= position || graph().getState().isGloballyTerminalState()) {
                return System.nanoTime();
            }
            Thread.sleep(POLL_MS / 4);
        }
        throw new IllegalStateException("the restarted sources did not read " + position + " events within " + TIMEOUT);
    }

    private static CompletedCheckpointStats latest(AccessExecutionGraph graph) {
        return graph.getCheckpointStatsSnapshot().getHistory().getLatestCompletedCheckpoint();
    }

    private static long latestCompleted(AccessExecutionGraph graph) {
        CompletedCheckpointStats latest = latest(graph);
        return latest == null ? -1 : latest.getCheckpointId();
    }

    /** Sum over partitions of the offsets the source's consumer group committed for completed checkpoints. */
    private long committed(Admin admin) throws Exception {
        Map<?, OffsetAndMetadata> offsets =
                admin.listConsumerGroupOffsets(spec.runId()).partitionsToOffsetAndMetadata().get();
        return offsets.values().stream().filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
    }

    private AccessExecutionGraph graph() throws Exception {
        return cluster.getExecutionGraph(job).get();
    }

    private static List<Integer> attempts(AccessExecutionGraph graph) {
        List<Integer> attempts = new ArrayList<>();
        for (AccessExecutionVertex task : graph.getAllExecutionVertices()) {
            attempts.add(task.getCurrentExecutionAttempt().getAttemptNumber());
        }
        return attempts;
    }
}
