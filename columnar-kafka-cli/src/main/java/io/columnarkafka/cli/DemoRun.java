package io.columnarkafka.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.checkpoint.FailedCheckpointStats;
import org.apache.flink.runtime.util.stats.StatsSummarySnapshot;

/**
 * What one job of the demo measured: wall time, the demo JVM's CPU time over the job (Flink's: the
 * embedded broker is a process of its own), its checkpoints, and the verifier's verdict on its topic.
 *
 * @param failedCheckpointReasons distinct failure messages of the failed checkpoints Flink's history holds
 */
record DemoRun(String label, long rows, double seconds, double cpuSeconds, long checkpointsCompleted,
               long checkpointsFailed, long checkpointMinMs, long checkpointAvgMs, double checkpointP99Ms,
               long checkpointMaxMs, List<String> failedCheckpointReasons, String verdict, boolean passed) {

    /** Messages of checkpoints the closing tasks of a finishing bounded job declined (harmless, see {@link #checkpointLine}). */
    private static final List<String> FINISHING = List.of("task is closing", "unknown task", "finished",
            "Checkpoint Coordinator is suspending", "not all required tasks are currently running");

    static DemoRun of(String label, long rows, double seconds, double cpuSeconds, CheckpointStatsSnapshot stats,
                      String verdict, boolean passed) {
        StatsSummarySnapshot duration = stats.getSummaryStats().getEndToEndDurationStats();
        List<String> reasons = stats.getHistory().getCheckpoints().stream()
                .filter(c -> c.getStatus() == CheckpointStatsStatus.FAILED)
                .map(c -> failureMessage((FailedCheckpointStats) c))
                .distinct()
                .toList();
        return new DemoRun(label, rows, seconds, cpuSeconds, stats.getCounts().getNumberOfCompletedCheckpoints(),
                stats.getCounts().getNumberOfFailedCheckpoints(), duration.getMinimum(), duration.getAverage(),
                duration.getQuantile(0.99), duration.getMaximum(), reasons, verdict, passed);
    }

    /** Flink's message for a failed checkpoint; some failures (e.g. an expired one) come without one. */
    private static String failureMessage(FailedCheckpointStats failed) {
        String message = failed.getFailureMessage();
        return message == null || message.isBlank() ? "(Flink gave no reason)" : message;
    }

    double recordsPerSecond() {
        return rows / seconds;
    }

    double cpuMicrosPerRecord() {
        return cpuSeconds * 1e6 / rows;
    }

    /**
     * The checkpoint counts and durations, and why any failed. A bounded job's subtasks finish one after
     * another; a checkpoint triggered in that window is declined by a task that is already closing (Flink
     * reports it as failed), and the job's last transactions are committed by the final checkpoint, so no
     * data is affected. Those are said to be that, any other failure is printed as Flink reports it.
     */
    String checkpointLine() {
        String line = String.format(Locale.ROOT, "checkpoints: %d completed, %d failed; end-to-end duration min %d ms,"
                + " avg %d ms, p99 %.0f ms, max %d ms", checkpointsCompleted, checkpointsFailed, checkpointMinMs,
                checkpointAvgMs, checkpointP99Ms, checkpointMaxMs);
        if (checkpointsFailed == 0) {
            return line;
        }
        boolean finishing = !failedCheckpointReasons.isEmpty()
                && failedCheckpointReasons.stream().allMatch(r -> FINISHING.stream().anyMatch(r::contains));
        return line + (finishing
                ? "\n  (the failed ones were triggered while the bounded job was finishing and were declined by"
                        + " tasks already closing (\"" + String.join("\", \"", failedCheckpointReasons)
                        + "\"); expected at the end of a bounded job: the final checkpoint commits the last"
                        + " transactions, and the verifier below checks every record)"
                : "\n  failed checkpoints: " + String.join(" | ", failedCheckpointReasons));
    }

    /** Both runs side by side, then their ratios. */
    static void printSideBySide(DemoRun columnar, DemoRun stock, PrintStream out) {
        String format = "  %-34s %-28s %s%n";
        out.println();
        out.printf(format, "", columnar.label, stock.label);
        out.printf(format, "records/s (job wall time)", rate(columnar), rate(stock));
        out.printf(format, "Flink JVM CPU per record", cpu(columnar), cpu(stock));
        out.printf(format, "checkpoints completed (failed)", checkpoints(columnar), checkpoints(stock));
        out.printf(format, "checkpoint e2e avg / p99 / max", durations(columnar), durations(stock));
        out.printf(format, "verifier (read_committed)", columnar.passed ? "OK" : "FAIL", stock.passed ? "OK" : "FAIL");
        out.printf(Locale.ROOT, "columnar / stock: %.2fx the records/s, %.2fx the Flink CPU per record"
                        + " (one run each, as measured now on this machine; bin/bench-sink repeats and pairs runs)%n",
                columnar.recordsPerSecond() / stock.recordsPerSecond(),
                columnar.cpuMicrosPerRecord() / stock.cpuMicrosPerRecord());
    }

    private static String rate(DemoRun r) {
        return String.format(Locale.ROOT, "%,.0f", r.recordsPerSecond());
    }

    private static String cpu(DemoRun r) {
        return String.format(Locale.ROOT, "%.2f µs", r.cpuMicrosPerRecord());
    }

    private static String checkpoints(DemoRun r) {
        return r.checkpointsCompleted + " (" + r.checkpointsFailed + ")";
    }

    private static String durations(DemoRun r) {
        return String.format(Locale.ROOT, "%d / %.0f / %d ms", r.checkpointAvgMs, r.checkpointP99Ms, r.checkpointMaxMs);
    }
}
