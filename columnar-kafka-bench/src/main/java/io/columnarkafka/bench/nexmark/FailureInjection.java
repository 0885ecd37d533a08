package io.columnarkafka.bench.nexmark;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A recovery run's one failure: once a completed checkpoint has committed {@code failAtFraction} of the
 * input (the source commits its offsets to the consumer group on every completed checkpoint), the cell's
 * TaskManager is terminated, which fails every task, and a fresh one is started for the restart.
 *
 * <p>Measured: the sources' read position at the failure (their Kafka {@code currentOffset} gauges, read
 * over the MiniCluster's REST API), the group's committed offsets then (where the restart resumes), and
 * the time from the failure until the restarted sources have read past the failure position again
 * ("caught up"). Records replayed = position at failure − committed offsets at failure.
 */
final class FailureInjection {
    private static final long POLL_MS = 50;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MiniCluster cluster;
    private final JobID job;
    private final CellSpec spec;
    private final HttpClient http = HttpClient.newHttpClient();
    private URI rest;

    FailureInjection(MiniCluster cluster, JobID job, CellSpec spec) {
        this.cluster = cluster;
        this.job = job;
        this.spec = spec;
    }

    void run(Properties result) throws Exception {
        rest = cluster.getRestAddress().get();
        long target = (long) (spec.failAtFraction() * spec.events());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers()))) {
            while (committed(admin) < target) {
                if (cluster.getJobStatus(job).get().isGloballyTerminalState()) {
                    throw new IllegalStateException("the job ended before " + target + " events were committed");
                }
                Thread.sleep(POLL_MS);
            }
            long position = position();
            long committed = committed(admin);
            long failedAt = System.nanoTime();
            cluster.terminateTaskManager(0).get();
            cluster.startTaskManager();
            long restartedAt = awaitRunningAgain();
            long caughtUpAt = awaitPosition(position);
            result.setProperty("failurePosition", Long.toString(position));
            result.setProperty("failureCommitted", Long.toString(committed));
            result.setProperty("recordsReplayed", Long.toString(Math.max(0, position - committed)));
            result.setProperty("restartSeconds", Double.toString((restartedAt - failedAt) / 1e9));
            result.setProperty("recoverySeconds", Double.toString((caughtUpAt - failedAt) / 1e9));
        }
    }

    /** Sum over partitions of the offsets the source's consumer group committed (checkpointed) so far. */
    private long committed(Admin admin) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets =
                admin.listConsumerGroupOffsets(spec.runId()).partitionsToOffsetAndMetadata().get();
        return offsets.values().stream().filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
    }

    /** Waits until the job runs again after the failure; returns when (System.nanoTime). */
    private long awaitRunningAgain() throws Exception {
        boolean left = false;
        while (true) {
            JobStatus status = cluster.getJobStatus(job).get();
            if (status.isGloballyTerminalState()) {
                throw new IllegalStateException("the job ended (" + status + ") instead of restarting");
            }
            left |= status != JobStatus.RUNNING;
            if (left && status == JobStatus.RUNNING && sourcesRunning()) {
                return System.nanoTime();
            }
            Thread.sleep(POLL_MS / 5);
        }
    }

    /** Waits until the sources have read {@code position} events again; returns when (System.nanoTime). */
    private long awaitPosition(long position) throws Exception {
        while (position() < position) {
            if (cluster.getJobStatus(job).get().isGloballyTerminalState()) {
                return System.nanoTime();
            }
            Thread.sleep(POLL_MS);
        }
        return System.nanoTime();
    }

    private boolean sourcesRunning() throws Exception {
        JsonNode vertex = sourceVertex();
        return vertex != null && "RUNNING".equals(vertex.path("status").asText());
    }

    /** Events the sources have emitted: per partition its current offset + 1 (the input has no gaps). */
    private long position() throws Exception {
        JsonNode vertex = sourceVertex();
        if (vertex == null) {
            return 0;
        }
        String base = "/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/subtasks/metrics";
        List<String> ids = new ArrayList<>();
        for (JsonNode metric : get(base)) {
            String id = metric.path("id").asText();
            if (id.contains("KafkaSourceReader.topic.") && id.endsWith(".currentOffset")) {
                ids.add(id);
            }
        }
        if (ids.isEmpty()) {
            return 0;
        }
        long sum = 0;
        String query = URLEncoder.encode(String.join(",", ids), StandardCharsets.UTF_8);
        for (JsonNode metric : get(base + "?agg=max&get=" + query)) {
            sum += Math.max(0, (long) metric.path("max").asDouble() + 1);
        }
        return sum;
    }

    private JsonNode sourceVertex() throws Exception {
        for (JsonNode vertex : get("/jobs/" + job).path("vertices")) {
            if (vertex.path("name").asText().startsWith("Source")) {
                return vertex;
            }
        }
        return null;
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(rest.resolve(path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }
}
