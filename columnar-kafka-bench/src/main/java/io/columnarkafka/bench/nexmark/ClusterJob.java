package io.columnarkafka.bench.nexmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.columnarkafka.testkit.flink.FlinkCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A job on a {@link FlinkCluster} as its REST API shows it (the cluster is configured so the answers are at most
 * 50 ms old, {@link RecoveryCell}): the job's state and status timestamps, every subtask's attempt number and
 * state, and the checkpoint statistics.
 */
final class ClusterJob {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FlinkCluster cluster;
    private final String id;

    ClusterJob(FlinkCluster cluster, String id) {
        this.cluster = cluster;
        this.id = id;
    }

    /** One subtask's current attempt. */
    record Subtask(int attempt, String state) {
        boolean runningOrFinished() {
            return state.equals("RUNNING") || state.equals("FINISHED");
        }
    }

    /** The checkpoint statistics the failure trigger needs; ids -1 where there is none. */
    record Checkpoints(long latestCompleted, long latestCompletedEndMillis, int inProgress, long restored) {}

    JsonNode details() {
        return get("/jobs/" + id);
    }

    /** Whether the job has reached a globally terminal state (FINISHED, FAILED, CANCELED). */
    boolean ended() {
        return terminal(state());
    }

    static boolean terminal(String state) {
        return state.equals("FINISHED") || state.equals("FAILED") || state.equals("CANCELED");
    }

    String state() {
        return details().path("state").asText();
    }

    /** Every subtask of every vertex, in the job's vertex order. */
    List<Subtask> subtasks() {
        List<Subtask> subtasks = new ArrayList<>();
        for (JsonNode vertex : details().path("vertices")) {
            for (JsonNode subtask : get("/jobs/" + id + "/vertices/" + vertex.path("id").asText()).path("subtasks")) {
                subtasks.add(new Subtask(subtask.path("attempt").asInt(), subtask.path("status").asText()));
            }
        }
        return subtasks;
    }

