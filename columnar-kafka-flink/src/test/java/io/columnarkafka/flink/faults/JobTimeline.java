package io.columnarkafka.flink.faults;

import io.columnarkafka.testkit.flink.FlinkCluster;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the job manager saw of a job, sampled from its REST API with the job manager's own timestamps (epoch ms, the
 * same clock as the test's on one machine): each failure it recorded ({@code /exceptions}), each deployment of a
 * subtask with the times it entered DEPLOYING, INITIALIZING and RUNNING ({@code /subtasktimes}) and each completed
 * checkpoint with its trigger and last acknowledgement ({@code /checkpoints}). A fault test uses it to split a
 * recovery into its phases: detection, redeployment, task initialization (state restore and operator open), the wait
 * for the first checkpoint, and that checkpoint, after which the sink commits.
 */
final class JobTimeline implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long POLL_MILLIS = 100;

    private final FlinkCluster cluster;
    private final String jobId;
    private final Thread poller;
    private final TreeSet<Long> failures = new TreeSet<>();
    /** Key "vertex/subtask/deploying": {deploying, initializing, running} (0 = not yet). */
    private final Map<String, long[]> deployments = new TreeMap<>();
    /** Completed checkpoints by id: {trigger, latest acknowledgement}. */
    private final TreeMap<Long, long[]> checkpoints = new TreeMap<>();
    private volatile boolean closed;

    JobTimeline(FlinkCluster cluster, String jobId) {
        this.cluster = cluster;
        this.jobId = jobId;
        this.poller = new Thread(this::pollUntilClosed, "job-timeline-" + jobId);
        poller.setDaemon(true);
        poller.start();
    }

    /**
     * Waits up to {@code timeoutMillis} until the job has recovered from a fault at {@code faultMillis}: subtasks were
     * redeployed after it and a checkpoint triggered once they all ran has completed (its transactions are then
     * committed, and their records become visible to {@code read_committed} readers). The recovery's phases, complete
     * or as far as they got.
     */
    Recovery awaitRecovery(long faultMillis, long timeoutMillis) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        Recovery recovery = recovery(faultMillis, System.currentTimeMillis());
        while (recovery.checkpointCompleted() < 0 && System.currentTimeMillis() < deadline) {
            FaultJobs.sleep(java.time.Duration.ofMillis(POLL_MILLIS));
            recovery = recovery(faultMillis, System.currentTimeMillis());
        }
        return recovery;
    }

    /** The phases of the recovery from a fault at {@code faultMillis}, from what was seen until {@code untilMillis}. */
    synchronized Recovery recovery(long faultMillis, long untilMillis) {
        long detected = Optional.ofNullable(failures.ceiling(faultMillis)).orElse(-1L);
        long firstDeploying = Long.MAX_VALUE;
        long lastInitializing = -1;
        long lastRunning = -1;
        int redeployed = 0;
        for (long[] times : deployments.values()) {
            if (times[0] >= faultMillis && times[0] <= untilMillis) {
                redeployed++;
                firstDeploying = Math.min(firstDeploying, times[0]);
                lastInitializing = Math.max(lastInitializing, times[1]);
                lastRunning = Math.max(lastRunning, times[2]);
            }
        }
        long[] checkpoint = null;
        for (long[] times : checkpoints.values()) {
            if (times[0] >= lastRunning && lastRunning > 0) {
                checkpoint = times;
                break;
            }
        }
        return new Recovery(faultMillis, detected, redeployed,
                redeployed == 0 ? -1 : firstDeploying, lastInitializing, lastRunning,
                checkpoint == null ? -1 : checkpoint[0], checkpoint == null ? -1 : checkpoint[1]);
    }

    @Override
    public void close() {
        closed = true;
        try {
            poller.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void pollUntilClosed() {
        while (!closed) {
            try {
                poll();
            } catch (RuntimeException e) {
                // the job manager is busy or the job not yet known: no sample this time
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void poll() {
        JsonNode exceptions = get("/jobs/" + jobId + "/exceptions?maxExceptions=100");
        JsonNode job = get("/jobs/" + jobId);
        List<JsonNode> subtaskTimes = new ArrayList<>();
        for (JsonNode vertex : job.path("vertices")) {
            subtaskTimes.add(get("/jobs/" + jobId + "/vertices/" + vertex.path("id").asText() + "/subtasktimes"));
        }
        JsonNode history = get("/jobs/" + jobId + "/checkpoints").path("history");
        synchronized (this) {
            for (JsonNode entry : exceptions.path("exceptionHistory").path("entries")) {
                failures.add(entry.path("timestamp").asLong());
            }
            for (JsonNode vertex : subtaskTimes) {
                for (JsonNode subtask : vertex.path("subtasks")) {
                    JsonNode times = subtask.path("timestamps");
                    long deploying = times.path("DEPLOYING").asLong();
                    if (deploying > 0) {
                        deployments.put(vertex.path("id").asText() + "/" + subtask.path("subtask").asInt() + "/"
                                + deploying, new long[] {deploying, times.path("INITIALIZING").asLong(),
                                        times.path("RUNNING").asLong()});
                    }
                }
            }
            for (Iterator<JsonNode> it = history.elements(); it.hasNext(); ) {
                JsonNode checkpoint = it.next();
                if ("COMPLETED".equals(checkpoint.path("status").asText())) {
                    checkpoints.put(checkpoint.path("id").asLong(), new long[] {
                            checkpoint.path("trigger_timestamp").asLong(),
                            checkpoint.path("latest_ack_timestamp").asLong()});
                }
            }
        }
    }

    private JsonNode get(String path) {
        try {
            return JSON.readTree(cluster.restGet(path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The phases of one recovery, as epoch ms (-1 where the job manager reported nothing): the fault, the failure the
     * job manager recorded, the first redeployed subtask entering DEPLOYING, the last entering INITIALIZING and
     * RUNNING, and the first checkpoint triggered after that with its last acknowledgement (its commit follows).
     */
    record Recovery(long fault, long detected, int redeployed, long deploying, long initializing, long running,
                    long checkpointTriggered, long checkpointCompleted) {

        /** Whether the job manager recorded a failure and redeployed subtasks after the fault. */
        boolean restarted() {
            return detected >= 0 && redeployed > 0;
        }

        /** From the fault to the first checkpoint completed after the restore, or -1. */
        long total() {
            return span(fault, checkpointCompleted);
        }

        /** One line: each phase's duration in ms. */
        String describe() {
            return String.format("kill to first checkpoint after restore %d ms = detect %d + to deploy %d + deploy %d"
                            + " + init %d + await checkpoint %d + checkpoint %d (%d subtasks redeployed)",
                    total(), span(fault, detected), span(detected, deploying), span(deploying, initializing),
                    span(initializing, running), span(running, checkpointTriggered),
                    span(checkpointTriggered, checkpointCompleted), redeployed);
        }

        /** The columns of a results table row: total, detect, to deploy, deploy, init, await, checkpoint. */
        String columns() {
            return String.format("%d | %d | %d | %d | %d | %d | %d", total(), span(fault, detected),
                    span(detected, deploying), span(deploying, initializing), span(initializing, running),
                    span(running, checkpointTriggered), span(checkpointTriggered, checkpointCompleted));
        }

        private static long span(long from, long to) {
            return from < 0 || to < 0 ? -1 : to - from;
        }
    }
}
