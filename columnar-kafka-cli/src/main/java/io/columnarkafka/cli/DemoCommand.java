package io.columnarkafka.cli;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import io.columnarkafka.testkit.nexmark.BidIndex;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.util.stats.StatsSummarySnapshot;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code columnar-kafka demo}: the main job. Starts an embedded Kafka broker (or uses the given one),
 * generates Nexmark bids as Arrow batches, writes them through the columnar sink on a local Flink
 * cluster with 1 s checkpoints, then reads the topic back and checks that every bid is there exactly
 * once.
 */
final class DemoCommand {
    static final String USAGE = String.join("\n",
            "usage: columnar-kafka demo [--rows N] [--parallelism N] [--batch-size N]",
            "                           [--delivery-guarantee exactly-once|at-least-once|none]",
            "                           [--checkpoint-interval MS] [--partitions N] [--topic NAME]",
            "                           [--bootstrap-servers HOST:PORT]",
            "",
            "  --rows                 Nexmark bids to write (default 2000000)",
            "  --parallelism          Flink parallelism of the source, encoder and KafkaSink (default 2)",
            "  --batch-size           rows per Arrow batch (default 4096)",
            "  --delivery-guarantee   the KafkaSink's guarantee (default exactly-once)",
            "  --checkpoint-interval  milliseconds between checkpoints (default 1000)",
            "  --partitions           partitions of the topic the demo creates (default 2)",
            "  --topic                topic to create and write (default columnar-kafka-demo-<time>)",
            "  --bootstrap-servers    use this Kafka cluster instead of starting an embedded broker");

    private static final long SEED = 42;

    private long rows = 2_000_000;
    private int parallelism = 2;
    private int batchSize = 4096;
    private DeliveryGuarantee guarantee = DeliveryGuarantee.EXACTLY_ONCE;
    private long checkpointIntervalMs = 1000;
    private int partitions = 2;
    private String topic = "columnar-kafka-demo-" + System.currentTimeMillis();
    private String bootstrapServers;

