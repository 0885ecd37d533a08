package io.columnarkafka.bench.sink;

import io.columnarkafka.bench.BenchCommand;
import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.testkit.KafkaBroker;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;

/**
 * The sink benchmark ({@code bin/bench-sink}): starts one embedded Kafka broker, runs every variant
 * in a fresh JVM of its own against a fresh topic, reads each topic back read_committed, and writes a
 * Markdown table plus raw JSON and CSV under the output directory. Variants (a), (b) and (c) (the
 * baseline (b) is held to) and the SQL variants are then run once more under JFR, and their CPU profiles
 * summarized as text.
 */
public final class SinkBenchmark {
    static final String USAGE = String.join("\n",
            "usage: bin/bench-sink [--rows N] [--variants a,b,c,d] [--object-reuse both|off|on] [--profile true|false]",
            "                      [--batch-size N] [--parallelism N] [--checkpoint-interval MS] [--partitions N]",
            "                      [--transaction-naming incrementing|pooling] [--input pooled|generated] [--repeat N]",
            "                      [--sql-timestamp-precision P]",
            "                      [--producer KEY=VALUE]... [--out DIR] [--work-dir DIR] [--note TEXT]",
            "",
            "  --rows                 Nexmark Bid rows each variant writes (default 2000000)",
            "  --variants             which variants to run (default a,b,c,d):",
            "                           a stock KafkaSink + Flink JsonRowDataSerializationSchema on RowData",
            "                           b Arrow batches -> ColumnarKafkaSink",
            "                           c stock KafkaSink with pre-built JSON bytes (serializer ceiling)",
            "                           d 2 bare transactional KafkaProducers (sink ceiling)",
            "                           sql-kafka, sql-columnar, sql-blackhole: the same SQL INSERT of datagen Bid rows",
            "                             into 'kafka', 'kafka-columnar' (json, exactly-once) and 'blackhole';",
            "                           sql: all three SQL variants (e.g. --variants sql, or a,b,sql)",
            "  --object-reuse         run a, b, c with Flink object reuse off, on, or both (default both; SQL: Flink's default)",
            "  --profile              also run a, b, c (object reuse off) and the SQL variants under JFR and summarize"
                    + " (default true)",
            "  --batch-size           rows per Arrow batch / per source element (default 4096)",
            "  --input                pooled: every variant takes its rows from a pool of one batch built once per",
            "                         subtask (RowData for a, an Arrow batch sliced without copying for b, JSON bytes",
            "                         for c and d), so only serialization and the sink are measured (default);",
            "                         generated: a and b generate every row as they go (c and d stay pooled)",
            "  --repeat               counted rounds of all runs (default 3), after a warm-up round 0 that is not",
            "                         counted; the order rotates by one run per round (a b c d, b c d a, ...);",
            "                         the report gives each variant's median and the paired per-round ratios",
            "  --parallelism          Flink parallelism, and producer threads of d (default 2)",
            "  --checkpoint-interval  ms between checkpoints, and between commits of d (default 1000)",
            "  --partitions           partitions of each topic (default 2)",
            "  --transaction-naming   KafkaSink transaction naming of a, b, c (default incrementing, the stock default;",
            "                         pooling reuses transactional ids and producers across checkpoints)",
            "  --sql-timestamp-precision  precision of the SQL variants' dateTime column (default 3; 9 runs the",
            "                         columnar SQL sink's full-range nanosecond timestamps)",
            "  --producer             producer setting for every variant (defaults: batch.size=65536,",
            "                         linger.ms=5, compression.type=none)",
            "  --out                  where results go (default bench-results)",
            "  --work-dir             run logs, result files and JFR recordings (default columnar-kafka-bench/target/bench-sink)",
            "  --note                 a line for the report's header, e.g. how quiet the machine was",
            "Environment: CHILD_JAVA_OPTS replaces the per-variant JVM options (default " + SinkBenchmark.DEFAULT_CHILD_JAVA_OPTS
                    + ").");

