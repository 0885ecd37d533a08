package io.columnarkafka.bench.sink;

import java.util.Properties;

/**
 * What one run measured (from the child's result file) and what the topic held afterwards (read back
 * read_committed by the driver).
 *
 * @param activeSeconds first record sent to last record acknowledged, or NaN if not measured
 * @param cpuSeconds CPU time of the run's JVM over the job (all its threads)
 * @param brokerCpuSeconds CPU time of the broker JVM over the run's whole JVM lifetime
 * @param checkpoints completed checkpoints (for (d): commits)
 * @param checkpointMinMs end-to-end durations from Flink's checkpoint stats (for (d): commit durations)
 * @param checkpointFailures distinct failure messages of the failed checkpoints Flink's history still holds
 * @param verdict the verifier's verdict; {@code exactlyOnce} whether every expected row is there once
 */
record RunResult(
        RunSpec spec,
        double wallSeconds,
        double activeSeconds,
        double cpuSeconds,
        double brokerCpuSeconds,
        long checkpoints,
        long checkpointsFailed,
        long checkpointMinMs,
        long checkpointAvgMs,
        long checkpointMaxMs,
        String checkpointFailures,
        long committedRecords,
        long duplicates,
        long missing,
        boolean exactlyOnce,
        String verdict) {

    static RunResult of(RunSpec spec, Properties measured, double brokerCpuSeconds, long committedRecords, long duplicates, long missing,
                        boolean exactlyOnce, String verdict) {
        return new RunResult(
                spec,
                Double.parseDouble(measured.getProperty("wallSeconds")),
                Double.parseDouble(measured.getProperty("activeSeconds", "NaN")),
                Double.parseDouble(measured.getProperty("cpuSeconds")),
                brokerCpuSeconds,
                Long.parseLong(measured.getProperty("checkpoints")),
                Long.parseLong(measured.getProperty("checkpointsFailed")),
                Long.parseLong(measured.getProperty("checkpointMinMs")),
                Long.parseLong(measured.getProperty("checkpointAvgMs")),
                Long.parseLong(measured.getProperty("checkpointMaxMs")),
                measured.getProperty("checkpointFailures", ""),
                committedRecords, duplicates, missing, exactlyOnce, verdict);
    }

    double recordsPerSecond() {
        return spec.rows() / wallSeconds;
    }

    double cpuMicrosPerRecord() {
        return cpuSeconds * 1e6 / spec.rows();
    }

    double brokerCpuMicrosPerRecord() {
        return brokerCpuSeconds * 1e6 / spec.rows();
    }

    double activeRecordsPerSecond() {
        return spec.rows() / activeSeconds;
    }
}
