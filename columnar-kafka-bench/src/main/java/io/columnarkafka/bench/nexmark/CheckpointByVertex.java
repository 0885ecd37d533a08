package io.columnarkafka.bench.nexmark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.SubtaskStateStats;
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionJobVertex;

/**
 * Where a job's checkpoints spend their size and time, per job vertex (task chain), from Flink's checkpoint
 * statistics: over the completed checkpoints, the p50 and the largest of the vertex's state size (its subtasks
 * summed; the largest depends least on when the checkpoints fell) and the p50 of its slowest subtask's start
 * delay (trigger to the barrier reaching the task), synchronous part, asynchronous part, acknowledgement
 * (trigger to ack) and alignment (first to last input's barrier). Which operator holds more state, and whether a slower checkpoint
 * waits for the task to take the barrier or for the snapshot itself, can then be read side by side for two
 * plans of the same query.
 */
record CheckpointByVertex(String vertex, long sizeP50Bytes, long sizeMaxBytes, long startDelayP50Ms, long syncP50Ms,
                          long asyncP50Ms, long ackP50Ms, long alignmentP50Ms) {
    private static final int NAME_LENGTH = 70;
    private static final Pattern FIGURE = Pattern.compile("(-?[0-9][0-9,]*) (?:B|ms)$");

    /** Over the checkpoints {@link CheckpointFigures#counted} counts. */
    static List<CheckpointByVertex> of(AccessExecutionGraph graph, long triggeredBeforeMillis) {
        List<AbstractCheckpointStats> done =
                CheckpointFigures.counted(graph.getCheckpointStatsSnapshot(), triggeredBeforeMillis);
        List<CheckpointByVertex> vertices = new ArrayList<>();
        for (AccessExecutionJobVertex vertex : graph.getVerticesTopologically()) {
            int n = done.size();
            long[] size = new long[n];
            long[] startDelay = new long[n];
            long[] sync = new long[n];
            long[] async = new long[n];
            long[] ack = new long[n];
            long[] alignment = new long[n];
            for (int i = 0; i < n; i++) {
                AbstractCheckpointStats checkpoint = done.get(i);
                TaskStateStats task = checkpoint.getTaskStateStats(vertex.getJobVertexId());
                size[i] = task.getStateSize();
                startDelay[i] = slowest(task, SubtaskStateStats::getCheckpointStartDelay);
                sync[i] = slowest(task, SubtaskStateStats::getSyncCheckpointDuration);
                async[i] = slowest(task, SubtaskStateStats::getAsyncCheckpointDuration);
                ack[i] = slowest(task, s -> s.getAckTimestamp() - checkpoint.getTriggerTimestamp());
                alignment[i] = slowest(task, SubtaskStateStats::getAlignmentDuration);
            }
            vertices.add(of(vertex.getName(), size, startDelay, sync, async, ack, alignment));
        }
        return vertices;
    }

    /**
     * A vertex's figures over its checkpoints, one array element per checkpoint: its state size (subtasks summed)
     * and its slowest subtask's start delay, synchronous and asynchronous part, acknowledgement and alignment, ms.
     */
    static CheckpointByVertex of(String name, long[] size, long[] startDelay, long[] sync, long[] async, long[] ack,
            long[] alignment) {
        return new CheckpointByVertex(shortName(name), p50(size), Arrays.stream(size).max().orElse(0),
                p50(startDelay), p50(sync), p50(async), p50(ack), p50(alignment));
    }

    private static long slowest(TaskStateStats task, ToLongFunction<SubtaskStateStats> figure) {
        return Arrays.stream(task.getSubtaskStats()).filter(s -> s != null)
                .mapToLong(figure).max().orElse(0);
    }

    private static long p50(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return CheckpointFigures.percentile(sorted, 50);
    }

    private static String shortName(String name) {
        String oneLine = name.replaceAll("\\s+", " ");
        return oneLine.length() <= NAME_LENGTH ? oneLine : oneLine.substring(0, NAME_LENGTH) + "...";
    }

    /**
     * One line per vertex, fields split by {@code " | "} (a {@code |} in a name becomes {@code /}); alignment is
     * the last field, so the older lines without it keep their field positions.
     */
    static String describe(List<CheckpointByVertex> vertices) {
        StringBuilder out = new StringBuilder();
        for (CheckpointByVertex v : vertices) {
            out.append(String.format(Locale.ROOT,
                    "%s | size p50 %,d B | size max %,d B | start delay %d ms | sync %d ms | async %d ms | ack %d ms"
                            + " | alignment %d ms%n",
                    v.vertex.replace('|', '/'), v.sizeP50Bytes, v.sizeMaxBytes, v.startDelayP50Ms, v.syncP50Ms,
                    v.asyncP50Ms, v.ackP50Ms, v.alignmentP50Ms));
        }
        return out.toString();
    }

    /** The vertices {@link #describe} wrote (a line without alignment, an older result's, reads it as 0). */
    static List<CheckpointByVertex> parse(String described) {
        List<CheckpointByVertex> vertices = new ArrayList<>();
        for (String line : described.lines().filter(l -> !l.isBlank()).toList()) {
            String[] f = line.split(" \\| ");
            vertices.add(new CheckpointByVertex(f[0], number(f[1]), number(f[2]), number(f[3]), number(f[4]),
                    number(f[5]), number(f[6]), f.length > 7 ? number(f[7]) : 0));
        }
        return vertices;
    }

    /** The field's figure: the number before its unit ({@code "size p50 2,018 B"} is 2018). */
    private static long number(String field) {
        Matcher figure = FIGURE.matcher(field);
        if (!figure.find()) {
            throw new IllegalArgumentException("no figure in " + field);
        }
        return Long.parseLong(figure.group(1).replace(",", ""));
    }
}
