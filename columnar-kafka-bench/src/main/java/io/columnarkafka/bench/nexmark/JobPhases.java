package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.JobProgress;
import java.util.List;
import java.util.Properties;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;

/**
 * A plain cell's job time cut into phases, from Flink's own timestamps (job and task state changes, the final
 * checkpoint's trigger and last acknowledgement) and the 20 ms progress samples ({@link JobProgress}), to see which
 * part of a bounded job's "fixed" seconds each variant spends where. Milliseconds, each phase from the end of the one
 * before; they add up to the job time (RUNNING to FINISHED):
 *
 * <ol>
 *   <li>{@code deploy}: job RUNNING to the last task INITIALIZING (scheduling, deployment, task set-up);
 *   <li>{@code open}: to the last task RUNNING (state restore and operator open: the sink writer's producer and its
 *       transaction set-up, the source reader);
 *   <li>{@code firstRead}: to the first sample with input read (split discovery and assignment, the first fetch);
 *   <li>{@code read}: to the first sample with all input read;
 *   <li>{@code drain}: to the first sample with all output sent by the writers (decode, calc and encode of what the
 *       fetch queue still held);
 *   <li>{@code awaitCheckpoint}: to the final checkpoint's trigger (the tasks have ended their input and wait for
 *       the next periodic trigger, up to the interval);
 *   <li>{@code checkpoint}: to its last acknowledgement (barriers, the writers' flush, snapshots);
 *   <li>{@code finish}: to job FINISHED (commit of the transactions, tasks ending, the job's end).
 * </ol>
 *
 * A phase a sample straddles is off by up to the sampling interval; a negative phase means two events fell within
 * one interval or overlapped (e.g. a task running before another initialized), and is kept as measured.
 */
record JobPhases(long deploy, long open, long firstRead, long read, long drain, long awaitCheckpoint,
                 long checkpoint, long finish) {

    static JobPhases of(AccessExecutionGraph job, List<JobProgress.Sample> samples, long events) {
        long running = job.getStatusTimestamp(JobStatus.RUNNING);
        long initializing = 0;
        long tasksRunning = 0;
        for (AccessExecutionVertex task : job.getAllExecutionVertices()) {
            initializing = Math.max(initializing, task.getStateTimestamp(ExecutionState.INITIALIZING));
            tasksRunning = Math.max(tasksRunning, task.getStateTimestamp(ExecutionState.RUNNING));
        }
        long written = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).written();
        double firstRead = firstSample(samples, s -> s.read() > 0);
        double allRead = firstSample(samples, s -> s.read() >= events);
        double allWritten = firstSample(samples, s -> s.written() >= written);
        AbstractCheckpointStats last = job.getCheckpointStatsSnapshot().getHistory().getCheckpoints().stream()
                .filter(c -> c.getStatus() == CheckpointStatsStatus.COMPLETED)
                .max(java.util.Comparator.comparingLong(AbstractCheckpointStats::getTriggerTimestamp))
                .orElseThrow(() -> new IllegalStateException("no completed checkpoint"));
        long finished = job.getStatusTimestamp(JobStatus.FINISHED);
        return new JobPhases(initializing - running, tasksRunning - initializing,
                Math.round(firstRead - tasksRunning), Math.round(allRead - firstRead),
                Math.round(allWritten - allRead), Math.round(last.getTriggerTimestamp() - allWritten),
                last.getLatestAckTimestamp() - last.getTriggerTimestamp(), finished - last.getLatestAckTimestamp());
    }

    private static double firstSample(List<JobProgress.Sample> samples,
            java.util.function.Predicate<JobProgress.Sample> reached) {
        return samples.stream().filter(reached).findFirst().map(JobProgress.Sample::millis)
                .orElseThrow(() -> new IllegalStateException("the progress samples never got there"));
    }

    /**
     * Stores the phases of {@code job} in {@code result} ({@code phasesMs}), or why there are none (no completed
     * checkpoint, a progress curve that never reached its end): a missing phase never fails the cell.
     */
    static void store(AccessExecutionGraph job, List<JobProgress.Sample> samples, long events, Properties result) {
        String phases;
        try {
            phases = of(job, samples, events).toString();
        } catch (IllegalStateException e) {
            phases = "unavailable: " + e.getMessage();
        }
        result.setProperty("phasesMs", phases);
    }

    /** The phases {@link #toString} wrote; null for none (not measured, or {@code unavailable: ...}). */
    static JobPhases parse(String text) {
        if (text == null || !text.startsWith("deploy=")) {
            return null;
        }
        long[] ms = java.util.Arrays.stream(text.split(" ")).mapToLong(f -> Long.parseLong(f.substring(f.indexOf('=') + 1)))
                .toArray();
        return new JobPhases(ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], ms[6], ms[7]);
    }

    /** The phases in order, in ms. */
    long[] values() {
        return new long[] {deploy, open, firstRead, read, drain, awaitCheckpoint, checkpoint, finish};
    }

    /** The phases' names, in the order of {@link #values}. */
    static final java.util.List<String> NAMES = java.util.List.of("deploy", "open", "first read", "read", "drain",
            "await checkpoint", "checkpoint", "finish");

    @Override
    public String toString() {
        return "deploy=" + deploy + " open=" + open + " firstRead=" + firstRead + " read=" + read + " drain=" + drain
                + " awaitCheckpoint=" + awaitCheckpoint + " checkpoint=" + checkpoint + " finish=" + finish;
    }
}
