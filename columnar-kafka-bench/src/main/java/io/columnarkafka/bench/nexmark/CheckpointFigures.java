package io.columnarkafka.bench.nexmark;

import java.util.List;
import java.util.Properties;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;

/** A job's completed checkpoints: end-to-end duration percentiles and state size. */
record CheckpointFigures(int completed, long failed, long p50Ms, long p99Ms, long maxMs, long sizeP50Bytes,
                         long sizeMaxBytes) {

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
        java.util.Arrays.sort(d);
        java.util.Arrays.sort(s);
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
        result.setProperty("checkpoints", Integer.toString(completed));
        result.setProperty("checkpointsFailed", Long.toString(failed));
        result.setProperty("checkpointP50Ms", Long.toString(p50Ms));
        result.setProperty("checkpointP99Ms", Long.toString(p99Ms));
        result.setProperty("checkpointMaxMs", Long.toString(maxMs));
        result.setProperty("checkpointSizeP50Bytes", Long.toString(sizeP50Bytes));
        result.setProperty("checkpointSizeMaxBytes", Long.toString(sizeMaxBytes));
    }

    static CheckpointFigures load(Properties p) {
        return new CheckpointFigures(Integer.parseInt(p.getProperty("checkpoints")),
                Long.parseLong(p.getProperty("checkpointsFailed")),
                Long.parseLong(p.getProperty("checkpointP50Ms")), Long.parseLong(p.getProperty("checkpointP99Ms")),
                Long.parseLong(p.getProperty("checkpointMaxMs")),
                Long.parseLong(p.getProperty("checkpointSizeP50Bytes")),
                Long.parseLong(p.getProperty("checkpointSizeMaxBytes")));
    }

    @Override
    public String toString() {
        return String.format("%d checkpoints (p50/p99/max %d/%d/%d ms, size p50 %,d B)", completed, p50Ms, p99Ms,
                maxMs, sizeP50Bytes);
    }
}
