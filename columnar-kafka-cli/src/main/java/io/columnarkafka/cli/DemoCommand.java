package io.columnarkafka.cli;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import io.columnarkafka.testkit.nexmark.BidIndex;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
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
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code columnar-kafka demo}: the main job. Starts an embedded Kafka broker (or uses the given one) and
 * fills an input topic with Nexmark bids as Flink JSON. A local Flink cluster with 1 s checkpoints then
 * copies them to the output topic through the columnar source and sink, Arrow batches all the way, and the
 * demo reads the output back and checks that every bid is there exactly once. With {@code --input
 * generated} the job generates the bids as Arrow batches itself and only the sink is columnar. With {@code
 * --compare} it then runs stock Flink on the same input with the same settings into a topic of its own and
 * prints both side by side.
 */
final class DemoCommand {
    static final String USAGE = String.join("\n",
            "usage: columnar-kafka demo [--input kafka|generated] [--rows N] [--parallelism N] [--batch-size N]",
            "                           [--delivery-guarantee exactly-once|at-least-once|none]",
            "                           [--checkpoint-interval MS] [--partitions N] [--topic NAME]",
            "                           [--bootstrap-servers HOST:PORT] [--compare]",
            "",
            "  --input                kafka (default): bids in an input topic <topic>-input, read by the columnar",
            "                         source; generated: bids made as Arrow batches inside the job (sink only)",
            "  --rows                 Nexmark bids to write (default 2000000)",
            "  --parallelism          Flink parallelism of the source, encoder and KafkaSink (default 2)",
            "  --batch-size           most rows per Arrow batch (default 4096)",
            "  --delivery-guarantee   the KafkaSink's guarantee (default exactly-once)",
            "  --checkpoint-interval  milliseconds between checkpoints (default 1000)",
            "  --partitions           partitions of the topics the demo creates (default 2)",
            "  --topic                output topic to create and write (default columnar-kafka-demo-<time>)",
            "  --bootstrap-servers    use this Kafka cluster instead of starting an embedded broker",
            "  --compare              then run stock Flink (KafkaSource and KafkaSink with Flink's JSON on RowData,",
            "                         the same bids and settings) into a fresh topic <topic>-stock and print both",
            "                         side by side: records/s, Flink CPU per record, checkpoints, verdicts");

    private static final long SEED = 42;
    /** Below the broker's transaction.max.timeout.ms (15 min by default). */
    private static final String TRANSACTION_TIMEOUT = "transaction.timeout.ms";
    private static final String TRANSACTION_TIMEOUT_MS = "60000";

    /** Where the job's bids come from. */
    enum Input { KAFKA, GENERATED }

    private Input input = Input.KAFKA;
    private long rows = 2_000_000;
    private int parallelism = 2;
    private int batchSize = 4096;
    private DeliveryGuarantee guarantee = DeliveryGuarantee.EXACTLY_ONCE;
    private long checkpointIntervalMs = 1000;
    private int partitions = 2;
    private String topic = "columnar-kafka-demo-" + System.currentTimeMillis();
    private String bootstrapServers;
    private boolean compare;

