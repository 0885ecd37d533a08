package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.BenchCommand;
import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.MachineLoad;
import io.columnarkafka.bench.PairedRounds;
import io.columnarkafka.bench.VariantSpelling;
import io.columnarkafka.bench.nexmark.NexmarkBenchmark;
import io.columnarkafka.bench.nexmark.OutputDigest;
import io.columnarkafka.bench.nexmark.PlannerClasspath;
import io.columnarkafka.planner.PlannerOptions;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The CDC pipeline benchmark ({@code bin/bench-cdc}): one embedded broker, one input topic of Debezium change
 * events ({@link OrderChanges}, {@link DebeziumJson}), then each query runs stock, columnar and any extra variants
 * ({@code --variants}, {@link CdcVariant}) in interleaved rounds (an uncounted warm-up round first; the order of the
 * variants and of the queries rotates round by round), each cell in a fresh JVM ({@link CdcCellRunner}; with {@code
 * --jvm-warm-up} the JVM runs the job unmeasured first) against a fresh result topic that is read back {@code
 * read_committed} and compared with the first stock cell's ({@link CdcOutput}); a columnar cell whose plan is not
 * its query's columnar path, or contradicts its variant's planner options, is a FAIL too. Results: {@code
 * cdc-<time>[-loaded].md}, {@code .json} and {@code .csv}, with extra variants also {@code -variants.csv}.
 */
public final class CdcBenchmark {
    static final String USAGE = String.join("\n",
            "usage: bin/bench-cdc [--queries cdc-calc,cdc-agg,cdc-extremes,cdc-upsert|all] [--events N] [--rounds N]",
            "                     [--warmup N] [--parallelism N] [--partitions N] [--checkpoint-interval MS] [--seed N]",
            "                     [--mini-batch off|on] [--jvm-warm-up off|on|settled] [--out DIR] [--work-dir DIR]",
            "                     [--variants stock,columnar[," + AaControl.CONTROL_ID
                    + "][,columnar:KEY=VALUE[+KEY=VALUE]...]...]",
            "                     [--note TEXT]",
            "  --queries              which queries (default all: cdc-calc, cdc-agg, cdc-extremes, cdc-upsert)",
            "  --events               Debezium records in the input topic, tombstones included (default 300000)",
            "  --rounds               counted rounds (default 5); --warmup uncounted rounds before them (default 1)",
            "  --parallelism          Flink parallelism of every cell (default 2)",
            "  --partitions           partitions of the input and result topics (default 2)",
            "  --checkpoint-interval  ms (default 1000)",
            "  --seed                 the input generator's seed (default 42)",
            "  --mini-batch           table.exec.mini-batch off (default) or on (allow-latency 2 s, size 50000, as",
            "                         bin/bench-nexmark's) in every variant; on, a columnar cdc-agg or cdc-extremes cell",
            "                         must plan " + CdcQuery.CDC_AGG.requiredPath(true).describe(),
            String.format(Locale.ROOT, String.join("\n",
                    "  --jvm-warm-up          off (default), on or settled, as bin/bench-nexmark's: each cell's JVM",
                    "                         first runs its job over the same input into a topic of its own,",
                    "                         unmeasured, once (on) or until one run compiled for at most %.0f %% of",
                    "                         its wall time, at most %d runs (settled), then the measured job"),
                    JvmWarmUp.SETTLED_JIT_SHARE * 100, JvmWarmUp.SETTLED_MAX_JOBS),
            "  --variants             the variants each query's cells run in every round, interleaved, their",
            "                         order rotating from round to round (default stock,columnar; both",
            "                         required); an extra variant is columnar with planner options joined by +,",
            "                         each KEY=VALUE, keys relative to " + PlannerOptions.PREFIX,
            "                         (" + VariantSpelling.pathChoices() + "),",
            "                         e.g. columnar:local-group-agg.vectorised=false; " + AaControl.CONTROL_ID,
            "                         is the A/A control, the default columnar configuration again under its own",
            "                         label. An extra variant's output must equal stock's and its plan show its",
            "                         options (an option turning the required path off stands in for it); the",
            "                         report gives its paired ratios of events/s and CPU per event against stock",
            "                         and against columnar, the A/A control's beside them, and resolved only",
            "                         where all its ratios lie beyond all of the control's in "
                    + AaControl.ROUNDS_TO_RESOLVE + " rounds or more",
            "  --out                  where the report goes (default bench-results)",
            "  --work-dir             cell logs, result files and checkpoints (default columnar-kafka-bench/target/bench-cdc)",
            "  --note                 a line for the report",
            "Environment: CHILD_JAVA_OPTS replaces the cell JVMs' options (default "
                    + NexmarkBenchmark.DEFAULT_CHILD_JAVA_OPTS + ").");

    /** A run whose 1-minute load average was above this when it started is named {@code -loaded}. */
    static final double LOADED_ABOVE = 1.0;

