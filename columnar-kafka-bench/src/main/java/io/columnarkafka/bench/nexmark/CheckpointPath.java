package io.columnarkafka.bench.nexmark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.SubtaskStateStats;
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionJobVertex;

/**
 * Where a checkpoint's end-to-end time goes: a checkpoint completes when its last subtask acknowledges, so its
 * duration is that subtask's trigger-to-ack time, which Flink's statistics split into the start delay (trigger to
 * the barrier reaching the subtask: for a source, the trigger mail waiting in the task's mailbox behind the step
 * under way; downstream, the barrier's way through the channels), the alignment (first to last input's barrier),
 * the synchronous part (the operators' {@code snapshotState} only), the asynchronous part (writing the state) and
 * what is left, here "pre-barrier + rest": every operator's {@code prepareSnapshotPreBarrier} (Flink times it in no
 * part: the columnar encode operator's send of its open batch, {@code KafkaSink}'s producer flush waiting for the
 * acks of every record sent so far), the hand-over to the asynchronous thread and the ack's way to the coordinator.
 * Per fixed-rate cell, over its counted checkpoints ({@link CheckpointFigures#counted}), the p50 of each part of
 * the last-acking subtask and the job vertex (by topological position) that acknowledged last most often, with its
 * share: two variants' parts side by side say which one makes a difference.
 *
 * @param lastVertex topological position (0 = the sources' vertex) of the vertex that acknowledged last most often
 * @param lastShare the share of the checkpoints in which it did
 * @param restP50Ms p50 of ack − start delay − alignment − sync − async: pre-barrier work and hand-overs
 */
record CheckpointPath(int checkpoints, int lastVertex, double lastShare, long endToEndP50Ms, long startDelayP50Ms,
                      long alignmentP50Ms, long syncP50Ms, long asyncP50Ms, long restP50Ms) {
    static final CheckpointPath NONE = new CheckpointPath(0, -1, Double.NaN, 0, 0, 0, 0, 0, 0);

    static CheckpointPath of(AccessExecutionGraph graph, long triggeredBeforeMillis) {
        List<AbstractCheckpointStats> done =
                CheckpointFigures.counted(graph.getCheckpointStatsSnapshot(), triggeredBeforeMillis);
        List<AccessExecutionJobVertex> vertices = new ArrayList<>();
        graph.getVerticesTopologically().forEach(vertices::add);
        int n = done.size();
        long[][] parts = new long[6][n];
        int[] lastCounts = new int[vertices.size()];
        for (int i = 0; i < n; i++) {
            AbstractCheckpointStats checkpoint = done.get(i);
            SubtaskStateStats last = null;
            int lastIndex = -1;
            for (int v = 0; v < vertices.size(); v++) {
                TaskStateStats task = checkpoint.getTaskStateStats(vertices.get(v).getJobVertexId());
                for (SubtaskStateStats subtask : task.getSubtaskStats()) {
                    if (subtask != null && (last == null || subtask.getAckTimestamp() > last.getAckTimestamp())) {
                        last = subtask;
                        lastIndex = v;
                    }
                }
            }
            if (last == null) {
                continue;
            }
            lastCounts[lastIndex]++;
            long ack = last.getAckTimestamp() - checkpoint.getTriggerTimestamp();
            parts[0][i] = ack;
            parts[1][i] = last.getCheckpointStartDelay();
            parts[2][i] = last.getAlignmentDuration();
            parts[3][i] = last.getSyncCheckpointDuration();
            parts[4][i] = last.getAsyncCheckpointDuration();
            parts[5][i] = ack - parts[1][i] - Math.max(0, parts[2][i]) - parts[3][i] - parts[4][i];
        }
        if (n == 0) {
            return NONE;
        }
        int lastVertex = 0;
        for (int v = 1; v < lastCounts.length; v++) {
            if (lastCounts[v] > lastCounts[lastVertex]) {
                lastVertex = v;
            }
        }
        return new CheckpointPath(n, lastVertex, (double) lastCounts[lastVertex] / n, p50(parts[0]), p50(parts[1]),
                p50(parts[2]), p50(parts[3]), p50(parts[4]), p50(parts[5]));
    }

    private static long p50(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return CheckpointFigures.percentile(sorted, 50);
    }

    void store(Properties result) {
        result.setProperty("checkpointPath", String.format(Locale.ROOT, "%d %d %s %d %d %d %d %d %d", checkpoints,
                lastVertex, Double.toString(lastShare), endToEndP50Ms, startDelayP50Ms, alignmentP50Ms, syncP50Ms,
                asyncP50Ms, restP50Ms));
    }

    /** What {@link #store} wrote, or {@link #NONE} for a result without it. */
    static CheckpointPath load(Properties result) {
        String stored = result.getProperty("checkpointPath");
        if (stored == null) {
            return NONE;
        }
        String[] f = stored.split(" ");
        return new CheckpointPath(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Double.parseDouble(f[2]),
                Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]),
                Long.parseLong(f[7]), Long.parseLong(f[8]));
    }
}
