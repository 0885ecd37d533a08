package io.columnarkafka.bench.nexmark;

import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;

/** A job's completed checkpoints: end-to-end duration percentiles and state size. */
record CheckpointFigures(int completed, long failed, long p50Ms, long p99Ms, long maxMs, long sizeP50Bytes,
                         long sizeMaxBytes) {
    /** No checkpoint counted (a failed cell; a steady window not measured). */
    static final CheckpointFigures NONE = new CheckpointFigures(0, 0, 0, 0, 0, 0, 0);

    static CheckpointFigures of(CheckpointStatsSnapshot stats) {
        return of(stats, Long.MAX_VALUE);
    }

    /**
     * Of the periodic checkpoints triggered before {@code triggeredBeforeMillis} (epoch ms): a fixed-rate cell's
     * while its input flowed, without those of its wait for q12's last window and without its stop-with-savepoint.
     */
    static CheckpointFigures of(CheckpointStatsSnapshot stats, long triggeredBeforeMillis) {
        List<AbstractCheckpointStats> done = counted(stats, triggeredBeforeMillis);
        return of(done.stream().mapToLong(AbstractCheckpointStats::getEndToEndDuration).toArray(),
                done.stream().mapToLong(AbstractCheckpointStats::getStateSize).toArray(),
                stats.getCounts().getNumberOfFailedCheckpoints());
    }

    /**
     * Of the periodic checkpoints triggered in a bounded cell's steady window, from {@code fromMillis} to before
     * {@code toMillis} (epoch ms; the window of its steady-state rate, {@link io.columnarkafka.bench.SteadyFigures}):
     * two jobs running at different rates compared like for like, as an unbounded job runs. Over all of a bounded
     * job's checkpoints the first ones weigh in with what only a start costs (the exactly-once sink's first
     * transactional producers, each initialised at the transaction coordinator; code not yet compiled), and the more
     * so the fewer checkpoints the job had: a faster job has fewer.
     */
    static CheckpointFigures triggeredBetween(CheckpointStatsSnapshot stats, long fromMillis, long toMillis) {
        List<AbstractCheckpointStats> periodic = stats.getHistory().getCheckpoints().stream()
                .filter(c -> !c.getProperties().isSavepoint()).toList();
        long[] triggers = new long[periodic.size()];
        boolean[] completed = new boolean[periodic.size()];
        long[] durations = new long[periodic.size()];
        long[] sizes = new long[periodic.size()];
        for (int i = 0; i < periodic.size(); i++) {
            AbstractCheckpointStats c = periodic.get(i);
            triggers[i] = c.getTriggerTimestamp();
            completed[i] = c.getStatus() == CheckpointStatsStatus.COMPLETED;
            durations[i] = c.getEndToEndDuration();
            sizes[i] = c.getStateSize();
        }
        return triggeredBetween(triggers, completed, durations, sizes, fromMillis, toMillis);
    }

    /**
     * Of the checkpoints triggered in {@code [fromMillis, toMillis)}, given each one's trigger time, whether it
     * completed, its end-to-end duration and state size: the completed ones' figures, and as failed those that did
     * not complete (failed, or in progress at the job's end).
     */
    static CheckpointFigures triggeredBetween(long[] triggers, boolean[] completed, long[] durations, long[] sizes,
                                              long fromMillis, long toMillis) {
        long[] inDurations = new long[triggers.length];
        long[] inSizes = new long[triggers.length];
        int done = 0;
        int notDone = 0;
        for (int i = 0; i < triggers.length; i++) {
            if (triggers[i] < fromMillis || triggers[i] >= toMillis) {
                continue;
            }
            if (completed[i]) {
                inDurations[done] = durations[i];
                inSizes[done++] = sizes[i];
            } else {
                notDone++;
            }
        }
        return of(Arrays.copyOf(inDurations, done), Arrays.copyOf(inSizes, done), notDone);
    }

    /** The completed periodic checkpoints (no savepoint) triggered before {@code triggeredBeforeMillis}. */
    static List<AbstractCheckpointStats> counted(CheckpointStatsSnapshot stats, long triggeredBeforeMillis) {
        return stats.getHistory().getCheckpoints().stream()
                .filter(c -> c.getStatus() == CheckpointStatsStatus.COMPLETED && !c.getProperties().isSavepoint()
                        && c.getTriggerTimestamp() < triggeredBeforeMillis)
                .toList();
    }

    /** From the completed checkpoints' end-to-end durations (ms) and state sizes (bytes), in any order. */
    static CheckpointFigures of(long[] durations, long[] sizes, long failed) {
        long[] d = durations.clone();
        long[] s = sizes.clone();
        Arrays.sort(d);
        Arrays.sort(s);
        return new CheckpointFigures(d.length, failed, percentile(d, 50), percentile(d, 99), percentile(d, 100),
                percentile(s, 50), percentile(s, 100));
    }

    /** Nearest-rank percentile; 0 for no values. */
    static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    void store(Properties result) {
        store(result, "");
    }

    /** Under the keys {@link #load(Properties, String)} reads with the same prefix. */
    void store(Properties result, String prefix) {
        result.setProperty(key(prefix, "checkpoints"), Integer.toString(completed));
        result.setProperty(key(prefix, "checkpointsFailed"), Long.toString(failed));
        result.setProperty(key(prefix, "checkpointP50Ms"), Long.toString(p50Ms));
        result.setProperty(key(prefix, "checkpointP99Ms"), Long.toString(p99Ms));
        result.setProperty(key(prefix, "checkpointMaxMs"), Long.toString(maxMs));
        result.setProperty(key(prefix, "checkpointSizeP50Bytes"), Long.toString(sizeP50Bytes));
        result.setProperty(key(prefix, "checkpointSizeMaxBytes"), Long.toString(sizeMaxBytes));
    }

    static CheckpointFigures load(Properties p) {
        return load(p, "");
    }

    /**
     * The figures stored with {@code prefix} ({@code steady}: steadyCheckpoints, steadyCheckpointP50Ms, ...);
     * {@link #NONE} where none were (a result file from before they were measured).
     */
    static CheckpointFigures load(Properties p, String prefix) {
        if (p.getProperty(key(prefix, "checkpoints")) == null) {
            return NONE;
        }
        return new CheckpointFigures(Integer.parseInt(p.getProperty(key(prefix, "checkpoints"))),
                Long.parseLong(p.getProperty(key(prefix, "checkpointsFailed"))),
                Long.parseLong(p.getProperty(key(prefix, "checkpointP50Ms"))),
                Long.parseLong(p.getProperty(key(prefix, "checkpointP99Ms"))),
                Long.parseLong(p.getProperty(key(prefix, "checkpointMaxMs"))),
                Long.parseLong(p.getProperty(key(prefix, "checkpointSizeP50Bytes"))),
                Long.parseLong(p.getProperty(key(prefix, "checkpointSizeMaxBytes"))));
    }

    private static String key(String prefix, String name) {
        return prefix.isEmpty() ? name : prefix + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    @Override
    public String toString() {
        return String.format("%d checkpoints (p50/p99/max %d/%d/%d ms, size p50 %,d B)", completed, p50Ms, p99Ms,
                maxMs, sizeP50Bytes);
    }
}