    /** Waits until every subtask runs (a fixed-rate cell's signal to start the live fill); fails if the job ends. */
    void awaitAllRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Subtask> now = subtasks();
            if (!now.isEmpty() && now.stream().allMatch(s -> s.state().equals("RUNNING"))) {
                return;
            }
            if (ended()) {
                throw new IllegalStateException("the job ended (" + state() + ") before every task ran");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the job's tasks were not all running after " + timeout);
            }
            Thread.sleep(20);
        }
    }

    Checkpoints checkpoints() {
        JsonNode stats = get("/jobs/" + id + "/checkpoints");
        JsonNode completed = stats.path("latest").path("completed");
        JsonNode restored = stats.path("latest").path("restored");
        return new Checkpoints(completed.path("id").asLong(-1),
                completed.path("trigger_timestamp").asLong() + completed.path("end_to_end_duration").asLong(),
                stats.path("counts").path("in_progress").asInt(),
                restored.path("id").asLong(-1));
    }

    /**
     * Per task (vertex), when its subtasks' current attempts last entered DEPLOYING, INITIALIZING and RUNNING, in
     * seconds after {@code sinceMillis} (the latest over the subtasks: when the whole task got there), e.g. {@code
     * Source: nexmark[4] deploying 9.81 initializing 10.02 running 14.37}; tasks separated by {@code " | "}.
     */
    String taskStateTimes(long sinceMillis) {
        List<String> tasks = new ArrayList<>();
        for (JsonNode vertex : details().path("vertices")) {
            JsonNode times = get("/jobs/" + id + "/vertices/" + vertex.path("id").asText() + "/subtasktimes");
            StringBuilder task = new StringBuilder(vertex.path("name").asText());
            for (String state : List.of("DEPLOYING", "INITIALIZING", "RUNNING")) {
                long latest = -1;
                for (JsonNode subtask : times.path("subtasks")) {
                    latest = Math.max(latest, subtask.path("timestamps").path(state).asLong(-1));
                }
                task.append(' ').append(state.toLowerCase(Locale.ROOT)).append(' ')
                        .append(latest < 0 ? "–" : String.format(Locale.ROOT, "%.2f",
                                (latest - sinceMillis) / 1e3));
            }
            tasks.add(task.toString());
        }
        return String.join(" | ", tasks);
    }

    /** A failure the job manager recorded: when (ms since the epoch) and its exception's text. */
    record Failure(long timestamp, String text) {}

    /**
     * The first failure the job manager recorded at or after {@code sinceMillis} (its exception history), or null
     * if none yet.
     */
    Failure failureSince(long sinceMillis) {
        Failure first = null;
        for (JsonNode entry : get("/jobs/" + id + "/exceptions").path("exceptionHistory").path("entries")) {
            long timestamp = entry.path("timestamp").asLong();
            if (timestamp >= sinceMillis && (first == null || timestamp < first.timestamp())) {
                first = new Failure(timestamp, entry.path("exceptionName").asText() + ": "
                        + entry.path("stacktrace").asText().lines().findFirst().orElse(""));
            }
        }
        return first;
    }

    /**
     * Over every subtask's current attempt: the first CREATED and the last DEPLOYING, INITIALIZING and RUNNING
     * timestamps (ms since the epoch; 0 for a state no subtask has reached).
     */
    long[] attemptStateTimes() {
        long firstCreated = Long.MAX_VALUE;
        long[] last = new long[3];
        List<String> states = List.of("DEPLOYING", "INITIALIZING", "RUNNING");
        for (JsonNode vertex : details().path("vertices")) {
            JsonNode times = get("/jobs/" + id + "/vertices/" + vertex.path("id").asText() + "/subtasktimes");
            for (JsonNode subtask : times.path("subtasks")) {
                JsonNode timestamps = subtask.path("timestamps");
                long created = timestamps.path("CREATED").asLong(0);
                if (created > 0) {
                    firstCreated = Math.min(firstCreated, created);
                }
                for (int i = 0; i < states.size(); i++) {
                    last[i] = Math.max(last[i], timestamps.path(states.get(i)).asLong(0));
                }
            }
        }
        return new long[] {firstCreated == Long.MAX_VALUE ? 0 : firstCreated, last[0], last[1], last[2]};
    }

    /** The job's state backend, as its checkpoint configuration shows it (Flink's name for it), null if none. */
    String stateBackendName() {
        JsonNode name = checkpointConfig().path("state_backend");
        return name.isMissingNode() ? null : name.asText();
    }

    /** The job's checkpoint min-pause, as its checkpoint configuration shows it. */
    long checkpointMinPauseMillis() {
        return checkpointConfig().path("min_pause").asLong(-1);
    }

    private JsonNode checkpointConfig() {
        return get("/jobs/" + id + "/checkpoints/config");
    }

    /** The completed checkpoints' durations and sizes, and the failed count, as {@link CheckpointFigures}. */
    CheckpointFigures checkpointFigures() {
        JsonNode stats = get("/jobs/" + id + "/checkpoints");
        List<JsonNode> completed = completed(stats);
        return CheckpointFigures.of(completed.stream().mapToLong(c -> c.path("end_to_end_duration").asLong()).toArray(),
                completed.stream().mapToLong(c -> c.path("state_size").asLong()).toArray(),
                stats.path("counts").path("failed").asLong());
    }

    /** The completed checkpoints of the REST API's checkpoint statistics' history, in its order. */
    private static List<JsonNode> completed(JsonNode stats) {
        List<JsonNode> completed = new ArrayList<>();
        for (JsonNode checkpoint : stats.path("history")) {
            if (checkpoint.path("status").asText().equals("COMPLETED")) {
                completed.add(checkpoint);
            }
        }
        return completed;
    }

    /**
     * Where the job's completed checkpoints spent their size and time, per vertex, from the REST API's checkpoint
     * details (the history the cluster keeps, {@link RecoveryCell}): the same figures as {@link
     * CheckpointByVertex#of(org.apache.flink.runtime.executiongraph.AccessExecutionGraph, long)} takes from a
     * MiniCluster's graph, over the checkpoints before and after the failure.
     */
    List<CheckpointByVertex> checkpointByVertex() {
        List<JsonNode> completed = completed(get("/jobs/" + id + "/checkpoints"));
        List<CheckpointByVertex> vertices = new ArrayList<>();
        for (JsonNode vertex : details().path("vertices")) {
            CheckpointByVertex.Samples samples = new CheckpointByVertex.Samples(completed.size());
            for (int i = 0; i < completed.size(); i++) {
                JsonNode checkpoint = completed.get(i);
                JsonNode task = get("/jobs/" + id + "/checkpoints/details/" + checkpoint.path("id").asLong()
                        + "/subtasks/" + vertex.path("id").asText());
                samples.size[i] = task.path("state_size").asLong();
                long trigger = checkpoint.path("trigger_timestamp").asLong();
                for (JsonNode subtask : task.path("subtasks")) {
                    if (subtask.path("status").asText().equals("completed")) {
                        samples.subtask(i, subtask.path("start_delay").asLong(),
                                subtask.path("checkpoint").path("sync").asLong(),
                                subtask.path("checkpoint").path("async").asLong(),
                                subtask.path("ack_timestamp").asLong() - trigger,
                                subtask.path("alignment").path("duration").asLong());
                    }
                }
            }
            vertices.add(samples.of(vertex.path("name").asText()));
        }
        return vertices;
    }

    /** When the job entered {@code status} (e.g. CREATED, FINISHED), ms since the epoch. */
    long timestamp(String status) {
        return details().path("timestamps").path(status).asLong();
    }

    private JsonNode get(String path) {
        try {
            return JSON.readTree(cluster.restGet(path));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse the REST answer for " + path, e);
        }
    }
}
