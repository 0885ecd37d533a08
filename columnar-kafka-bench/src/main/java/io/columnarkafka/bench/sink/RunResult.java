package io.columnarkafka.bench.sink;

import java.util.Properties;

/**
 * What one run measured (from the child's result file) and what the topic held afterwards (read back
 * read_committed by the driver).
 *
 * @param activeSeconds first record sent to last record acknowledged, or NaN if not measured
 * @param checkpoints completed checkpoints (for (d): commits)
 * @param checkpointMinMs end-to-end durations from Flink's checkpoint stats (for (d): commit durations)
 * @param verdict the verifier's verdict; {@code exactlyOnce} whether every expected row is there once
 */
record RunResult(
        RunSpec spec,
        double wallSeconds,
        double activeSeconds,
        long checkpoints,
        long checkpointsFailed,
        long checkpointMinMs,
        long checkpointAvgMs,
        long checkpointMaxMs,
        long committedRecords,
        long duplicates,
        long missing,
        boolean exactlyOnce,
        String verdict) {

    static RunResult of(RunSpec spec, Properties measured, long committedRecords, long duplicates, long missing,
                        boolean exactlyOnce, String verdict) {
        return new RunResult(
                spec,
                Double.parseDouble(measured.getProperty("wallSeconds")),
                Double.parseDouble(measured.getProperty("activeSeconds", "NaN")),
                Long.parseLong(measured.getProperty("checkpoints")),
                Long.parseLong(measured.getProperty("checkpointsFailed")),
                Long.parseLong(measured.getProperty("checkpointMinMs")),
                Long.parseLong(measured.getProperty("checkpointAvgMs")),
                Long.parseLong(measured.getProperty("checkpointMaxMs")),
                committedRecords, duplicates, missing, exactlyOnce, verdict);
    }

    double recordsPerSecond() {
        return spec.rows() / wallSeconds;
    }

    double activeRecordsPerSecond() {
        return spec.rows() / activeSeconds;
    }
}
