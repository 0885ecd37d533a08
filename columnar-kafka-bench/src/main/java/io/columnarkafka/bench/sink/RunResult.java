package io.columnarkafka.bench.sink;

import java.util.Properties;

/**
 * What one run measured (from the child's result file), what its topic held afterwards (read back
 * read_committed by the driver), and whether it passed.
 *
 * @param round 0 for the warm-up round, which is reported but not counted
 * @param failure why the run failed (the job, the verifier, the parity check, Arrow memory left, a SQL
 *     sink not admitted), or null if it passed; a failed run is reported as a FAIL row, never dropped
 * @param activeSeconds first record sent to last record acknowledged, or NaN if not measured
 * @param cpuSeconds CPU time of the run's JVM (Flink's, the broker is a process of its own) over the job
 * @param brokerCpuSeconds CPU time of the broker JVM over the run's whole JVM lifetime
 * @param checkpoints completed checkpoints (for (d): commits)
 * @param checkpointMinMs end-to-end durations from Flink's checkpoint stats (for (d): commit durations)
 * @param checkpointFailures distinct failure messages of the failed checkpoints Flink's history still holds
 * @param arrowBytesLeft Arrow memory still allocated in the run's JVM after the job, -1 if not measured
 * @param sinkOperator the SQL sink's operator name(s) (empty for the DataStream variants)
 * @param parityMismatches records whose bytes differ from Flink's JSON of their row (-1: not checked)
 * @param verdict the verifier's verdict, or why there is none
 */
record RunResult(
        RunSpec spec,
        int round,
        String failure,
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
        long arrowBytesLeft,
        String sinkOperator,
        long committedRecords,
        long duplicates,
        long missing,
        long parityMismatches,
        String verdict) {

    /** A run whose child JVM measured the job; {@code failure} is null if every check passed. */
    static RunResult measured(RunSpec spec, int round, String failure, Properties measured, double brokerCpuSeconds,
            RunVerifier.Outcome check) {
        return new RunResult(
                spec, round, failure,
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
                Long.parseLong(measured.getProperty("arrowBytesLeft", "-1")),
                measured.getProperty("sinkOperator", ""),
                check.committedRecords(), check.duplicates(), check.missing(), check.parityMismatches(),
                check.verdict());
    }

    /** A run that produced no measurements (its job or JVM failed). */
    static RunResult failed(RunSpec spec, int round, String failure) {
        return new RunResult(spec, round, failure, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0, 0, 0, 0, "",
                -1, "", 0, 0, 0, -1, "not verified: the run failed");
    }

    boolean ok() {
        return failure == null;
    }

    boolean warmUp() {
        return round == 0;
    }

    String status() {
        return ok() ? "OK" : "FAIL: " + failure;
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
