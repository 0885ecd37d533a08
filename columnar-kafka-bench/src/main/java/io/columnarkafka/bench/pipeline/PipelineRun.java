package io.columnarkafka.bench.pipeline;

import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.bench.JobProgress;
import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.MiniClusterJobs;
import io.columnarkafka.bench.ThreadCpu;
import io.columnarkafka.cli.KafkaToKafkaJob;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.source.ColumnarKafkaSource;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One run of one variant, in a JVM of its own (started by {@link PipelineBenchmark}): a MiniCluster runs
 * the job; the result file gets the job's wall time, its steady-state rate ({@link JobProgress}: the sources' read
 * and the sink's written records between 10 % and 90 %, the slower) and this JVM's CPU time over the job (all
 * threads: tasks, consumer and producer I/O, GC, JIT), which a busy machine distorts far less than wall time.
 *
 * <p>Arguments: variant, bootstrap servers, input topic, output topic, parallelism, checkpoint interval
 * in ms, result file, and optionally a topic for a JVM warm-up: the same job runs first into it, to its end, on a
 * MiniCluster of its own, unmeasured, so the measured job starts in a JVM whose JIT has compiled Flink's, Kafka's and
 * the variant's code, as a long-running TaskManager's has.
 */
public final class PipelineRun {
    /** Far above a run's length: no transaction times out while a slow round finishes. */
    private static final long TRANSACTION_TIMEOUT_MS = 600_000;

    private PipelineRun() {}

    public static void main(String[] args) throws Exception {
        PipelineVariant variant = PipelineVariant.valueOf(args[0]);
        String servers = args[1];
        String input = args[2];
        String output = args[3];
        int parallelism = Integer.parseInt(args[4]);
        long checkpointInterval = Long.parseLong(args[5]);
        Path resultFile = Path.of(args[6]);

        Configuration conf = MiniClusterJobs.configuration(parallelism);
        conf.addAll(Configuration.fromMap(JobProgress.configuration()));
        Properties result = new Properties();
        if (args.length > 7) {
            warmUp(JvmWarmUp.valueOf(args[8]), variant, servers, input, args[7], conf, parallelism, checkpointInterval,
                    result);
        }
        try (MiniCluster cluster = new MiniCluster(MiniClusterJobs.cluster(conf, parallelism))) {
            cluster.start();
            StreamExecutionEnvironment env = environment(variant, servers, input, output, conf, parallelism,
                    checkpointInterval);
            ThreadCpu threadCpu = ThreadCpu.start();
            double compileStart = JvmWarmUp.compileSeconds();
            long cpuStart = ChildJvm.processCpuNanos();
            long start = System.nanoTime();
            long submittedMillis = System.currentTimeMillis();
            JobID job = cluster.submitJob(env.getStreamGraph()).get().getJobID();
            JobResult jobResult = cluster.requestJobResult(job).get();
            long end = System.nanoTime();
            long cpuEnd = ChildJvm.processCpuNanos();
            result.setProperty("jitSeconds", Double.toString(JvmWarmUp.compileSeconds() - compileStart));
            if (threadCpu != null) {
                result.setProperty("cpuByThread", threadCpu.stop());
            }
            MiniClusterJobs.requireSuccess(jobResult, "the Flink job");
            result.setProperty("wallSeconds", Double.toString((end - start) / 1e9));
            result.setProperty("cpuSeconds", Double.toString((cpuEnd - cpuStart) / 1e9));
            List<JobProgress.Sample> samples = JobProgress.samples();
            // The input is read to its end: the sources' final position is the record count.
            long records = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).read();
            JobProgress.figures(samples, records, submittedMillis).store(result);
            result.setProperty("steadyWriters", String.join(" | ", JobProgress.writers()));
            Files.writeString(Path.of(resultFile + ".progress.csv"), JobProgress.csv(samples));
        }
        result.setProperty("arrowBytesLeft", Long.toString(ArrowMemory.allocatedBytes()));
        try (OutputStream out = Files.newOutputStream(resultFile)) {
            result.store(out, variant + " " + output);
        }
        // Flink and Kafka leave non-daemon threads behind; the run is over.
        System.exit(0);
    }

    /** Runs the job into {@code output}, unmeasured, as often as {@code mode} says ({@link JvmWarmUp#run}). */
    private static void warmUp(JvmWarmUp mode, PipelineVariant variant, String servers, String input, String output,
                               Configuration conf, int parallelism, long checkpointInterval, Properties result)
            throws Exception {
        mode.run(() -> MiniClusterJobs.runToEnd(conf, parallelism, environment(variant, servers, input, output, conf,
                parallelism, checkpointInterval).getStreamGraph(), "the JVM warm-up job"), result);
        // the measured cluster's progress reporter replaces the warm-up's when it opens
    }

    /** An environment holding the variant's job from {@code input} to {@code output}. */
    private static StreamExecutionEnvironment environment(PipelineVariant variant, String servers, String input,
            String output, Configuration conf, int parallelism, long checkpointInterval) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.enableCheckpointing(checkpointInterval);
        // the output topic's name is also the transactional id prefix and the group id: each job has its own
        KafkaToKafkaJob pipeline = new KafkaToKafkaJob(servers, input, output, output, DeliveryGuarantee.EXACTLY_ONCE,
                TRANSACTION_TIMEOUT_MS, ColumnarKafkaSource.DEFAULT_MAX_BATCH_ROWS);
        switch (variant) {
            case COLUMNAR -> pipeline.buildColumnar(env);
            case STOCK -> pipeline.buildStock(env);
            case FLOOR -> pipeline.buildFloor(env);
        }
        return env;
    }
}
