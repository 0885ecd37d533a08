package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.bench.ColumnarPlanPath;
import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.MiniBatch;
import io.columnarkafka.bench.MiniClusterJobs;
import io.columnarkafka.bench.PlannerOptionsInPlan;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.InstallResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * Runs one CDC cell in a JVM of its own (started by {@link CdcBenchmark}; the broker runs in another), so this
 * process's CPU time is the Flink job's: a MiniCluster of one TaskManager with a slot per parallel task, checkpoints
 * to local files, the query planned by Flink's planner (with the columnar stage and the variant's planner options for
 * a columnar variant; mini-batch on in every variant if the cell says so). Writes to the cell's result file the job
 * time, the process CPU time over the job, the JIT's compile time during it, and the optimized plan with its columnar
 * nodes and edges; a failure exits 1, its reason left beside the result file ({@link ChildJvm#complete}). With a JVM
 * warm-up the same job runs first, unmeasured ({@link #warmUpJvm}).
 */
public final class CdcCellRunner {
    private CdcCellRunner() {}

    public static void main(String[] args) throws Exception {
        CdcCell cell = CdcCell.fromArgs(args);
        ChildJvm.complete(Path.of(cell.resultFile()), cell.label(), () -> run(cell));
    }

    private static Properties run(CdcCell cell) throws Exception {
        Properties result = new Properties();
        warmUpJvm(cell, result);
        Configuration conf = configuration(cell);
        try (MiniCluster cluster = new MiniCluster(MiniClusterJobs.cluster(conf, cell.parallelism()))) {
            cluster.start();
            StreamGraph graph = streamGraph(cell, StreamExecutionEnvironment.getExecutionEnvironment(conf), result);
            double compileStart = JvmWarmUp.compileSeconds();
            long cpuStart = ChildJvm.processCpuNanos();
            JobID job = cluster.submitJob(graph).get().getJobID();
            JobResult jobResult = cluster.requestJobResult(job).get();
            long cpuEnd = ChildJvm.processCpuNanos();
            // The JIT's compile time in the measured job, the part of its CPU a JVM warm-up is there to take out.
            result.setProperty("jitSeconds", Double.toString(JvmWarmUp.compileSeconds() - compileStart));
            MiniClusterJobs.requireSuccess(jobResult, "the Flink job");
            AccessExecutionGraph executed = cluster.getArchivedExecutionGraph(job).get();
            result.setProperty("jobSeconds", Double.toString(MiniClusterJobs.jobSeconds(executed)));
            result.setProperty("cpuSeconds", Double.toString((cpuEnd - cpuStart) / 1e9));
        }
        return result;
    }

    /**
     * Runs the cell's job, unmeasured, as often as {@link CdcCell#jvmWarmUp} says ({@link JvmWarmUp#run}), each time
     * to its end on a MiniCluster of its own and into its own topic ({@link CdcCell#warmUpRun}): the measured job then
     * runs on Flink's, Kafka's and the variant's code compiled for this query, as in a long-running TaskManager,
     * rather than paying in its CPU per event for the first job's class loading and compiling (what compiling is left:
     * the cell's {@code jitSeconds}).
     */
    private static void warmUpJvm(CdcCell cell, Properties result) throws Exception {
        CdcCell warmUp = cell.warmUpRun();
        Configuration conf = configuration(warmUp);
        cell.jvmWarmUp().run(() -> MiniClusterJobs.runToEnd(conf, warmUp.parallelism(),
                streamGraph(warmUp, StreamExecutionEnvironment.getExecutionEnvironment(conf), new Properties()),
                "the JVM warm-up job"), result);
    }

    /** The cell's cluster: a slot per parallel task, checkpoints to the cell's directory every interval. */
    private static Configuration configuration(CdcCell cell) {
        Configuration conf = MiniClusterJobs.configuration(cell.parallelism());
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, Path.of(cell.checkpointDir()).toUri().toString());
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(cell.checkpointIntervalMs()));
        return conf;
    }

    /**
     * Plans the cell's INSERT (a columnar variant's planner options set in the session); records its optimized plan,
     * its columnar path, what it shows of the variant's options and how it misses its query's required path in {@code
     * result}.
     */
    private static StreamGraph streamGraph(CdcCell cell, StreamExecutionEnvironment env, Properties result) {
        env.setParallelism(cell.parallelism());
        env.enableCheckpointing(cell.checkpointIntervalMs(), CheckpointingMode.EXACTLY_ONCE);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        if (cell.miniBatch()) {
            MiniBatch.tableOptions().forEach(tables.getConfig()::set);
        }
        if (cell.variant().columnar()) {
            cell.variant().sessionOptions().forEach(tables.getConfig()::set);
            InstallResult installed = ColumnarSql.install(tables);
            if (!installed.installed()) {
                throw new IllegalStateException("the columnar planner stage is not installed: " + installed.message());
            }
        }
        tables.executeSql(CdcSql.sourceTable(cell.variant(), cell.bootstrapServers(), cell.inputTopic(), cell.runId()));
        tables.executeSql(cell.query().resultTable(CdcSql.sinkOptions(cell.variant(), cell.query(),
                cell.bootstrapServers(), cell.outputTopic(), cell.runId())));
        String insert = cell.query().insert();
        String explained = tables.explainSql(insert);
        String plan = explained.substring(explained.indexOf("== Optimized Execution Plan =="));
        result.setProperty("optimizedPlan", plan);
        result.setProperty("planPath", ColumnarPlanPath.describe(plan));
        result.setProperty("columnarNodes", Integer.toString(ColumnarPlanPath.columnarNodes(plan)));
        result.setProperty("edges", Integer.toString(ColumnarPlanPath.edges(plan)));
        // Both throw, failing the cell, if the plan contradicts an option the variant set.
        result.setProperty("plannerOptionsInPlan",
                PlannerOptionsInPlan.describe(cell.variant().plannerOptions(), plan));
        String mismatch = cell.variant().columnar()
                ? cell.query().requiredPath(cell.miniBatch()).mismatch(plan, cell.variant().plannerOptions()) : null;
        result.setProperty("pathMismatch", mismatch == null ? "" : mismatch);
        return MiniClusterJobs.insertJob(tables, env, insert, "cdc-" + cell.label());
    }
}
