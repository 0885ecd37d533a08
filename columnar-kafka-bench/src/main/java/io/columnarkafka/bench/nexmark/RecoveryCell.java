package io.columnarkafka.bench.nexmark;

import io.columnarkafka.testkit.flink.FlinkCluster;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * A recovery cell: the query's job on a standalone Flink cluster of separate JVMs (the testkit's {@link
 * FlinkCluster}: a job manager and two TaskManagers of {@code parallelism} slots each, on the cell JVM's classpath,
 * so with Flink's planner jar and the columnar stage when the cell plans with them), submitted over REST from the
 * cell's JVM, which plans it. The job's slots all go to one TaskManager (Flink packs slots unless told to spread
 * them); the other one is the spare that the job restarts on after the {@link FailureInjection} kills the first
 * with {@code SIGKILL}. A spare, not a TaskManager started after the kill: a JVM's start on a loaded machine takes
 * seconds and varies more than what the cell compares, and it is the same for stock and columnar. CPU is the
 * TaskManager processes' ({@link TaskManagerCpu}); job time is the job's creation to its end.
 *
 * <p>At a fixed rate ({@code --rate}) the job reads its topic unbounded while the harness fills it live, from when
 * every task runs ({@link FixedRateRun#runningMarker}); after the failure and the catch-up, once the restarted
 * sources have read every event, stop-with-savepoint with drain ends it, as {@link FixedRateRun} ends a plain cell.
 */
final class RecoveryCell {
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(5);
    /**
     * The job manager starts no checkpoint until this long after the last one completed: the kill's window
     * ({@link KillTrigger}). It delays a checkpoint only where the previous one took more than the interval minus
     * this, the same in both variants.
     */
    static final long CHECKPOINT_MIN_PAUSE_MS = 500;
    /** How many checkpoints the job manager's REST API keeps: more than a recovery cell takes. */
    private static final int CHECKPOINT_HISTORY = 1000;
    /** The environment variable whose JVM options the cluster's TaskManagers get besides their own. */
    static final String TASKMANAGER_JAVA_OPTS = "TASKMANAGER_JAVA_OPTS";
    private static final long STOP_POLL_MS = 20;

    private RecoveryCell() {}

    static Properties run(CellSpec spec) throws Exception {
        Properties result = new Properties();
        Path dir = Path.of(spec.checkpointDir()).resolveSibling("cluster-" + spec.runId());
        Path positions = dir.resolve("positions");
        try (FlinkCluster cluster = cluster(spec, dir, positions, System.getenv(TASKMANAGER_JAVA_OPTS)).start()) {
            Configuration conf = new Configuration();
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
            conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ofMillis(CHECKPOINT_MIN_PAUSE_MS));
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createRemoteEnvironment("localhost", cluster.restPort(), conf);
            StreamGraph graph = CellRunner.streamGraph(spec, env, result);
            TaskManagerCpu cpu = TaskManagerCpu.start(cluster.taskManagers());
            JobClient client = env.executeAsync(graph);
            ClusterJob job = new ClusterJob(cluster, client.getJobID().toString());
            try {
                if (spec.fixedRate()) {
                    job.awaitAllRunning(STARTUP_TIMEOUT);
                    Files.writeString(FixedRateRun.runningMarker(spec), "running");
                }
                new FailureInjection(cluster, job, spec, positions, cpu).run(result);
                if (spec.fixedRate()) {
                    stopOnceAllRead(client, spec, positions);
                }
                client.getJobExecutionResult().get();
            } catch (Exception e) {
                throw new IllegalStateException("the recovery cell failed: " + e + "\n" + cluster.logTails(), e);
            }
            result.setProperty("cpuSeconds", Double.toString(cpu.stopAll()));
            result.setProperty("jobSeconds",
                    Double.toString((job.timestamp("FINISHED") - job.timestamp("CREATED")) / 1e3));
            spec.state().check(job.stateBackendName());
            job.checkpointFigures().store(result);
            result.setProperty("checkpointByVertex", CheckpointByVertex.describe(job.checkpointByVertex()));
        }
        return result;
    }

    /**
     * A fixed-rate cell's end: once the restarted sources have read every event (the live fill has then written them
     * all; q12: and its last processing-time window has fired), stop-with-savepoint with drain, so the output holds
     * every event's result, as a bounded run's does.
     */
    private static void stopOnceAllRead(JobClient client, CellSpec spec, Path positions) throws Exception {
        long deadline = System.nanoTime() + FixedRateRun.readAllTimeout(spec).toNanos();
        while (SourcePositions.read(positions, 1) < spec.events()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the restarted sources had read " + SourcePositions.read(positions, 1)
                        + " of " + spec.events() + " events when the fill should long have ended");
            }
            Thread.sleep(STOP_POLL_MS);
        }
        FixedRateRun.awaitLastProcessingTimeWindow(spec);
        client.stopWithSavepoint(true, FixedRateRun.savepointDirectory(spec), SavepointFormatType.CANONICAL)
                .get(5, TimeUnit.MINUTES);
    }

    /**
     * The cell's cluster: two TaskManagers (the job's and the spare), with {@code taskManagerJavaOpts} ({@value
     * #TASKMANAGER_JAVA_OPTS}, null if unset) added to theirs and the variant's JVM properties to every process's (the
     * job manager deserializes the job's operators too, for the source's enumerator), last so that they hold for the
     * variant's cells whatever the environment sets.
     */
    static FlinkCluster.Builder cluster(CellSpec spec, Path dir, Path positions, String taskManagerJavaOpts) {
        FlinkCluster.Builder builder = FlinkCluster.builder(classpath(), dir)
                .taskManagers(2)
                .slotsPerTaskManager(spec.parallelism())
                .startupTimeout(STARTUP_TIMEOUT)
                // On a loaded machine, 10 s (the default ask timeout) is too short for the RPC actor system to
                // start (as in the fault tests).
                .config("pekko.ask.timeout", "60 s")
                .config("pekko.startup-timeout", "120 s")
                .taskManagerJvmOptions(taskManagerJvmOptions(taskManagerJavaOpts, dir))
                .jvmOptions(spec.variant().jvmOptions());
        clusterConfiguration(spec).toMap().forEach(builder::config);
        SourcePositions.configuration(positions).forEach(builder::config);
        return builder;
    }

    /**
     * The cell's state and checkpoints; slots packed (the spare stays free); a lost TaskManager noticed when
     * heartbeat RPCs to it fail (the dead process refuses the connection; Flink's default threshold is 2 failures,
     * at a 500 ms interval), at the latest after a 5 s heartbeat timeout (50 s by default); REST answers on the job and its
     * checkpoints at most 50 ms old (3 s by default), so the trigger and the restart are seen when they happen, and
     * about every checkpoint of the cell (the last 10 by default).
     */
    private static Configuration clusterConfiguration(CellSpec spec) {
        Configuration conf = CellRunner.stateAndCheckpoints(spec);
        conf.set(TaskManagerOptions.TASK_MANAGER_LOAD_BALANCE_MODE, TaskManagerOptions.TaskManagerLoadBalanceMode.NONE);
        conf.set(HeartbeatManagerOptions.HEARTBEAT_INTERVAL, Duration.ofMillis(500));
        conf.set(HeartbeatManagerOptions.HEARTBEAT_TIMEOUT, Duration.ofSeconds(5));
        conf.set(WebOptions.REFRESH_INTERVAL, Duration.ofMillis(50));
        conf.set(RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT, Duration.ofMillis(50));
        conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, CHECKPOINT_HISTORY);
        return conf;
    }

    /**
     * The value of {@value #TASKMANAGER_JAVA_OPTS} ({@code options}, null if unset) split at spaces, with {@code {dir}}
     * replaced by the cluster's directory: JVM options added to the TaskManagers', e.g. a flight recording of the
     * restart on the spare ({@code -XX:StartFlightRecording=filename={dir}/,dumponexit=true}).
     */
    static List<String> taskManagerJvmOptions(String options, Path dir) {
        if (options == null || options.isBlank()) {
            return List.of();
        }
        return Arrays.stream(options.trim().split("\\s+")).map(option -> option.replace("{dir}", dir.toString()))
                .toList();
    }

    /** The cell JVM's own classpath: the cluster runs the classes the cell planned with. */
    private static List<Path> classpath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator)).map(Path::of).toList();
    }
}