    /** Every run's JVM: a fixed heap, touched up front, so no variant pays first-touch page faults as it grows. */
    static final String DEFAULT_CHILD_JAVA_OPTS = "-Xms2g -Xmx2g -XX:+AlwaysPreTouch";

    static String childJavaOpts() {
        return System.getenv().getOrDefault("CHILD_JAVA_OPTS", DEFAULT_CHILD_JAVA_OPTS);
    }

    private long rows = 2_000_000;
    private List<Variant> variants = List.of(Variant.STOCK_JSON, Variant.COLUMNAR, Variant.PREBUILT_BYTES,
            Variant.BARE_PRODUCER);
    private List<Boolean> reuseSettings = List.of(false, true);
    private boolean profile = true;
    private int batchSize = 4096;
    private boolean pooledInput = true;
    private int repeat = 3;
    private int parallelism = 2;
    private long checkpointIntervalMs = 1000;
    private int partitions = 2;
    private TransactionNamingStrategy transactionNaming = TransactionNamingStrategy.INCREMENTING;
    private int sqlTimestampPrecision = 3;
    private final Map<String, String> producer = ProducerSettings.defaults();
    private Path out = Path.of("bench-results");
    private Path workDir = Path.of("columnar-kafka-bench", "target", "bench-sink");
    private String note = "";

    public static void main(String[] args) throws Exception {
        BenchCommand.main(args, USAGE, SinkBenchmark::parse, bench -> bench.run(System.out));
    }

