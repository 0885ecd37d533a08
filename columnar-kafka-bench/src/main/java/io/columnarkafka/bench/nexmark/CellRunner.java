package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.bench.ColumnarPlanPath;
import io.columnarkafka.bench.JobProgress;
import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.MiniBatch;
import io.columnarkafka.bench.MiniClusterJobs;
import io.columnarkafka.bench.PlannerOptionsInPlan;
import io.columnarkafka.bench.SteadyFigures;
import io.columnarkafka.bench.ThreadCpu;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.InstallResult;
import io.columnarkafka.testkit.nexmark.CountChar;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * Runs one cell in a JVM of its own (started by {@link NexmarkBenchmark}; the broker runs in another), so
 * this process's CPU time is the Flink job's: a MiniCluster with one TaskManager of {@code parallelism}
 * slots, heap or RocksDB state ({@code --state}), checkpoints to local files, the query planned by Flink's SQL
 * planner and submitted as one job. Writes what it measured to the cell's result file: job time, CPU time,
 * checkpoint statistics, the sink's admission (from EXPLAIN) and the CPU time by thread group ({@link ThreadCpu}: how
 * much is JIT warm-up). A recovery cell runs its job on a cluster of processes instead ({@link RecoveryCell}).
 */
public final class CellRunner {
    private static final Pattern COLUMNAR_SINK =
            Pattern.compile("(upsert-)?kafka-columnar\\[(admitted|fallback)[^\\]]*\\]");

    private CellRunner() {}

    public static void main(String[] args) throws Exception {
        CellSpec spec = CellSpec.fromArgs(args);
        ChildJvm.complete(Path.of(spec.resultFile()), spec.label(), () -> run(spec));
    }

    /**
     * Runs the cell's job to its end; returns what it measured. A plain cell runs on a MiniCluster of its own, a
     * recovery cell on a cluster of TaskManager processes ({@link RecoveryCell}).
     */
    static Properties run(CellSpec spec) throws Exception {
        return spec.failAtFraction() > 0 ? RecoveryCell.run(spec) : runOnMiniCluster(spec);
    }

    private static Properties runOnMiniCluster(CellSpec spec) throws Exception {
        Properties result = new Properties();
        warmUpJvm(spec, result);
        Configuration conf = configuration(spec);
        try (MiniCluster cluster = new MiniCluster(MiniClusterJobs.cluster(conf, spec.parallelism()))) {
            cluster.start();
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            StreamGraph graph = jobGraph(spec, env, result);
            ThreadCpu threadCpu = ThreadCpu.start();
            double compileStart = JvmWarmUp.compileSeconds();
            long cpuStart = ChildJvm.processCpuNanos();
            JobID job = cluster.submitJob(graph).get().getJobID();
            if (spec.fixedRate()) {
                FixedRateRun.drive(cluster, job, spec, result);
            }
            JobResult jobResult = cluster.requestJobResult(job).get();
            long cpuEnd = ChildJvm.processCpuNanos();
            result.setProperty("jitSeconds", Double.toString(JvmWarmUp.compileSeconds() - compileStart));
            if (threadCpu != null) {
                result.setProperty("cpuByThread", threadCpu.stop());
            }
            MiniClusterJobs.requireSuccess(jobResult, "the Flink job");
            AccessExecutionGraph executed = cluster.getArchivedExecutionGraph(job).get();
            spec.state().check(executed.getStateBackendName().orElse(null));
            result.setProperty("jobSeconds", Double.toString(MiniClusterJobs.jobSeconds(executed)));
            result.setProperty("cpuSeconds", Double.toString((cpuEnd - cpuStart) / 1e9));
            long countedBefore = Long.parseLong(result.getProperty(FixedRateRun.READ_ALL_MILLIS,
                    Long.toString(Long.MAX_VALUE)));
            CheckpointFigures.of(executed.getCheckpointStatsSnapshot(), countedBefore).store(result);
            result.setProperty("checkpointByVertex",
                    CheckpointByVertex.describe(CheckpointByVertex.of(executed, countedBefore)));
            CheckpointPath.of(executed, countedBefore).store(result);
            List<JobProgress.Sample> samples = JobProgress.samples();
            long running = executed.getStatusTimestamp(JobStatus.RUNNING);
            SteadyFigures steady = JobProgress.figures(samples, spec.events(), running);
            steady.store(result);
            if (!Double.isNaN(steady.readToSeconds())) {
                CheckpointFigures.triggeredBetween(executed.getCheckpointStatsSnapshot(),
                        running + Math.round(steady.readFromSeconds() * 1e3),
                        running + Math.round(steady.readToSeconds() * 1e3)).store(result, "steady");
            }
            JobPhases.store(executed, samples, spec.events(), result);
            result.setProperty("steadyWriters", String.join(" | ", JobProgress.writers()));
            Files.writeString(Path.of(spec.resultFile() + ".progress.csv"), JobProgress.csv(samples));
        }
        // After the cluster's close: every task has removed its metrics, so the reporter holds their totals.
        result.setProperty("taskTimings", TaskTimings.describe());
        result.setProperty("operatorRecords", TaskTimings.describeOperatorRecords());
        result.setProperty("sendWindows", TaskTimings.describeSendWindows());
        return result;
    }

