package io.columnarkafka.bench.pipeline;

import io.columnarkafka.bench.BenchCommand;
import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The end-to-end pipeline benchmark ({@code bin/bench-pipeline}): one embedded broker, one input topic
 * of N Nexmark bids as Flink JSON, and rounds of the three variants (Kafka → Kafka, EXACTLY_ONCE, every bid
 * written back: re-encoded as Flink JSON by columnar and stock, its bytes passed through by the no-codec
 * floor), each run in a fresh JVM against a fresh output topic. Round 0 is a warm-up and is not counted;
 * the order of the variants rotates every round. Each output topic is read back read_committed and must
 * hold exactly the input's values once each, or the run is a FAIL row: the input is Flink JSON, so the
 * floor's bytes are the ones the codecs must write too. The report gives every run, and the paired
 * per-round ratios (columnar over stock, floor over stock, columnar over floor) as median, min and max.
 */
public final class PipelineBenchmark {
    static final String USAGE = String.join("\n",
            "usage: bin/bench-pipeline [--bids N] [--rounds N] [--parallelism N] [--partitions N]",
            "                          [--checkpoint-interval MS] [--jvm-warm-up off|on|settled] [--out DIR] [--note TEXT]",
            "  --bids                 bids in the input topic (default 500000)",
            "  --rounds               counted rounds after the warm-up round (default 3)",
            "  --parallelism          Flink parallelism of every job (default 2)",
            "  --partitions           partitions of the input and output topics (default 2)",
            "  --checkpoint-interval  ms between checkpoints (default 1000)",
            "  --jvm-warm-up          on: each run's JVM first runs its job over the same input into a topic of its",
            "                         own, unmeasured, so the measured job meets a JIT that has compiled it; settled: runs",
            "                         it again until one run spent at most 15 % of its wall time compiling (at most 8",
            "                         runs), as bin/bench-nexmark's settled (default off)",
            "  --out                  where results go (default bench-results)",
            "  --note                 a line for the report, e.g. how busy the machine was",
            "Environment: CHILD_JAVA_OPTS replaces the per-run JVM options (default -Xms1g -Xmx1g).");

    private int bids = 500_000;
    private int rounds = 3;
    private int parallelism = 2;
    private int partitions = 2;
    private long checkpointInterval = 1000;
    private JvmWarmUp jvmWarmUp = JvmWarmUp.OFF;
    private Path out = Path.of("bench-results");
    private String note = "";

    public static void main(String[] args) throws Exception {
        BenchCommand.main(args, USAGE, PipelineBenchmark::parse, PipelineBenchmark::run);
    }

    static PipelineBenchmark parse(String[] args) {
        PipelineBenchmark b = new PipelineBenchmark();
        BenchCommand.forEachFlag(args, (flag, value) -> {
            switch (flag) {
                case "--bids" -> b.bids = Integer.parseInt(value);
                case "--rounds" -> b.rounds = Integer.parseInt(value);
                case "--parallelism" -> b.parallelism = Integer.parseInt(value);
                case "--partitions" -> b.partitions = Integer.parseInt(value);
                case "--checkpoint-interval" -> b.checkpointInterval = Long.parseLong(value);
                case "--jvm-warm-up" -> b.jvmWarmUp = JvmWarmUp.parse(value);
                case "--out" -> b.out = Path.of(value);
                case "--note" -> b.note = value;
                default -> throw new IllegalArgumentException("unknown argument " + flag);
            }
        });
        return b;
    }