    static DemoCommand parse(List<String> args) {
        DemoCommand demo = new DemoCommand();
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            if (i + 1 >= args.size()) {
                throw new UsageException(flag + " needs a value; see --help");
            }
            String value = args.get(++i);
            switch (flag) {
                case "--rows" -> demo.rows = positive(flag, value);
                case "--parallelism" -> demo.parallelism = (int) positive(flag, value);
                case "--batch-size" -> demo.batchSize = (int) positive(flag, value);
                case "--checkpoint-interval" -> demo.checkpointIntervalMs = positive(flag, value);
                case "--partitions" -> demo.partitions = (int) positive(flag, value);
                case "--topic" -> demo.topic = value;
                case "--bootstrap-servers" -> demo.bootstrapServers = value;
                case "--delivery-guarantee" -> demo.guarantee = guarantee(value);
                default -> throw new UsageException("unknown argument '" + flag + "'; see --help");
            }
        }
        return demo;
    }

    private static long positive(String flag, String value) {
        try {
            long n = Long.parseLong(value.replace("_", ""));
            if (n > 0 && n <= Integer.MAX_VALUE * 1024L) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(flag + " needs a positive number, got '" + value + "'");
    }

    private static DeliveryGuarantee guarantee(String value) {
        return switch (value.toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "exactly-once" -> DeliveryGuarantee.EXACTLY_ONCE;
            case "at-least-once" -> DeliveryGuarantee.AT_LEAST_ONCE;
            case "none" -> DeliveryGuarantee.NONE;
            default -> throw new UsageException(
                    "--delivery-guarantee is exactly-once, at-least-once or none, got '" + value + "'");
        };
    }

    /** Runs the demo; returns true if the topic holds every bid exactly once (at least once for the weaker guarantees). */
    boolean run(PrintStream out) throws Exception {
        try (KafkaTarget kafka = KafkaTarget.of(bootstrapServers, partitions, out)) {
            kafka.createTopic(topic, partitions, false);
            return runJob(kafka.servers(), out);
        }
    }

    private boolean runJob(String servers, PrintStream out) throws Exception {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, parallelism);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        MiniClusterConfiguration clusterConf = new MiniClusterConfiguration.Builder()
                .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(parallelism).build();
        try (MiniCluster cluster = new MiniCluster(clusterConf)) {
            cluster.start();
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(parallelism);
            env.enableCheckpointing(checkpointIntervalMs);
            buildJob(env, servers);

            out.printf("writing %,d Nexmark bids to topic %s (%d partitions): parallelism %d, batches of %d rows, %s,"
                    + " checkpoints every %d ms%n", rows, topic, partitions, parallelism, batchSize, guarantee,
                    checkpointIntervalMs);
            long start = System.nanoTime();
            JobID job = cluster.submitJob(env.getStreamGraph()).get().getJobID();
            CompletableFuture<JobResult> result = cluster.requestJobResult(job);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", servers))) {
                while (!result.isDone()) {
                    try {
                        result.get(1, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        long checkpoints = cluster.getExecutionGraph(job).get().getCheckpointStatsSnapshot()
                                .getCounts().getNumberOfCompletedCheckpoints();
                        out.printf("  %5.1f s: %,d records in the topic (uncommitted included), %d checkpoints completed%n",
                                (System.nanoTime() - start) / 1e9, topicEndOffsets(admin), checkpoints);
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            JobResult jobResult = result.get();
            if (!jobResult.isSuccess()) {
                throw new IllegalStateException("the Flink job failed", jobResult.getSerializedThrowable()
                        .map(t -> t.deserializeError(getClass().getClassLoader())).orElse(null));
            }
            CheckpointStatsSnapshot checkpoints = cluster.getArchivedExecutionGraph(job).get().getCheckpointStatsSnapshot();
            out.printf("job finished in %.1f s: %,.0f records/s%n", seconds, rows / seconds);
            printCheckpoints(checkpoints, out);
        }
        return verify(servers, out);
    }

    private void buildJob(StreamExecutionEnvironment env, String servers) {
        DataGeneratorSource<Long> indexes = new DataGeneratorSource<>(
                index -> index, BidBatches.batchCount(rows, batchSize), RateLimiterStrategy.noOp(), Types.LONG);
        DataStream<ArrowBatch> batches = env.fromSource(indexes, WatermarkStrategy.noWatermarks(), "bid batch indexes")
                .uid("demo-bid-batch-indexes")
                .flatMap(new BidBatches(rows, batchSize, SEED))
                .returns(ArrowBatchTypeInfo.INSTANCE)
                .uid("demo-bid-batches")
                .name("Nexmark bids as Arrow batches");
        ColumnarKafkaSink.builder()
                .setRowType(BidGenerator.BID_TYPE)
                .setValueFormat("json", Map.of())
                .setTopic(topic)
                .setBootstrapServers(servers)
                .setDeliveryGuarantee(guarantee)
                .setTransactionalIdPrefix(topic)
                // Below the broker's transaction.max.timeout.ms (15 min by default).
                .setProperty("transaction.timeout.ms", "60000")
                .setUidPrefix("demo")
                .build()
                .sinkTo(batches);
    }

    private long topicEndOffsets(Admin admin) throws Exception {
        TopicDescription description = admin.describeTopics(Set.of(topic)).allTopicNames().get().get(topic);
        Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
        description.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        return admin.listOffsets(latest).all().get().values().stream().mapToLong(o -> o.offset()).sum();
    }

    private static void printCheckpoints(CheckpointStatsSnapshot stats, PrintStream out) {
        StatsSummarySnapshot duration = stats.getSummaryStats().getEndToEndDurationStats();
        out.printf("checkpoints: %d completed, %d failed; end-to-end duration min %d ms, avg %d ms, p99 %.0f ms, max %d ms%n",
                stats.getCounts().getNumberOfCompletedCheckpoints(), stats.getCounts().getNumberOfFailedCheckpoints(),
                duration.getMinimum(), duration.getAverage(), duration.getQuantile(0.99), duration.getMaximum());
    }

    private boolean verify(String servers, PrintStream out) {
        out.println("reading the topic back (read_committed) ...");
        TopicReport report = TopicVerifier.forTopic(servers, topic)
                .readCommitted()
                .timeout(Duration.ofMinutes(5))
                .verifyIds(0, Math.toIntExact(rows), BidIndex::ofJson);
        out.println("verifier: " + report.verdict());
        return guarantee == DeliveryGuarantee.EXACTLY_ONCE
                ? report.isExactlyOnce()
                : report.missingCount() == 0 && report.unexpectedCount() == 0;
    }
}