    /**
     * Runs the cell's job, unmeasured, as often as {@link CellSpec#jvmWarmUp} says ({@link JvmWarmUp#run}), each time
     * to its end on a MiniCluster of its own, then forgets what the reporters saw of it. The measured job then starts
     * in a JVM whose JIT has compiled Flink's, Kafka's and the variant's code for this query, as a long-running
     * TaskManager's has: without it a third of a 1,000,000-event cell's CPU is the JIT's, in both variants
     * (docs/nexmark.md, "The whole suite at 1,000,000 events, and the JIT in the measured job").
     */
    private static void warmUpJvm(CellSpec spec, Properties result) throws Exception {
        CellSpec warmUp = spec.warmUpRun();
        spec.jvmWarmUp().run(() -> {
            Configuration conf = configuration(warmUp);
            MiniClusterJobs.runToEnd(conf, warmUp.parallelism(),
                    jobGraph(warmUp, StreamExecutionEnvironment.getExecutionEnvironment(conf), new Properties()),
                    "the JVM warm-up job");
            // The measured cluster's progress reporter replaces the warm-up's when it opens; the task timings are static.
            TaskTimings.clear();
        }, result);
    }

    /** The cell's job: the floor job for the floor variant, else the query planned by Flink's SQL planner. */
    private static StreamGraph jobGraph(CellSpec spec, StreamExecutionEnvironment env, Properties result)
            throws IOException {
        return spec.variant().equals(Variant.FLOOR) ? FloorJob.streamGraph(spec, env, result)
                : streamGraph(spec, env, result);
    }

    /**
     * Plans the cell's query in {@code env} (parallelism and exactly-once checkpoints set here), records the
     * plan's columnar path, what it shows of the variant's planner options and the source connector in {@code
     * result}; returns the job to submit.
     */
    static StreamGraph streamGraph(CellSpec spec, StreamExecutionEnvironment env, Properties result) {
        env.setParallelism(spec.parallelism());
        env.enableCheckpointing(spec.checkpointIntervalMs(), CheckpointingMode.EXACTLY_ONCE);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        String insert = plan(spec, tables);
        String explained = tables.explainSql(insert);
        String plan = explained.substring(explained.indexOf("== Optimized Execution Plan =="));
        result.setProperty("optimizedPlan", plan);
        if (spec.columnarPlanner()) {
            // The columnar nodes and edges the plan holds ({@link ColumnarPlanPath}).
            result.setProperty("sinkPath", spec.variant().columnar() ? ColumnarPlanPath.describe(plan) : "stock");
            // Throws, failing the cell, if the plan contradicts an option the variant set.
            result.setProperty("plannerOptionsInPlan",
                    PlannerOptionsInPlan.describe(spec.variant().plannerOptions(), plan));
        } else {
            result.setProperty("sinkPath", sinkPath(spec, tables.explainSql(insert,
                    ExplainDetail.JSON_EXECUTION_PLAN)));
        }
        result.setProperty("sourceConnector", spec.variant().source());
        return MiniClusterJobs.insertJob(tables, env, insert, "nexmark-" + spec.label());
    }

    private static Configuration configuration(CellSpec spec) {
        Configuration conf = stateAndCheckpoints(spec);
        conf.addAll(MiniClusterJobs.configuration(spec.parallelism()));
        conf.addAll(Configuration.fromMap(TaskTimings.configuration()));
        conf.addAll(Configuration.fromMap(JobProgress.configuration()));
        return conf;
    }

    /**
     * The cell's state backend ({@code --state}), checkpoints to the cell's directory every interval, a checkpoint
     * history kept whole, then the run's {@code --flink-conf} options over them.
     */
    static Configuration stateAndCheckpoints(CellSpec spec) {
        Configuration conf = new Configuration();
        spec.state().apply(conf);
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, Path.of(spec.checkpointDir()).toUri().toString());
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(spec.checkpointIntervalMs()));
        conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 100_000);
        conf.addAll(Configuration.fromMap(spec.flinkOptions().options()));
        return conf;
    }

    /**
     * The cell's table options, the same for every variant: mini-batch ({@link MiniBatch}) if on, and whether
     * distinct aggregates are split ({@link SplitDistinct}).
     */
    static Map<String, String> tableOptions(CellSpec spec) {
        Map<String, String> options = new LinkedHashMap<>();
        if (spec.miniBatch()) {
            options.putAll(MiniBatch.tableOptions());
        }
        options.put(SplitDistinct.OPTION, Boolean.toString(spec.splitDistinct()));
        return options;
    }

    /** Creates the source, views and result table; returns the INSERT. */
    static String plan(CellSpec spec, StreamTableEnvironment tables) {
        tableOptions(spec).forEach(tables.getConfig()::set);
        tables.createTemporarySystemFunction("count_char", CountChar.class);
        if (spec.columnarPlanner() && spec.variant().columnar()) {
            spec.variant().sessionOptions().forEach(tables.getConfig()::set);
            InstallResult installed = ColumnarSql.install(tables);
            if (!installed.installed()) {
                throw new IllegalStateException("the columnar planner stage is not installed: " + installed.message());
            }
        }
        tables.executeSql(NexmarkSql.sourceTable(spec.variant().source(), spec.bootstrapServers(), spec.inputTopic(),
                spec.runId(), !(spec.columnarPlanner() && !spec.query().stateful), spec.clients(), !spec.fixedRate()));
        NexmarkSql.views().forEach(tables::executeSql);
        String sink = NexmarkSql.sinkOptions(spec.variant().sink(spec.query()), spec.query().upsert(),
                spec.bootstrapServers(), spec.outputTopic(), spec.runId(), spec.clients(), spec.variant().sinkOptions());
        List<String> statements = spec.query().statements(sink);
        statements.subList(0, statements.size() - 1).forEach(tables::executeSql);
        return statements.get(statements.size() - 1);
    }

    /** Stock for the stock variant; the columnar sink's decision (admitted or fallback and why) otherwise. */
    private static String sinkPath(CellSpec spec, String explained) {
        if (!spec.variant().columnar()) {
            return "stock";
        }
        Matcher m = COLUMNAR_SINK.matcher(explained);
        return m.find() ? m.group() : "unknown: no columnar sink in the plan";
    }
}
