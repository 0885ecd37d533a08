package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.JobProgress;
import io.columnarkafka.bench.SteadyFigures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;

/**
 * The cell side of a fixed-rate run ({@code bin/bench-nexmark --rate}): the job reads its input topic unbounded from
 * the earliest offset while the harness fills it live at the given rate (it starts once this side says every task
 * is running, {@link #runningMarker}). Once the sources have read all {@code events} (the generator has then written
 * them all), the job is ended by Flink's stop-with-savepoint with drain: the sources stop, MAX_WATERMARK flushes the
 * event-time operators, and the savepoint, the job's final checkpoint, commits the sink's last transactions, so the
 * output holds every event's result as a bounded run's does. The CPU cores the JVM used while steady (10 % to 90 %
 * of the input read) go to the result as {@code steadyCores}.
 */
final class FixedRateRun {
    /**
     * q12's processing-time windows: after the last event was read, its window closes within this time; the stop
     * waits that long and a margin, so every bid is counted by a window that fired on its own timer.
     */
    private static final Duration PROCTIME_WINDOW = Duration.ofSeconds(10);
    private static final Duration PROCTIME_MARGIN = Duration.ofSeconds(2);
    /** The result property: when (epoch ms) the sources had read every event; later checkpoints are not counted. */
    static final String READ_ALL_MILLIS = "readAllEpochMillis";
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(5);
    private static final long POLL_MS = 100;

    private FixedRateRun() {}

    /** The file the cell creates when every task of its job runs: the harness's signal to start the live fill. */
    static Path runningMarker(CellSpec spec) {
        return Path.of(spec.resultFile() + ".running");
    }

    /** Drives the submitted job to its drained stop; records the steady CPU cores and the stop in {@code result}. */
    static void drive(MiniCluster cluster, JobID job, CellSpec spec, Properties result) throws Exception {
        awaitAllRunning(cluster, job);
        try (CpuTimeline cpu = CpuTimeline.start()) {
            double runningMillis = System.currentTimeMillis();
            Files.writeString(runningMarker(spec), "running");
            awaitAllRead(cluster, job, spec.events(), readAllTimeout(spec));
            double readAllMillis = System.currentTimeMillis();
            awaitLastProcessingTimeWindow(spec);
            long stopStart = System.nanoTime();
            String savepoint = cluster.stopWithSavepoint(job, savepointDirectory(spec), true,
                    SavepointFormatType.CANONICAL).get(5, TimeUnit.MINUTES);
            result.setProperty("stopSeconds", Double.toString((System.nanoTime() - stopStart) / 1e9));
            result.setProperty("savepoint", savepoint);
            result.setProperty("readAllSeconds", Double.toString((readAllMillis - runningMillis) / 1e3));
            result.setProperty(READ_ALL_MILLIS, Long.toString((long) readAllMillis));
            cpu.close();
            SteadyFigures steady = JobProgress.figures(JobProgress.samples(), spec.events(), 0);
            result.setProperty("steadyCores", Double.toString(
                    cpu.coresBetween(steady.readFromSeconds() * 1e3, steady.readToSeconds() * 1e3)));
        }
    }

    /** How long the sources may take to read every event: the live fill takes events / rate; twice that and more fails. */
    static Duration readAllTimeout(CellSpec spec) {
        return Duration.ofMillis((long) (2e3 * spec.events() / spec.rate())).plus(STARTUP_TIMEOUT);
    }

    /** After the last event was read, q12's last processing-time window still has to fire: waits for it. */
    static void awaitLastProcessingTimeWindow(CellSpec spec) throws InterruptedException {
        if (spec.query().output == NexmarkQuery.Output.CLOSED_WINDOW_BIDS) {
            Thread.sleep(PROCTIME_WINDOW.plus(PROCTIME_MARGIN).toMillis());
        }
    }

    /** Where the stop-with-savepoint that ends a fixed-rate job writes its savepoint. */
    static String savepointDirectory(CellSpec spec) {
        return Path.of(spec.checkpointDir(), "savepoint").toUri().toString();
    }

    private static void awaitAllRunning(MiniCluster cluster, JobID job) throws Exception {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (true) {
            AccessExecutionGraph graph = cluster.getExecutionGraph(job).get();
            if (graph.getState().isGloballyTerminalState()) {
                throw new IllegalStateException("the job ended before it ran: " + graph.getState());
            }
            List<AccessExecutionVertex> vertices = new ArrayList<>();
            graph.getAllExecutionVertices().forEach(vertices::add);
            if (!vertices.isEmpty() && vertices.stream().allMatch(v -> v.getExecutionState() == ExecutionState.RUNNING)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the job's tasks were not all running after " + STARTUP_TIMEOUT);
            }
            Thread.sleep(POLL_MS);
        }
    }

    /** Waits until the sources have read {@code events} records (the slowest source, {@link JobProgress}). */
    private static void awaitAllRead(MiniCluster cluster, JobID job, long events, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<JobProgress.Sample> samples = JobProgress.samples();
            if (!samples.isEmpty() && samples.get(samples.size() - 1).read() >= events) {
                return;
            }
            if (cluster.getJobStatus(job).get().isGloballyTerminalState()) {
                throw new IllegalStateException("the job ended before its sources read the input: "
                        + cluster.getJobStatus(job).get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the sources had read " + samples.get(samples.size() - 1).read()
                        + " of " + events + " events after " + timeout);
            }
            Thread.sleep(POLL_MS);
        }
    }
}