    static DemoCommand parse(List<String> args) {
        DemoCommand demo = new DemoCommand();
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            if (flag.equals("--compare")) {
                demo.compare = true;
                continue;
            }
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
                case "--input" -> demo.input = input(value);
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

    private static Input input(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "kafka" -> Input.KAFKA;
            case "generated" -> Input.GENERATED;
            default -> throw new UsageException("--input is kafka or generated, got '" + value + "'");
        };
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

    /**
     * Runs the demo; returns true if the topic holds every bid exactly once (at least once for the weaker
     * guarantees), and with {@code --compare} stock Flink's topic too.
     */
    boolean run(PrintStream out) throws Exception {
        try (KafkaTarget kafka = KafkaTarget.of(bootstrapServers, partitions, out)) {
            String inputTopic = input == Input.KAFKA ? fillInputTopic(kafka, out) : null;
            DemoRun columnar = runJob(kafka, inputTopic, topic,
                    inputTopic != null ? "columnar source and sink" : "columnar sink", true, out);
            if (!compare) {
                return columnar.passed();
            }
            out.println();
            out.println(inputTopic != null
                    ? "--compare: the same bids and settings through stock Flink (KafkaSource and KafkaSink with"
                            + " Flink's JSON on RowData)"
                    : "--compare: the same bids and settings through stock Flink (KafkaSink + Flink's"
                            + " JsonRowDataSerializationSchema on RowData)");
            DemoRun stock = runJob(kafka, inputTopic, topic + "-stock", "stock Flink", false, out);
            DemoRun.printSideBySide(columnar, stock, out);
            return columnar.passed() && stock.passed();
        }
    }

    /** Creates {@code <topic>-input} and writes the bids to it, as Flink JSON, through the Flink-free client. */
    private String fillInputTopic(KafkaTarget kafka, PrintStream out) throws Exception {
        String inputTopic = topic + "-input";
        kafka.createTopic(inputTopic, partitions, false);
        out.printf("filling the input topic %s (%d partitions) with %,d Nexmark bids as Flink JSON"
                + " (columnar-kafka's client, no Flink) ...%n", inputTopic, partitions, rows);
        long start = System.nanoTime();
        BidInputTopic.fill(kafka.servers(), inputTopic, rows, SEED);
        out.printf("input ready in %.1f s%n", (System.nanoTime() - start) / 1e9);
        return inputTopic;
    }

    /**
     * Runs one job into a fresh topic {@code name}, columnar or stock Flink's, reading {@code inputTopic}, or
     * generating the bids when it is null; then verifies the topic.
     */
    private DemoRun runJob(KafkaTarget kafka, String inputTopic, String name, String label, boolean columnar,
            PrintStream out) throws Exception {
        kafka.createTopic(name, partitions, false);
        String servers = kafka.servers();
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, parallelism);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        // Any free port for the local cluster's REST endpoint: Flink's default, 8081, may be taken (another
        // Flink, another demo), and the MiniCluster then fails to start.
        conf.set(RestOptions.BIND_PORT, "0");
        MiniClusterConfiguration clusterConf = new MiniClusterConfiguration.Builder()
                .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(parallelism).build();
        double seconds;
        double cpuSeconds;
        CheckpointStatsSnapshot checkpoints;
        try (MiniCluster cluster = new MiniCluster(clusterConf)) {
            cluster.start();
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(parallelism);
            env.enableCheckpointing(checkpointIntervalMs);
            if (inputTopic != null) {
                KafkaToKafkaJob job = new KafkaToKafkaJob(servers, inputTopic, name, name, guarantee,
                        Long.parseLong(TRANSACTION_TIMEOUT_MS), batchSize);
                if (columnar) {
                    job.buildColumnar(env);
                } else {
                    job.buildStock(env);
                }
                out.printf("copying %,d Nexmark bids from topic %s to topic %s (%d partitions) through the %s:"
                        + " parallelism %d, %s, checkpoints every %d ms%n", rows, inputTopic, name, partitions, label,
                        parallelism, guarantee, checkpointIntervalMs);
            } else {
                if (columnar) {
                    buildColumnarJob(env, servers, name);
                } else {
                    buildStockJob(env, servers, name);
                }
                out.printf("writing %,d Nexmark bids to topic %s (%d partitions) through the %s: parallelism %d,"
                        + " batches of %d rows, %s, checkpoints every %d ms%n", rows, name, partitions, label,
                        parallelism, batchSize, guarantee, checkpointIntervalMs);
            }
            long cpuStart = processCpuNanos();
            long start = System.nanoTime();
            JobID job = cluster.submitJob(env.getStreamGraph()).get().getJobID();
            CompletableFuture<JobResult> result = cluster.requestJobResult(job);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", servers))) {
                while (!result.isDone()) {
                    try {
                        result.get(1, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        long completed = cluster.getExecutionGraph(job).get().getCheckpointStatsSnapshot()
                                .getCounts().getNumberOfCompletedCheckpoints();
                        out.printf("  %5.1f s: %,d records in the topic (uncommitted included), %d checkpoints completed%n",
                                (System.nanoTime() - start) / 1e9, topicEndOffsets(admin, name), completed);
                    }
                }
            }
            seconds = (System.nanoTime() - start) / 1e9;
            cpuSeconds = (processCpuNanos() - cpuStart) / 1e9;
            JobResult jobResult = result.get();
            if (!jobResult.isSuccess()) {
                throw new IllegalStateException("the Flink job failed", jobResult.getSerializedThrowable()
                        .map(t -> t.deserializeError(getClass().getClassLoader())).orElse(null));
            }
            checkpoints = cluster.getArchivedExecutionGraph(job).get().getCheckpointStatsSnapshot();
        }
        out.printf("job finished in %.1f s: %,.0f records/s, Flink CPU %.2f µs per record%n", seconds, rows / seconds,
                cpuSeconds * 1e6 / rows);
        TopicReport report = verify(servers, name, out);
        boolean passed = guarantee == DeliveryGuarantee.EXACTLY_ONCE
                ? report.isExactlyOnce()
                : report.missingCount() == 0 && report.unexpectedCount() == 0;
        DemoRun run = DemoRun.of(label, rows, seconds, cpuSeconds, checkpoints, report.verdict(), passed);
        out.println(run.checkpointLine());
        out.println("verifier: " + report.verdict());
        return run;
    }

