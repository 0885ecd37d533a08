package io.columnarkafka.bench.sink;

import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.flink.batch.ArrowMemory;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.checkpoint.FailedCheckpointStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.util.stats.StatsSummarySnapshot;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * Runs one variant in a JVM of its own (started by {@link SinkBenchmark}, so no variant inherits
 * another's JIT profile or heap) and writes its measurements to the run's result file:
 * wall time, the producers' first-send-to-last-ack window, the JVM's CPU time (Flink's alone: the broker
 * is a process of its own), checkpoint (or commit) statistics, the Arrow memory left after the job and
 * the names of the writing operators (for the SQL variants: did the columnar sink get admitted?).
 * With a profile path it records JFR around the job only.
 */
public final class VariantRunner {
    private VariantRunner() {}

    public static void main(String[] args) throws Exception {
        RunSpec spec = RunSpec.fromArgs(args);
        Properties result = new Properties();
        JobProfile profile = new JobProfile(spec.profile());
        ProducerClock.reset();
        if (spec.variant().flinkJob()) {
            runFlinkJob(spec, result, profile);
        } else {
            runBareProducers(spec, result, profile);
        }
        long first = ProducerClock.firstSendNanos();
        long last = ProducerClock.lastAckNanos();
        if (first != 0 && last > first) {
            result.setProperty("activeSeconds", Double.toString((last - first) / 1e9));
        }
        try (OutputStream out = Files.newOutputStream(Path.of(spec.resultFile()))) {
            result.store(out, spec.label());
        }
        // Flink and Kafka leave non-daemon threads behind; the run is over.
        System.exit(0);
    }

    /** A JFR recording around the job only (not the MiniCluster's start), if a path is given. */
    private static final class JobProfile {
        private final String path;
        private Recording recording;

        JobProfile(String path) {
            this.path = path;
        }

        void start() throws Exception {
            if (path != null) {
                recording = new Recording(Configuration.getConfiguration("profile"));
                recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(5));
                recording.start();
            }
        }

        void stopAndDump() throws Exception {
            if (recording != null) {
                recording.stop();
                recording.dump(Path.of(path));
                recording.close();
            }
        }
    }

    private static void runFlinkJob(RunSpec spec, Properties result, JobProfile profile) throws Exception {
        org.apache.flink.configuration.Configuration conf = new org.apache.flink.configuration.Configuration();
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, spec.parallelism());
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        // Any free port for the REST endpoint: Flink's default, 8081, may be held by another process.
        conf.set(RestOptions.BIND_PORT, "0");
        MiniClusterConfiguration clusterConf = new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(spec.parallelism())
                .build();
        try (MiniCluster cluster = new MiniCluster(clusterConf)) {
            cluster.start();
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(spec.parallelism());
            env.enableCheckpointing(spec.checkpointIntervalMs());
            if (spec.objectReuse()) {
                env.getConfig().enableObjectReuse();
            }
            if (spec.variant().kind() == Variant.Kind.SQL) {
                SqlVariantJob.build(env, spec);
            } else {
                FlinkVariantJob.build(env, spec);
            }
            StreamGraph graph = env.getStreamGraph();
            result.setProperty("sinkOperator", SqlVariantJob.sinkOperators(graph));

            profile.start();
            long cpuStart = ChildJvm.processCpuNanos();
            long start = System.nanoTime();
            JobID job = cluster.submitJob(graph).get().getJobID();
            JobResult jobResult = cluster.requestJobResult(job).get();
            long end = System.nanoTime();
            long cpuEnd = ChildJvm.processCpuNanos();
            profile.stopAndDump();
            if (!jobResult.isSuccess()) {
                throw new IllegalStateException("the Flink job failed", jobResult.getSerializedThrowable()
                        .map(t -> t.deserializeError(VariantRunner.class.getClassLoader())).orElse(null));
            }
            result.setProperty("wallSeconds", Double.toString((end - start) / 1e9));
            result.setProperty("cpuSeconds", Double.toString((cpuEnd - cpuStart) / 1e9));
            AccessExecutionGraph graphStats = cluster.getArchivedExecutionGraph(job).get();
            long running = graphStats.getStatusTimestamp(JobStatus.RUNNING);
            long finished = graphStats.getStatusTimestamp(JobStatus.FINISHED);
            result.setProperty("runningToFinishedSeconds", Double.toString((finished - running) / 1e3));
            checkpoints(graphStats.getCheckpointStatsSnapshot(), result);
        }
        result.setProperty("arrowBytesLeft", Long.toString(ArrowMemory.allocatedBytes()));
    }

    private static void checkpoints(CheckpointStatsSnapshot stats, Properties result) {
        StatsSummarySnapshot e2e = stats.getSummaryStats().getEndToEndDurationStats();
        result.setProperty("checkpoints", Long.toString(stats.getCounts().getNumberOfCompletedCheckpoints()));
        result.setProperty("checkpointsFailed", Long.toString(stats.getCounts().getNumberOfFailedCheckpoints()));
        result.setProperty("checkpointMinMs", Long.toString(e2e.getMinimum()));
        result.setProperty("checkpointAvgMs", Long.toString(e2e.getAverage()));
        result.setProperty("checkpointMaxMs", Long.toString(e2e.getMaximum()));
        // Why checkpoints failed (the history keeps only the latest few), e.g. triggered before all tasks ran.
        String failures = stats.getHistory().getCheckpoints().stream()
                .filter(c -> c.getStatus() == CheckpointStatsStatus.FAILED)
                .map(c -> String.valueOf(((FailedCheckpointStats) c).getFailureMessage()))
                .distinct()
                .collect(Collectors.joining(" | "));
        result.setProperty("checkpointFailures", failures);
    }

    private static void runBareProducers(RunSpec spec, Properties result, JobProfile profile) throws Exception {
        profile.start();
        long cpuStart = ChildJvm.processCpuNanos();
        long start = System.nanoTime();
        List<Long> commits = BareProducers.run(spec);
        long end = System.nanoTime();
        long cpuEnd = ChildJvm.processCpuNanos();
        profile.stopAndDump();
        result.setProperty("wallSeconds", Double.toString((end - start) / 1e9));
        result.setProperty("cpuSeconds", Double.toString((cpuEnd - cpuStart) / 1e9));
        result.setProperty("checkpoints", Integer.toString(commits.size()));
        result.setProperty("checkpointsFailed", "0");
        result.setProperty("checkpointMinMs", Long.toString(commits.stream().mapToLong(Long::longValue).min().orElse(0)));
        result.setProperty("checkpointAvgMs",
                Long.toString(Math.round(commits.stream().mapToLong(Long::longValue).average().orElse(0))));
        result.setProperty("checkpointMaxMs", Long.toString(commits.stream().mapToLong(Long::longValue).max().orElse(0)));
    }
}