    private List<CdcQuery> queries = List.of(CdcQuery.values());
    /** Stock, columnar, then any extra variants (the A/A control, columnar with planner options), each every round. */
    private List<CdcVariant> variants = List.of(CdcVariant.STOCK, CdcVariant.COLUMNAR);
    private long events = 300_000;
    private int rounds = 5;
    private int warmup = 1;
    private int parallelism = 2;
    private int partitions = 2;
    private long checkpointIntervalMs = 1000;
    private long seed = 42;
    private boolean miniBatch;
    private JvmWarmUp jvmWarmUp = JvmWarmUp.OFF;
    private Path out = Path.of("bench-results");
    private Path workDir = Path.of("columnar-kafka-bench", "target", "bench-cdc");
    private String note = "";

    public static void main(String[] args) throws Exception {
        BenchCommand.main(args, USAGE, CdcBenchmark::parse, bench -> bench.run(System.out));
    }

    static CdcBenchmark parse(String[] args) {
        CdcBenchmark b = new CdcBenchmark();
        BenchCommand.forEachFlag(args, (flag, value) -> {
            switch (flag) {
                case "--queries" -> b.queries = value.equals("all") ? List.of(CdcQuery.values())
                        : Arrays.stream(value.split(",")).map(CdcQuery::byId).distinct().toList();
                case "--events" -> b.events = Long.parseLong(value.replace("_", ""));
                case "--rounds" -> b.rounds = Integer.parseInt(value);
                case "--warmup" -> b.warmup = Integer.parseInt(value);
                case "--parallelism" -> b.parallelism = Integer.parseInt(value);
                case "--partitions" -> b.partitions = Integer.parseInt(value);
                case "--checkpoint-interval" -> b.checkpointIntervalMs = Long.parseLong(value);
                case "--seed" -> b.seed = Long.parseLong(value);
                case "--variants" -> b.variants = variants(value);
                case "--mini-batch" -> b.miniBatch = switch (value) {
                    case "off" -> false;
                    case "on" -> true;
                    default -> throw new IllegalArgumentException("--mini-batch is off or on");
                };
                case "--jvm-warm-up" -> b.jvmWarmUp = JvmWarmUp.parse(value);
                case "--out" -> b.out = Path.of(value);
                case "--work-dir" -> b.workDir = Path.of(value);
                case "--note" -> b.note = value;
                default -> throw new IllegalArgumentException("unknown argument " + flag);
            }
        });
        if (b.rounds < 1 || b.warmup < 0 || b.events < 1) {
            throw new IllegalArgumentException("--rounds needs at least 1, --warmup at least 0, --events at least 1");
        }
        return b;
    }

    /**
     * The variants of {@code --variants}, stock first, then columnar, then the extra ones by id ({@link
     * VariantSpelling#list}).
     */
    static List<CdcVariant> variants(String value) {
        return VariantSpelling.list(value, CdcVariant::parse, CdcVariant.STOCK, CdcVariant.COLUMNAR);
    }