    /** Runs every round; returns whether every run passed its read_committed check. */
    private boolean run() throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path work = Path.of("columnar-kafka-bench", "target", "bench-pipeline", stamp);
        Files.createDirectories(work);
        Files.createDirectories(out);
        double loadBefore = loadAverage();
        List<PipelineResult> results = new ArrayList<>();
        try (KafkaBroker broker = KafkaBroker.builder().defaultPartitions(partitions)
                // A machine shared with other jobs can take minutes to start a broker.
                .startupTimeout(Duration.ofMinutes(5))
                .start()) {
            String input = "bids-json";
            List<byte[]> values = fillInput(broker, input);
            List<PipelineVariant> order = new ArrayList<>(List.of(PipelineVariant.values()));
            for (int round = 0; round <= rounds; round++) {
                for (PipelineVariant variant : order) {
                    String output = "out-" + variant.name().toLowerCase(Locale.ROOT) + "-" + round;
                    broker.createTopic(output, partitions);
                    System.out.printf("round %d%s: %s ...%n", round, round == 0 ? " (warm-up)" : "", variant);
                    PipelineResult result = runOnce(broker, variant, round, input, output, work);
                    TopicReport report = TopicVerifier.forTopic(broker, output).verify(values);
                    result.verify(report.isExactlyOnce(), report.verdict());
                    System.out.println("  " + result.line(bids));
                    results.add(result);
                }
                order.add(order.remove(0));
            }
        }
        PipelineReport report = new PipelineReport(bids, rounds, parallelism, partitions, checkpointInterval, jvmWarmUp,
                note, loadBefore, loadAverage(), results);
        Files.writeString(out.resolve("pipeline-" + stamp + ".md"), report.markdown());
        Files.writeString(out.resolve("pipeline-" + stamp + ".json"), report.json());
        System.out.println(report.markdown());
        return report.allPassed();
    }

    /** The input: bids {@code 0 .. N-1} as Flink JSON (the columnar encoder's bytes), round-robin over partitions. */
    private List<byte[]> fillInput(KafkaBroker broker, String topic) {
        broker.createTopic(topic, partitions);
        BidGenerator generator = new BidGenerator(7);
        BatchEncoder json = Formats.encoder("json", Projection.all(BidGenerator.BID_TYPE), Map.of());
        List<byte[]> values = new ArrayList<>(bids);
        Properties properties = broker.clientProperties();
        properties.put("linger.ms", "20");
        properties.put("batch.size", "262144");
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowLayout.schema(BidGenerator.BID_TYPE), allocator);
                KafkaProducer<byte[], byte[]> producer =
                        new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int from = 0; from < bids; from += 4096) {
                int n = Math.min(4096, bids - from);
                generator.fill(batch, from, n);
                RecordSlab slab = json.encode(batch);
                for (int i = 0; i < n; i++) {
                    byte[] value = slab.copyRecord(i);
                    values.add(value);
                    producer.send(new ProducerRecord<>(topic, (from + i) % partitions, null, value));
                }
            }
            producer.flush();
        }
        return values;
    }

    private PipelineResult runOnce(KafkaBroker broker, PipelineVariant variant, int round, String input,
            String output, Path work) throws Exception {
        Path resultFile = work.resolve(output + ".properties");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
        command.addAll(List.of(System.getenv().getOrDefault("CHILD_JAVA_OPTS", "-Xms1g -Xmx1g").split("\\s+")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PipelineRun.class.getName(),
                variant.name(), broker.bootstrapServers(), input, output, Integer.toString(parallelism),
                Long.toString(checkpointInterval), resultFile.toString()));
        if (jvmWarmUp != JvmWarmUp.OFF) {
            String warmUpOutput = JvmWarmUp.own(output);
            broker.createTopic(warmUpOutput, partitions);
            command.add(warmUpOutput);
            command.add(jvmWarmUp.name());
        }
        Process child = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(work.resolve(output + ".log").toFile()).start();
        if (!child.waitFor(30, TimeUnit.MINUTES)) {
            child.destroyForcibly();
            return PipelineResult.failed(variant, round, "timed out after 30 minutes");
        }
        if (child.exitValue() != 0 || !Files.exists(resultFile)) {
            return PipelineResult.failed(variant, round, "run exited " + child.exitValue() + ", see "
                    + work.resolve(output + ".log"));
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(resultFile)) {
            properties.load(in);
        }
        return PipelineResult.of(variant, round, properties);
    }

    private static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
