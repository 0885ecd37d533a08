package io.columnarkafka.bench;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * What the end-to-end benchmarks' cell JVMs share about running one measured Flink job on a MiniCluster of their
 * own: one TaskManager with a slot per parallel task, no restarts (a failure is the cell's FAIL row), the job's time
 * from RUNNING to FINISHED.
 */
public final class MiniClusterJobs {
    private MiniClusterJobs() {}

    /** A cell cluster's options: {@code slots} task slots, no restart strategy, a REST port of its own. */
    public static Configuration configuration(int slots) {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        // Any free port: 8081, the default, may be taken by another MiniCluster on a shared machine.
        conf.set(RestOptions.BIND_PORT, "0");
        return conf;
    }

    /** One TaskManager of {@code slots} slots. */
    public static MiniClusterConfiguration cluster(Configuration conf, int slots) {
        return new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build();
    }

    /**
     * Runs {@code graph} to its end on a MiniCluster of its own ({@link #cluster}), then closes it; throws unless the
     * job succeeded. An unmeasured job: a JVM warm-up's ({@link JvmWarmUp}).
     */
    public static void runToEnd(Configuration conf, int slots, StreamGraph graph, String job) throws Exception {
        try (MiniCluster cluster = new MiniCluster(cluster(conf, slots))) {
            cluster.start();
            requireSuccess(cluster.requestJobResult(cluster.submitJob(graph).get().getJobID()).get(), job);
        }
    }

    /** Throws, with the job's own failure as the cause, unless {@code jobResult} is a success. */
    public static void requireSuccess(JobResult jobResult, String job) {
        if (!jobResult.isSuccess()) {
            throw new IllegalStateException(job + " failed", jobResult.getSerializedThrowable()
                    .map(t -> t.deserializeError(MiniClusterJobs.class.getClassLoader())).orElse(null));
        }
    }

    /**
     * The job of one SQL INSERT, as {@code tables} planned it into {@code env} (whose parallelism and checkpoints are
     * set), named {@code jobName}: what a cell submits to its MiniCluster.
     */
    public static StreamGraph insertJob(StreamTableEnvironment tables, StreamExecutionEnvironment env, String insert,
                                        String jobName) {
        StreamStatementSet statements = tables.createStatementSet();
        statements.addInsertSql(insert);
        statements.attachAsDataStream();
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(jobName);
        return graph;
    }

    /** The finished job's time from RUNNING to FINISHED, in seconds. */
    public static double jobSeconds(AccessExecutionGraph executed) {
        return (executed.getStatusTimestamp(JobStatus.FINISHED) - executed.getStatusTimestamp(JobStatus.RUNNING)) / 1e3;
    }
}