    boolean run(PrintStream console) throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Files.createDirectories(out);
        Files.createDirectories(workDir);
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        String name = "cdc-" + stamp + (MachineLoad.oneMinute(loadBefore) > LOADED_ABOVE ? "-loaded" : "");
        List<CdcResult> results = new ArrayList<>();
        Map<CdcQuery, OutputDigest> expected = new EnumMap<>(CdcQuery.class);
        console.println("starting an embedded Kafka broker ...");
        try (KafkaBroker broker = KafkaBroker.builder().defaultPartitions(partitions)
                .startupTimeout(Duration.ofMinutes(5)).start()) {
            String input = "cdc-input-" + stamp;
            broker.createTopic(input, partitions);
            long fillStart = System.nanoTime();
            CdcTopic.Filled filled = CdcTopic.fill(broker.bootstrapServers(), input, seed, events);
            String mix = filled.ops().entrySet().stream()
                    .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey().name().toLowerCase(Locale.ROOT), e.getValue()))
                    .collect(Collectors.joining(", "));
            console.printf(Locale.ROOT, "input %s: %,d records (%s), %,d bytes, written in %.1f s%n", input, events, mix,
                    filled.bytes(), (System.nanoTime() - fillStart) / 1e9);
            int cellNumber = 0;
            for (int round = 0; round < warmup + rounds; round++) {
                int counted = round < warmup ? 0 : round - warmup + 1;
                List<CdcQuery> order = new ArrayList<>(queries);
                Collections.rotate(order, -round);
                for (CdcQuery query : order) {
                    for (CdcVariant variant : PairedRounds.roundOrder(variants, round)) {
                        String id = stamp + "-" + cellNumber++;
                        CdcCell cell = cell(broker.bootstrapServers(), input, query, variant, counted, id);
                        results.add(runCell(broker, cell, workDir.resolve("cell-" + id + ".log"), expected, console));
                        // After every cell, so that a run cut short still leaves its data.
                        CdcReport report = new CdcReport(results, new CdcReport.Setup(stamp, note, events, mix,
                                filled.bytes(), warmup, rounds, parallelism, partitions, checkpointIntervalMs, seed,
                                miniBatch, jvmWarmUp, loadBefore, Files.readString(Path.of("/proc/loadavg")).trim()));
                        write(report, name);
                    }
                }
            }
        }
        String markdown = Files.readString(out.resolve(name + ".md"));
        console.println();
        console.println(markdown);
        console.println("results: " + out.resolve(name + ".md") + " (+ .json, .csv"
                + (variants.size() > 2 ? ", -variants.csv" : "") + ")");
        boolean ok = results.stream().allMatch(CdcResult::ok);
        if (!ok) {
            console.println("FAIL: " + results.stream().filter(r -> !r.ok()).count()
                    + " cell(s) failed, differ from stock or did not run their columnar path; see the report");
        }
        return ok;
    }

    /** The cell {@code id}: its query, variant and round, and what this run's options set for every cell. */
    CdcCell cell(String bootstrapServers, String input, CdcQuery query, CdcVariant variant, int round, String id) {
        return new CdcCell(query, variant, round, events, parallelism, checkpointIntervalMs, miniBatch,
                bootstrapServers, input, "cdc-out-" + id, "cdc-" + id,
                workDir.resolve("checkpoints-" + id).toAbsolutePath().toString(),
                workDir.resolve("cell-" + id + ".properties").toAbsolutePath().toString(), jvmWarmUp);
    }

    private void write(CdcReport report, String name) throws Exception {
        Files.writeString(out.resolve(name + ".md"), report.markdown());
        Files.writeString(out.resolve(name + ".json"), report.json());
        Files.writeString(out.resolve(name + ".csv"), report.csv());
        String variants = report.variantsCsv();
        if (!variants.isEmpty()) {
            Files.writeString(out.resolve(name + "-variants.csv"), variants);
        }
    }

    private CdcResult runCell(KafkaBroker broker, CdcCell cell, Path log, Map<CdcQuery, OutputDigest> expected,
                              PrintStream console) {
        console.printf("%-22s round %s ... ", cell.label(), cell.round() == 0 ? "warm-up" : cell.round());
        CdcResult result;
        try {
            broker.createTopic(cell.outputTopic(), partitions);
            if (cell.jvmWarmUp() != JvmWarmUp.OFF) {
                broker.createTopic(cell.warmUpRun().outputTopic(), partitions);
            }
            Properties measured = ChildJvm.run(CdcCellRunner.class, PlannerClasspath.forCells(), cell.toArgs(),
                    System.getenv().getOrDefault("CHILD_JAVA_OPTS", NexmarkBenchmark.DEFAULT_CHILD_JAVA_OPTS),
                    Path.of(cell.resultFile()), log, Duration.ofMinutes(20), cell.label());
            TopicReport report = TopicVerifier.forTopic(broker.bootstrapServers(), cell.outputTopic()).readCommitted()
                    .keepRecords(true).timeout(Duration.ofMinutes(5)).read();
            OutputDigest digest = CdcOutput.digest(cell.query(), report);
            result = CdcResult.of(cell, measured, digest, verdict(cell, measured.getProperty("pathMismatch"), digest,
                    report, expected));
            console.printf(Locale.ROOT, "%.2f s, %,.0f events/s, CPU %,.0f ns/event, JIT %.2f s%s, %s, output %,d"
                            + " entries %s: %s%n", result.jobSeconds(), result.eventsPerSecond(),
                    result.cpuNanosPerEvent(), result.warmUp().measuredJitSeconds(), result.warmUp().jobs() == 0 ? ""
                            : " after " + result.warmUp().jobs() + " warm-up job(s)", result.planPath(),
                    digest.entries(), digest.sha256(), result.verdict());
        } catch (Exception e) {
            String reason = ChildJvm.failureReason(Path.of(cell.resultFile()));
            result = CdcResult.failed(cell, reason != null ? reason + "\n" + e.getMessage() : e.getMessage());
            console.println(result.verdict());
        } finally {
            broker.deleteTopic(cell.outputTopic());
            if (cell.jvmWarmUp() != JvmWarmUp.OFF) {
                broker.deleteTopic(cell.warmUpRun().outputTopic());
            }
        }
        return result;
    }

    /**
     * OK if the output equals the query's first stock output (the first stock cell's sets it) and a columnar cell
     * ran its query's columnar path; FAIL otherwise.
     */
    static String verdict(CdcCell cell, String pathMismatch, OutputDigest digest, TopicReport report,
                          Map<CdcQuery, OutputDigest> expected) {
        if (!report.partitionsWithOpenTransactions().isEmpty()) {
            return "FAIL: transactions left open on partitions " + report.partitionsWithOpenTransactions();
        }
        if (digest.entries() == 0) {
            return "FAIL: empty result";
        }
        OutputDigest stock = cell.variant().equals(CdcVariant.STOCK) ? expected.putIfAbsent(cell.query(), digest)
                : expected.get(cell.query());
        if (stock != null && !stock.equals(digest)) {
            return "FAIL: output differs from stock (" + digest.entries() + " entries " + digest.sha256() + ", stock "
                    + stock.entries() + " " + stock.sha256() + ")";
        }
        if (stock == null && !cell.variant().equals(CdcVariant.STOCK)) {
            return "FAIL: no stock result to compare with";
        }
        return pathMismatch == null || pathMismatch.isEmpty() ? "OK" : "FAIL: fallback, " + pathMismatch;
    }
}