    static SinkBenchmark parse(String[] args) {
        SinkBenchmark b = new SinkBenchmark();
        BenchCommand.forEachFlag(args, (flag, value) -> {
            switch (flag) {
                case "--rows" -> b.rows = Long.parseLong(value.replace("_", ""));
                case "--variants" -> b.variants = Variant.parseList(value);
                case "--object-reuse" -> b.reuseSettings = switch (value.toLowerCase(Locale.ROOT)) {
                    case "both" -> List.of(false, true);
                    case "off", "false" -> List.of(false);
                    case "on", "true" -> List.of(true);
                    default -> throw new IllegalArgumentException("--object-reuse is both, off or on");
                };
                case "--profile" -> b.profile = Boolean.parseBoolean(value);
                case "--batch-size" -> b.batchSize = Integer.parseInt(value);
                case "--input" -> b.pooledInput = switch (value.toLowerCase(Locale.ROOT)) {
                    case "pooled" -> true;
                    case "generated" -> false;
                    default -> throw new IllegalArgumentException("--input is pooled or generated");
                };
                case "--repeat" -> b.repeat = Integer.parseInt(value);
                case "--parallelism" -> b.parallelism = Integer.parseInt(value);
                case "--checkpoint-interval" -> b.checkpointIntervalMs = Long.parseLong(value);
                case "--partitions" -> b.partitions = Integer.parseInt(value);
                case "--transaction-naming" -> b.transactionNaming =
                        TransactionNamingStrategy.valueOf(value.toUpperCase(Locale.ROOT));
                case "--producer" -> {
                    String[] kv = value.split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException("--producer needs KEY=VALUE, got " + value);
                    }
                    b.producer.put(kv[0], kv[1]);
                }
                case "--sql-timestamp-precision" -> b.sqlTimestampPrecision = Integer.parseInt(value);
                case "--out" -> b.out = Path.of(value);
                case "--work-dir" -> b.workDir = Path.of(value);
                case "--note" -> b.note = value;
                default -> throw new IllegalArgumentException("unknown argument " + flag);
            }
        });
        if (b.repeat < 1) {
            throw new IllegalArgumentException("--repeat needs at least 1");
        }
        if (b.sqlTimestampPrecision < 0 || b.sqlTimestampPrecision > 9) {
            throw new IllegalArgumentException("--sql-timestamp-precision is 0 to 9");
        }
        if (b.sqlTimestampPrecision != 3) {
            b.note = (b.note.isEmpty() ? "" : b.note + "; ") + "SQL dateTime TIMESTAMP(" + b.sqlTimestampPrecision + ")";
        }
        if (!"none".equals(b.producer.get("compression.type"))) {
            throw new IllegalArgumentException("the benchmark compares without compression: compression.type=none");
        }
        return b;
    }

    /** The variants run once more under JFR (when selected): the serializers' and the SQL sinks' paths. */
    private static final List<Variant> PROFILED = List.of(Variant.STOCK_JSON, Variant.COLUMNAR, Variant.PREBUILT_BYTES,
            Variant.SQL_KAFKA, Variant.SQL_COLUMNAR, Variant.SQL_BLACKHOLE);

    /** One run of a round: a variant with an object-reuse setting. */
    private record RunKey(Variant variant, boolean objectReuse) {}

    boolean run(PrintStream console) throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Files.createDirectories(out);
        Files.createDirectories(workDir);
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        List<RunResult> results = new ArrayList<>();
        Map<String, String> profiles = new LinkedHashMap<>();
        List<RunKey> keys = new ArrayList<>();
        for (Variant variant : variants) {
            for (boolean reuse : variant.hasObjectReuseSetting() ? reuseSettings : List.of(false)) {
                keys.add(new RunKey(variant, reuse));
            }
        }
        console.println("starting an embedded Kafka broker ...");
        // A loaded machine can take minutes to start the broker's JVM.
        try (KafkaBroker broker = KafkaBroker.builder().defaultPartitions(partitions)
                .startupTimeout(Duration.ofMinutes(5)).start()) {
            console.printf("broker ready at %s%n", broker.bootstrapServers());
            // Round 0 warms the broker and the machine up and is not counted. Every round runs every variant
            // once; the order rotates by one per round, so no variant always runs first (against a cold broker)
            // or always follows the same neighbour, and a slow phase of the machine hits all of them alike.
            for (int round = 0; round <= repeat; round++) {
                List<RunKey> order = new ArrayList<>(keys);
                Collections.rotate(order, -(round % keys.size()));
                console.printf("round %d of %d%s: %s%n", round, repeat, round == 0 ? " (warm-up, not counted)" : "",
                        order.stream().map(k -> k.variant().hasObjectReuseSetting()
                                ? k.variant().letter() + (k.objectReuse() ? " reuse" : " copy") : k.variant().letter())
                                .collect(Collectors.joining(", ")));
                for (RunKey key : order) {
                    results.add(runOnce(broker, key.variant(), key.objectReuse(), null, round, stamp + "-r" + round,
                            console));
                }
            }
            if (profile) {
                for (Variant variant : PROFILED) {
                    if (!variants.contains(variant)) {
                        continue;
                    }
                    Path jfr = workDir.resolve("sink-" + stamp + "-" + variant.letter() + ".jfr").toAbsolutePath();
                    RunResult r = runOnce(broker, variant, false, jfr.toString(), -1, stamp, console);
                    if (!r.ok()) {
                        console.println("profile run failed: " + r.status());
                        continue;
                    }
                    String title = String.format(Locale.ROOT, "variant (%s) %s, object reuse off, %,d rows,"
                            + " %,.0f records/s under JFR", variant.letter(), variant.description(), rows,
                            r.recordsPerSecond());
                    String summary = JfrSummary.summarize(jfr, title);
                    Path text = out.resolve("sink-" + stamp + "-profile-" + variant.letter() + ".txt");
                    Files.writeString(text, summary);
                    profiles.put(variant.letter(), text.toString());
                    console.println("profile summary: " + text);
                }
            }
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
        ResultReport report = new ResultReport(results, profiles, stamp, note, loadBefore, loadAfter, producer,
                batchSize, pooledInput, parallelism, checkpointIntervalMs, partitions, transactionNaming);
        String markdown = report.markdown();
        console.println();
        console.println(markdown);
        Files.writeString(out.resolve("sink-" + stamp + ".md"), markdown);
        Files.writeString(out.resolve("sink-" + stamp + ".json"), report.json());
        Files.writeString(out.resolve("sink-" + stamp + ".csv"), report.csv());
        console.println("results: " + out.resolve("sink-" + stamp + ".md") + " (+ .json, .csv)");
        boolean passed = results.stream().allMatch(RunResult::ok);
        if (!passed) {
            console.println("FAIL: " + results.stream().filter(r -> !r.ok()).count() + " run(s) failed; see the FAIL rows");
        }
        return passed;
    }

    /**
     * Runs one variant in a JVM of its own, reads its topic back and checks it. Never throws for a failed
     * run: the job's failure, the verifier's, the parity check's, Arrow memory left or a SQL sink not
     * admitted each become the run's FAIL status.
     *
     * @param round the round (0: warm-up; -1: a profiling run)
     */
    private RunResult runOnce(KafkaBroker broker, Variant variant, boolean reuse, String jfr, int round, String stamp,
                              PrintStream console) throws Exception {
        String name = "sink-bench-" + variant.letter() + (reuse ? "-reuse" : "-copy") + (jfr != null ? "-jfr" : "")
                + "-" + stamp;
        Path resultFile = workDir.resolve(name + ".properties").toAbsolutePath();
        RunSpec spec = new RunSpec(variant, reuse, rows, batchSize, pooledInput, parallelism, checkpointIntervalMs,
                transactionNaming, sqlTimestampPrecision, broker.bootstrapServers(), name, producer, jfr,
                resultFile.toString());
        console.printf("%-14s %s%s: %,d rows ...%n", spec.label(), variant.description(),
                jfr != null ? " [JFR]" : "", rows);
        if (variant.writesKafka()) {
            broker.createTopic(name, partitions);
        }
        RunResult result;
        long brokerCpuBefore = cpuNanos(broker);
        try {
            Properties measured = runChild(spec, workDir.resolve(name + ".log"));
            double brokerCpuSeconds = (cpuNanos(broker) - brokerCpuBefore) / 1e9;
            RunVerifier.Outcome check = RunVerifier.verify(broker.bootstrapServers(), spec);
            result = RunResult.measured(spec, round, failure(spec, measured, check), measured, brokerCpuSeconds, check);
            console.printf(Locale.ROOT, "         %.2f s, %,.0f records/s (first->last: %,.0f/s), Flink JVM CPU %.2f us/record"
                            + " (broker %.2f), %d checkpoints (e2e min/avg/max %d/%d/%d ms); read_committed: %s%n",
                    result.wallSeconds(), result.recordsPerSecond(), result.activeRecordsPerSecond(),
                    result.cpuMicrosPerRecord(), result.brokerCpuMicrosPerRecord(),
                    result.checkpoints(), result.checkpointMinMs(), result.checkpointAvgMs(), result.checkpointMaxMs(),
                    check.verdict());
        } catch (Exception e) {
            result = RunResult.failed(spec, round, "the run failed: " + firstLine(e));
        }
        console.printf("         %s%n", result.status());
        if (variant.writesKafka()) {
            broker.deleteTopic(name);
        }
        return result;
    }

    /** Why a measured run fails, or null if it passes. */
    private static String failure(RunSpec spec, Properties measured, RunVerifier.Outcome check) {
        List<String> reasons = new ArrayList<>();
        if (!check.passed()) {
            reasons.add("verifier: " + check.verdict());
        }
        long arrowLeft = Long.parseLong(measured.getProperty("arrowBytesLeft", "0"));
        if (arrowLeft != 0) {
            reasons.add("Arrow memory left after the job: " + arrowLeft + " bytes");
        }
        String operators = measured.getProperty("sinkOperator", "");
        if (spec.variant() == Variant.SQL_COLUMNAR && !operators.contains(SqlVariantJob.ADMITTED_OPERATOR)) {
            reasons.add("the kafka-columnar sink was not admitted (operators: " + operators + ")");
        }
        return reasons.isEmpty() ? null : String.join("; ", reasons);
    }

    private static String firstLine(Throwable e) {
        String message = String.valueOf(e.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static long cpuNanos(KafkaBroker broker) {
        return broker.process().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private Properties runChild(RunSpec spec, Path log) throws Exception {
        return ChildJvm.run(VariantRunner.class, spec.toArgs(), childJavaOpts(), Path.of(spec.resultFile()), log,
                Duration.ofMinutes(30), "run " + spec.label());
    }
}