    /**
     * CPU time of this JVM, all threads: Flink's tasks, the producers' I/O threads, GC and JIT (the embedded
     * broker is a child process, not counted), which a busy machine distorts far less than wall time.
     */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private DataStream<Long> batchIndexes(StreamExecutionEnvironment env) {
        DataGeneratorSource<Long> indexes = new DataGeneratorSource<>(
                index -> index, BidBatches.batchCount(rows, batchSize), RateLimiterStrategy.noOp(), Types.LONG);
        return env.fromSource(indexes, WatermarkStrategy.noWatermarks(), "bid batch indexes")
                .uid("demo-bid-batch-indexes");
    }

    private void buildColumnarJob(StreamExecutionEnvironment env, String servers, String name) {
        DataStream<ArrowBatch> batches = batchIndexes(env)
                .flatMap(new BidBatches(rows, batchSize, SEED))
                .returns(ArrowBatchTypeInfo.INSTANCE)
                .uid("demo-bid-batches")
                .name("Nexmark bids as Arrow batches");
        ColumnarKafkaSink.builder()
                .setRowType(BidGenerator.BID_TYPE)
                .setValueFormat("json", Map.of())
                .setTopic(name)
                .setBootstrapServers(servers)
                .setDeliveryGuarantee(guarantee)
                .setTransactionalIdPrefix(name)
                .setProperty(TRANSACTION_TIMEOUT, TRANSACTION_TIMEOUT_MS)
                .setUidPrefix("demo")
                .build()
                .sinkTo(batches);
    }

    /** Stock Flink on the same bids: Flink's JSON serializer (the json format's, no options) in a stock KafkaSink. */
    private void buildStockJob(StreamExecutionEnvironment env, String servers, String name) {
        KafkaSink<RowData> sink = KafkaSink.<RowData>builder()
                .setBootstrapServers(servers)
                .setRecordSerializer(KafkaRecordSerializationSchema.<RowData>builder()
                        .setTopic(name)
                        .setValueSerializationSchema(new JsonRowDataSerializationSchema(BidGenerator.BID_TYPE,
                                TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false))
                        .build())
                .setDeliveryGuarantee(guarantee)
                .setTransactionalIdPrefix(name)
                .setProperty(TRANSACTION_TIMEOUT, TRANSACTION_TIMEOUT_MS)
                .build();
        batchIndexes(env)
                .flatMap(new BidRows(rows, batchSize, SEED), InternalTypeInfo.of(BidGenerator.BID_TYPE))
                .uid("demo-bid-rows")
                .name("Nexmark bids as RowData")
                .sinkTo(sink)
                .uid("demo-stock-kafka-sink")
                .name("KafkaSink (Flink JSON)");
    }

    private static long topicEndOffsets(Admin admin, String topic) throws Exception {
        TopicDescription description = admin.describeTopics(Set.of(topic)).allTopicNames().get().get(topic);
        Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
        description.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        return admin.listOffsets(latest).all().get().values().stream().mapToLong(o -> o.offset()).sum();
    }

    private TopicReport verify(String servers, String name, PrintStream out) {
        out.println("reading the topic back (read_committed) ...");
        return TopicVerifier.forTopic(servers, name)
                .readCommitted()
                .timeout(Duration.ofMinutes(5))
                .verifyIds(0, Math.toIntExact(rows), BidIndex::ofJson);
    }
}
