package io.columnarkafka.bench.nexmark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
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
            Samples samples = new Samples(done.size());
            for (int i = 0; i < done.size(); i++) {
                AbstractCheckpointStats checkpoint = done.get(i);
                TaskStateStats task = checkpoint.getTaskStateStats(vertex.getJobVertexId());
                samples.size[i] = task.getStateSize();
                for (SubtaskStateStats subtask : task.getSubtaskStats()) {
                    if (subtask != null) {
                        samples.subtask(i, subtask.getCheckpointStartDelay(), subtask.getSyncCheckpointDuration(),
                                subtask.getAsyncCheckpointDuration(),
                                subtask.getAckTimestamp() - checkpoint.getTriggerTimestamp(),
                                subtask.getAlignmentDuration());
                    }
                }
            }
            vertices.add(samples.of(vertex.getName()));
        }
        return vertices;
    }

    /**
     * One vertex's figures per checkpoint, filled checkpoint by checkpoint: its state size (subtasks summed) and its
     * slowest subtask's start delay, synchronous and asynchronous part, acknowledgement and alignment, ms.
     */
    static final class Samples {
        final long[] size;
        private final long[] startDelay;
        private final long[] sync;
        private final long[] async;
        private final long[] ack;
        private final long[] alignment;

        Samples(int checkpoints) {
            size = new long[checkpoints];
            startDelay = new long[checkpoints];
            sync = new long[checkpoints];
            async = new long[checkpoints];
            ack = new long[checkpoints];
            alignment = new long[checkpoints];
        }

        /** One subtask's figures in checkpoint {@code i}; the slowest subtask's count. */
        void subtask(int i, long startDelayMs, long syncMs, long asyncMs, long ackMs, long alignmentMs) {
            startDelay[i] = Math.max(startDelay[i], startDelayMs);
            sync[i] = Math.max(sync[i], syncMs);
            async[i] = Math.max(async[i], asyncMs);
            ack[i] = Math.max(ack[i], ackMs);
            alignment[i] = Math.max(alignment[i], alignmentMs);
        }

        /** The p50 of each figure over the checkpoints, and the largest size. */
        CheckpointByVertex of(String name) {
            return new CheckpointByVertex(shortName(name), p50(size), Arrays.stream(size).max().orElse(0),
                    p50(startDelay), p50(sync), p50(async), p50(ack), p50(alignment));
        }
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
