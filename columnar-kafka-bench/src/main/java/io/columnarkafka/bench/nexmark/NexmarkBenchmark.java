package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.BenchCommand;
import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.PairedRounds;
import io.columnarkafka.bench.VariantSpelling;
import io.columnarkafka.flink.table.ColumnarOptions;
import io.columnarkafka.planner.PlannerOptions;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkTopic;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.StateBackendOptions;

/**
 * The Nexmark exactly-once Kafka matrix ({@code bin/bench-nexmark}): one embedded broker, one input topic
 * filled by the Nexmark generator, then every (query, mini-batch setting) runs stock, columnar and any extra
 * variants ({@code --variants}: columnar with planner options) in interleaved rounds (an uncounted warm-up round
 * first; the order of the variants rotates round by round and so does the query order), each cell in a fresh
 * JVM against a fresh result topic that is read back {@code read_committed} and compared with the stock cells'
 * result; in each counted round also the recovery cells (a TaskManager process killed mid-run, {@link RecoveryCell}), paired the same way. Results:
 * {@code nexmark-<time>.md}, {@code .json} and {@code .csv} in the output directory.
 */
public final class NexmarkBenchmark {
    static final String USAGE = String.join("\n",
            "usage: bin/bench-nexmark [--queries q0,q1,...|all|stateless|stateful] [--events N] [--rounds N]",
            "                         [--warmup N] [--parallelism N] [--mini-batch off|on|both]",
            "                         [--split-distinct on|off|nexmark] [--flink-conf KEY=VALUE,...] [--state heap|rocksdb]",
            "                         [--recovery q0,q4,...|none] [--recovery-at FRACTION] [--checkpoint-interval MS]",
            "                         [--partitions N] [--seed N] [--out DIR] [--work-dir DIR] [--note TEXT]",
            "                         [--keep-output off|on] [--rate EVENTS_PER_S --seconds S]",
            "                         [--columnar-planner off|on] [--max-poll-records N] [--producer-batch-size BYTES]",
            "                         [--producer-linger-ms MS] [--producer-buffer-memory BYTES] [--scan-batch-rows N]",
            "                         [--scan-batch-time MS] [--variants stock,columnar[,columnar:ITEM[+ITEM]...]...]",
            "                         [--floor off|on] [--jvm-warm-up off|on|settled]",
            "",
            "  --queries              which queries (default all that Flink runs; q6 and q13 are skipped, see docs/nexmark.md)",
            "  --events               Nexmark events in the input topic (default 200000)",
            "  --rounds               counted rounds (default 2); --warmup uncounted rounds before them (default 1)",
            "  --parallelism          Flink parallelism (default 2)",
            "  --mini-batch           table.exec.mini-batch off, on (allow-latency 2 s, size 50000) or both (default)",
            "  --split-distinct       " + SplitDistinct.OPTION + " in every variant's cells (recovery and",
            "                         fixed-rate cells too): on, off, or nexmark (default): on in the mini-batch-on cells,",
            "                         off in the others, as Nexmark's config.yaml (mini-batch on; it has no off setting)",
            "  --flink-conf           Flink configuration options set in every cell of both variants (recovery clusters",
            "                         too), over the harness's state and checkpoint settings, e.g.",
            "                         taskmanager.network.memory.buffer-debloat.enabled=true (default none)",
            "  --state                the state backend of every cell of both variants (recovery clusters too): heap",
            "                         (default) or rocksdb, with incremental checkpoints as Nexmark's config.yaml",
            "  --recovery             queries also run, mini-batch off, once per variant and counted round on a cluster",
            "                         of processes whose TaskManager running the job is killed (SIGKILL) mid-run, the",
            "                         job restarting on a spare TaskManager (default q0,q4,q17)",
            "  --recovery-at          fail once the sources have read this share of the input (default 0.5)",
            "  --checkpoint-interval  ms (default 1000)",
            "  --partitions           partitions of the input and result topics (default 2)",
            "  --keep-output          on: each cell's output entries (sorted values, final value per key, or q12's bids",
            "                         per bidder) to <work-dir>/cell-<id>.output, to diff a cell that differs from stock",
            "  --columnar-planner     on (default): every cell plans with Flink's planner jar (not the loader), the columnar",
            "                         cells install the columnar planner stage (ColumnarSql), and the stateless queries'",
            "                         source table has no WATERMARK (both variants; they use none); off: the loader's",
            "                         planner, columnar connectors only (the earlier matrices)",
            "  --rate, --seconds      fixed-rate mode (see docs/nexmark.md): each cell's input topic is written live at",
            "                         this many events/s for this many seconds (replacing --events) while the job runs",
            "                         unbounded; once its sources have read every event, stop-with-savepoint with drain",
            "                         ends it. Reports checkpoint times and sizes and the CPU cores used at that equal",
            "                         rate; the recovery cells (--recovery) run at the same rate, caught up once their",
            "                         restarted sources are back where they would be without the failure.",
            "                         Results: nexmark-rate-<time>.md (+ .json, .csv)",
            "  --max-poll-records     the source table's properties.max.poll.records, both variants (default: Kafka's, 500);",
            "                         a fetch is at most this many records, and so is a columnar scan's batch, the work",
            "                         the source task does between two looks at its mailbox (where a checkpoint waits)",
            "  --producer-batch-size  the result table's properties.batch.size, both variants (default: Kafka's, 16384)",
            "  --producer-linger-ms   the result table's properties.linger.ms, both variants (default: Kafka's, 5)",
            "  --producer-buffer-memory  the result table's properties.buffer.memory, both variants (default: Kafka's,",
            "                         33554432): the most the producer holds unsent, which an exactly-once checkpoint's",
            "                         flush drains",
            "                         (StreamFusion's settings: --max-poll-records 8192 --producer-batch-size 524288",
            "                         --producer-linger-ms 20)",
            "  --scan-batch-rows      the columnar source table's columnar.scan.max-batch-rows (default: the connector's,",
            "                         " + ColumnarOptions.SCAN_MAX_BATCH_ROWS.defaultValue() + "); a columnar scan's batch is at most this many rows and at most",
            "                         one fetch; stock's source is unchanged",
            "  --scan-batch-time      the columnar source table's columnar.scan.max-batch-time in ms, 0 for none (default:",
            "                         the connector's, none); each reader cuts a batch to what its recent steps decoded",
            "                         and emitted in that time",
            "  --variants             the variants every (query, mini-batch) cell and every recovery cell runs in every",
            "                         round, interleaved, their order rotating from round to round (default stock,columnar);",
            "                         an extra variant is columnar with items joined by +, each a columnar planner option",
            "                         KEY=VALUE, keys relative to " + PlannerOptions.PREFIX + " (options: " + VariantSpelling.pathChoices() + "),",
            "                         or a JVM system property " + Variant.PROPERTY_FLAG + Variant.PROPERTY_PREFIX + "KEY=VALUE, set on every JVM that",
            "                         runs the variant's tasks (the cell JVM; a recovery cell's job manager and TaskManagers),",
            "                         e.g. columnar:edge-rows=VIEWS, columnar:-Dcolumnarkafka.arrow.warm-up=false or",
            "                         columnar:edge-rows=VIEWS+-Dcolumnarkafka.arrow.warm-up=false;",
            "                         " + AaControl.CONTROL_ID + " is the A/A control, the default columnar configuration again",
            "                         under its own label. Each extra variant's output must equal stock's; the report gives",
            "                         its paired ratios against stock and against columnar (fixed-rate: of checkpoint p50",
            "                         and CPU cores; recovery: of caught-up time), the A/A control's beside them and whether",
            "                         a variant's lie outside the control's, and what its plans showed of its options.",
            "                         Needs stock and columnar; planner options need --columnar-planner on",
            "  --floor                on: each stateless query also runs a floor cell, rotated with stock and columnar in",
            "                         every round: Flink's KafkaSource and EXACTLY_ONCE KafkaSink with the same settings,",
            "                         writing for each input record the value stock writes for it (looked up by offset,",
            "                         precomputed once per query before the rounds), no decode, calc or encode; its output",
            "                         is checked against stock's like any cell. Reports floor/stock, columnar/stock and",
            "                         columnar/floor per round (default off; not with --rate)",
            "  --jvm-warm-up          on: each plain cell's JVM first runs its job once over the same input, unmeasured,",
            "                         into a topic of its own, then the measured job: the JIT has compiled the query's",
            "                         code, as in a long-running TaskManager; settled: it runs the job again until one run",
            "                         spent at most 15 % of its wall time compiling (at most 8 runs), the JIT as quiet as",
            "                         in a TaskManager that has run for minutes (default off: a fresh JVM per measured job;",
            "                         not with --rate; recovery cells are unchanged)",
            "Environment: CHILD_JAVA_OPTS replaces the cell JVMs' options (default " + NexmarkBenchmark.DEFAULT_CHILD_JAVA_OPTS
                    + "); BROKER_JAVA_OPTS adds options to the broker's JVM (a collector named there replaces its"
                    + " -XX:+UseSerialGC); " + RecoveryCell.TASKMANAGER_JAVA_OPTS + " adds JVM options to the recovery cells' TaskManagers,",
            "split at spaces, {dir} standing for the cluster's directory (e.g. a flight recording, docs/nexmark.md).",
            "Both apply to every variant; a variant's own JVM properties come after them.");

    public static final String DEFAULT_CHILD_JAVA_OPTS = "-Xms1g -Xmx1g";

    /** Why a bounded run does not compare q12's output, and where it is measured. */
    static final String Q12_BOUNDED = "its 10 s processing-time windows do not fire before a bounded job of a few"
            + " seconds ends (Flink fires no window still open at end of input), so what it counts depends on the wall"
            + " clock; measured and checked bid by bid in the fixed-rate mode (bin/bench-nexmark --rate, docs/nexmark.md)";

    private List<NexmarkQuery> queries = List.of(NexmarkQuery.values());
    private long events = 200_000;
    private int rounds = 2;
    private int warmup = 1;
    private int parallelism = 2;
    private List<Boolean> miniBatch = List.of(false, true);
    private SplitDistinct splitDistinct = SplitDistinct.NEXMARK;
    private FlinkOptions flinkOptions = FlinkOptions.NONE;
    private CellStateBackend state = CellStateBackend.HEAP;
    private List<NexmarkQuery> recovery = List.of(NexmarkQuery.Q0, NexmarkQuery.Q4, NexmarkQuery.Q17);
    private double recoveryAt = 0.5;
    private long checkpointIntervalMs = 1000;
    private int partitions = 2;
    private long seed = 42;
    private Path out = Path.of("bench-results");
    private Path workDir = Path.of("columnar-kafka-bench", "target", "bench-nexmark");
    private String note = "";
    /** Cells plan with Flink's planner jar, and the columnar cells install the columnar planner stage. */
    private boolean columnarPlanner = true;
    /** Fixed-rate mode's events per second (0: the bounded matrix) and seconds of input. */
    private double rate;
    private double seconds;
    /** Writes each cell's output entries (what its digest is of) to the work dir, to diff a FAIL. */
    private boolean keepOutput;
    /** The source table's max.poll.records; 0 for Kafka's default. */
    private int maxPollRecords;
    /** The result table's producer batch.size and linger.ms; -1 for Kafka's defaults. */
    private int producerBatchSize = -1;
    private int producerLingerMs = -1;
    private long producerBufferMemory = -1;
    /** The columnar source table's columnar.scan.max-batch-rows; 0 for the connector's default. */
    private int scanBatchRows;
    /** The columnar source table's columnar.scan.max-batch-time in ms; -1 for the connector's default. */
    private int scanBatchTimeMs = -1;
    private ClientSettings clients = ClientSettings.DEFAULTS;
    /** Stock, columnar, then any extra variants (columnar with planner options), each run every round. */
    private List<Variant> variants = List.of(Variant.STOCK, Variant.COLUMNAR);
    /** Each stateless query also runs a floor cell ({@link Variant#FLOOR}). */
    private boolean floor;
    /** Whether each plain cell's JVM runs its job once, unmeasured, before the measured job. */
    private JvmWarmUp jvmWarmUp = JvmWarmUp.OFF;
    /** The input's bids per bidder, q12's check; read off the generator when a q12 cell first needs it. */
    private InputBids inputBids;

    public static void main(String[] args) throws Exception {
        BenchCommand.main(args, USAGE, NexmarkBenchmark::parse, bench -> bench.run(System.out));
    }

    static NexmarkBenchmark parse(String[] args) {
        NexmarkBenchmark b = new NexmarkBenchmark();
        BenchCommand.forEachFlag(args, (flag, value) -> {
            switch (flag) {
                case "--queries" -> b.queries = queries(value);
                case "--events" -> b.events = Long.parseLong(value.replace("_", ""));
                case "--rounds" -> b.rounds = Integer.parseInt(value);
                case "--warmup" -> b.warmup = Integer.parseInt(value);
                case "--parallelism" -> b.parallelism = Integer.parseInt(value);
                case "--mini-batch" -> b.miniBatch = switch (value.toLowerCase(Locale.ROOT)) {
                    case "both" -> List.of(false, true);
                    case "off" -> List.of(false);
                    case "on" -> List.of(true);
                    default -> throw new IllegalArgumentException("--mini-batch is off, on or both");
                };
                case "--split-distinct" -> b.splitDistinct = SplitDistinct.parse(value);
                case "--flink-conf" -> b.flinkOptions = FlinkOptions.parse(value);
                case "--state" -> b.state = CellStateBackend.parse(value);
                case "--recovery" -> b.recovery = value.equals("none") ? List.of() : queries(value);
                case "--recovery-at" -> b.recoveryAt = Double.parseDouble(value);
                case "--checkpoint-interval" -> b.checkpointIntervalMs = Long.parseLong(value);
                case "--partitions" -> b.partitions = Integer.parseInt(value);
                case "--seed" -> b.seed = Long.parseLong(value);
                case "--out" -> b.out = Path.of(value);
                case "--work-dir" -> b.workDir = Path.of(value);
                case "--note" -> b.note = value;
                case "--keep-output" -> b.keepOutput = switch (value) {
                    case "on" -> true;
                    case "off" -> false;
                    default -> throw new IllegalArgumentException("--keep-output is on or off");
                };
                case "--columnar-planner" -> b.columnarPlanner = switch (value) {
                    case "on" -> true;
                    case "off" -> false;
                    default -> throw new IllegalArgumentException("--columnar-planner is on or off");
                };
                case "--max-poll-records" -> b.maxPollRecords = Integer.parseInt(value);
                case "--producer-batch-size" -> b.producerBatchSize = Integer.parseInt(value);
                case "--producer-linger-ms" -> b.producerLingerMs = Integer.parseInt(value);
                case "--producer-buffer-memory" -> b.producerBufferMemory = Long.parseLong(value.replace("_", ""));
                case "--scan-batch-rows" -> b.scanBatchRows = Integer.parseInt(value);
                case "--scan-batch-time" -> b.scanBatchTimeMs = Integer.parseInt(value);
                case "--floor" -> b.floor = switch (value) {
                    case "on" -> true;
                    case "off" -> false;
                    default -> throw new IllegalArgumentException("--floor is on or off");
                };
                case "--jvm-warm-up" -> b.jvmWarmUp = JvmWarmUp.parse(value);
                case "--rate" -> b.rate = Double.parseDouble(value.replace("_", ""));
                case "--seconds" -> b.seconds = Double.parseDouble(value);
                case "--variants" -> b.variants = variants(value);
                default -> throw new IllegalArgumentException("unknown argument " + flag);
            }
        });
        b.clients = new ClientSettings(b.maxPollRecords, b.producerBatchSize, b.producerLingerMs, b.producerBufferMemory,
                b.scanBatchRows, b.scanBatchTimeMs);
        if (b.rounds < 1 || b.warmup < 0) {
            throw new IllegalArgumentException("--rounds needs at least 1, --warmup at least 0");
        }
        if (!(b.recoveryAt > 0 && b.recoveryAt < 1)) {
            throw new IllegalArgumentException("--recovery-at is a fraction between 0 and 1");
        }
        if ((b.rate > 0) != (b.seconds > 0) || b.rate < 0 || b.seconds < 0) {
            throw new IllegalArgumentException("--rate and --seconds go together, both positive");
        }
        if (b.variants.stream().anyMatch(v -> !v.plannerOptions().isEmpty()) && !b.columnarPlanner) {
            throw new IllegalArgumentException("--variants with planner options needs --columnar-planner on");
        }
        if (b.flinkOptions.options().containsKey(StateBackendOptions.STATE_BACKEND.key())) {
            // every cell checks that its job ran the backend --state names
            throw new IllegalArgumentException("the state backend is set with --state heap|rocksdb, not --flink-conf "
                    + StateBackendOptions.STATE_BACKEND.key());
        }
        if (b.floor && b.rate > 0) {
            throw new IllegalArgumentException("--floor runs over a filled topic, not with --rate");
        }
        if (b.jvmWarmUp != JvmWarmUp.OFF && b.rate > 0) {
            throw new IllegalArgumentException("--jvm-warm-up runs the job more than once over a filled topic, not with --rate");
        }
        if (b.rate > 0) {
            b.events = EventPacer.events(b.rate, b.seconds);
        }
        return b;
    }

    /**
     * The variants of {@code --variants}, stock first, then columnar, then the extra ones by id ({@link
     * VariantSpelling#list}).
     */
    static List<Variant> variants(String value) {
        return VariantSpelling.list(value, Variant::parse, Variant.STOCK, Variant.COLUMNAR);
    }

    private static List<NexmarkQuery> queries(String value) {
        return switch (value) {
            case "all" -> List.of(NexmarkQuery.values());
            case "stateless" -> Arrays.stream(NexmarkQuery.values()).filter(q -> !q.stateful).toList();
            case "stateful" -> Arrays.stream(NexmarkQuery.values()).filter(q -> q.stateful).toList();
            default -> Arrays.stream(value.split(",")).map(NexmarkQuery::byId).distinct().toList();
        };
    }

    boolean run(PrintStream console) throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Files.createDirectories(out);
        Files.createDirectories(workDir);
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        List<CellResult> results = new ArrayList<>();
        Map<NexmarkQuery, OutputDigest> expected = new HashMap<>();
        console.println("starting an embedded Kafka broker ...");
        // A machine shared with other builds can take minutes to start a broker.
        KafkaBroker.Builder brokerBuilder = KafkaBroker.builder().defaultPartitions(partitions)
                .startupTimeout(Duration.ofMinutes(5));
        String brokerJavaOpts = System.getenv("BROKER_JAVA_OPTS");
        if (brokerJavaOpts != null && !brokerJavaOpts.isBlank()) {
            for (String option : brokerJavaOpts.trim().split("\\s+")) {
                brokerBuilder.jvmArg(option);
            }
        }
        try (KafkaBroker broker = brokerBuilder.start()) {
            String input = "nexmark-input-" + stamp;
            if (fixedRate()) {
                console.printf(Locale.ROOT, "fixed rate: each cell's input, %,d events, written live at %,.0f events/s%n",
                        events, rate);
            } else {
                broker.createTopic(input, partitions);
                long fillStart = System.nanoTime();
                long bytes = NexmarkTopic.fill(broker.bootstrapServers(), input, partitions,
                        new NexmarkGenerator(NexmarkConfig.defaults(seed)), events);
                console.printf(Locale.ROOT, "input %s: %,d events, %,d bytes of JSON, written in %.1f s%n", input,
                        events, bytes, (System.nanoTime() - fillStart) / 1e9);
                if (floor) {
                    precomputeFloorTables(broker, input, stamp, console);
                }
            }
            int cell = 0;
            for (int round = 0; round < warmup + rounds; round++) {
                int counted = round < warmup ? 0 : round - warmup + 1;
                List<NexmarkQuery> order = new ArrayList<>(queries);
                java.util.Collections.rotate(order, -round);
                for (NexmarkQuery query : order) {
                    for (boolean mb : miniBatch) {
                        for (Variant variant : variants(query, round)) {
                            results.add(runCell(broker, input, query, variant, mb, 0, counted, stamp + "-" + cell++,
                                    expected, console));
                            writeReport(results, stamp, loadBefore, console, false);
                        }
                    }
                }
                if (counted == 0) {
                    continue;
                }
                List<NexmarkQuery> recoveryOrder = new ArrayList<>(recovery);
                java.util.Collections.rotate(recoveryOrder, -round);
                for (NexmarkQuery query : recoveryOrder) {
                    for (Variant variant : PairedRounds.roundOrder(variants, round)) {
                        results.add(runCell(broker, input, query, variant, false, recoveryAt, counted,
                                stamp + "-" + cell++, expected, console));
                        writeReport(results, stamp, loadBefore, console, false);
                    }
                }
            }
        }
        writeReport(results, stamp, loadBefore, console, true);
        boolean ok = results.stream().allMatch(CellResult::ok);
        if (!ok) {
            console.println("FAIL: " + results.stream().filter(r -> !r.ok()).count()
                    + " cell(s) failed or differ from stock; see the report");
        }
        return ok;
    }

    private boolean fixedRate() {
        return rate > 0;
    }

    /**
     * The variants of a query's cells in a round ({@link PairedRounds#roundOrder}): those of {@code --variants}, and
     * with {@code --floor on} a stateless query's floor cell after them.
     */
    List<Variant> variants(NexmarkQuery query, int round) {
        if (!floor || query.stateful) {
            return PairedRounds.roundOrder(variants, round);
        }
        List<Variant> withFloor = new ArrayList<>(variants);
        withFloor.add(Variant.FLOOR);
        return PairedRounds.roundOrder(withFloor, round);
    }

    /** Fills each stateless query's floor table ({@link FloorPrecompute}, a JVM of its own), before any timed cell. */
    private void precomputeFloorTables(KafkaBroker broker, String input, String stamp, PrintStream console)
            throws Exception {
        for (NexmarkQuery query : queries.stream().filter(q -> !q.stateful).toList()) {
            String tagged = "nexmark-floor-" + stamp + "-" + query.id();
            Path result = workDir.resolve("floor-" + query.id() + ".properties").toAbsolutePath();
            broker.createTopic(tagged, partitions);
            try {
                long start = System.nanoTime();
                Properties table = ChildJvm.run(FloorPrecompute.class, cellClasspath(), List.of(query.id(),
                                broker.bootstrapServers(), input, tagged,
                                FloorTable.file(workDir.toAbsolutePath(), query).toString(), result.toString()),
                        System.getenv().getOrDefault("CHILD_JAVA_OPTS", DEFAULT_CHILD_JAVA_OPTS), result,
                        workDir.resolve("floor-" + query.id() + ".log"), Duration.ofMinutes(20), query.id() + "-floor");
                console.printf(Locale.ROOT, "floor table %s: %,d of %,d input records keep an output value"
                        + " (stock Flink's bytes, by input offset), in %.1f s%n", query.id(),
                        Long.parseLong(table.getProperty("kept")), events, (System.nanoTime() - start) / 1e9);
            } finally {
                broker.deleteTopic(tagged);
            }
        }
    }

    /**
     * Writes the report of the cells run so far (after every cell, so a run cut short still leaves its data);
     * the final one also goes to the console.
     */
    private void writeReport(List<CellResult> results, String stamp, String loadBefore, PrintStream console,
                             boolean last) throws Exception {
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
        NexmarkReport report = new NexmarkReport(results, stamp, note, loadBefore, loadAfter, events, warmup, rounds,
                parallelism, checkpointIntervalMs, partitions, seed, clients);
        FixedRateReport fixed = fixedRate() ? new FixedRateReport(report, rate, seconds) : null;
        String name = (fixed != null ? "nexmark-rate-" : "nexmark-") + stamp;
        String markdown = fixed != null ? fixed.markdown() : report.markdown();
        Files.writeString(out.resolve(name + ".md"), markdown);
        Files.writeString(out.resolve(name + ".json"), fixed != null ? fixed.json() : report.json());
        Files.writeString(out.resolve(name + ".csv"), fixed != null ? fixed.csv() : report.csv());
        if (last) {
            console.println();
            console.println(markdown);
            console.println("results: " + out.resolve(name + ".md") + " (+ .json, .csv)");
        }
    }

    /**
     * The spec of the cell {@code id}: its query, variant, mini-batch setting and recovery point, and what this run's
     * options set for it (the same for every variant: split distinct aggregates, client settings, ...).
     */
    CellSpec cellSpec(String bootstrapServers, String input, NexmarkQuery query, Variant variant, boolean mb,
                      double failAt, String id) {
        // A fixed-rate cell's input is written while it runs: a topic of its own.
        String cellInput = fixedRate() ? "nexmark-input-" + id : input;
        return new CellSpec(query, variant, mb, splitDistinct.enabled(mb), flinkOptions, state, events, parallelism, checkpointIntervalMs,
                bootstrapServers, cellInput, "nexmark-out-" + id, "nexmark-" + id, failAt, rate, columnarPlanner,
                clients, workDir.resolve("checkpoints-" + id).toAbsolutePath().toString(),
                workDir.resolve("cell-" + id + ".properties").toAbsolutePath().toString(), failAt == 0 ? jvmWarmUp : JvmWarmUp.OFF);
    }

    private CellResult runCell(KafkaBroker broker, String input, NexmarkQuery query, Variant variant, boolean mb,
                               double failAt, int round, String id, Map<NexmarkQuery, OutputDigest> expected,
                               PrintStream console) {
        CellSpec spec = cellSpec(broker.bootstrapServers(), input, query, variant, mb, failAt, id);
        String outputTopic = spec.outputTopic();
        String cellInput = spec.inputTopic();
        console.printf("%-14s round %s ... ", spec.label(), round == 0 ? "warm-up" : round);
        CellResult cell;
        LiveFill fill = null;
        try {
            broker.createTopic(outputTopic, partitions);
            if (spec.jvmWarmUp() != JvmWarmUp.OFF) {
                broker.createTopic(JvmWarmUp.own(outputTopic), partitions);
            }
            if (fixedRate()) {
                broker.createTopic(cellInput, partitions);
                fill = LiveFill.start(broker.bootstrapServers(), cellInput, partitions, seed, events, rate,
                        FixedRateRun.runningMarker(spec));
            }
            Properties measured = runChild(spec, workDir.resolve("cell-" + id + ".log"));
            if (fill != null) {
                measured.setProperty("fillSeconds", Double.toString(fill.await()));
            }
            TopicReport report = TopicVerifier.forTopic(broker.bootstrapServers(), outputTopic)
                    .keepRecords(true).timeout(Duration.ofMinutes(5)).read();
            List<String> entries = OutputDigest.entries(query, report);
            OutputDigest digest = OutputDigest.of(entries);
            if (keepOutput) {
                Files.write(workDir.resolve("cell-" + id + ".output"), entries);
            }
            String verdict = verdict(query, variant, digest, entries, report, expected);
            cell = CellResult.of(spec, round, measured, digest, verdict);
            console.printf(Locale.ROOT, "%.2f s, %,.0f events/s, CPU %.2f s/M events, %s, %s, output %,d entries %s: %s%n",
                    cell.jobSeconds(), cell.eventsPerSecond(), cell.cpuSecondsPerMillionEvents(), cell.checkpoints(),
                    cell.sinkPath(), digest.entries(), digest.sha256(), verdict);
            if (query.output == NexmarkQuery.Output.CLOSED_WINDOW_BIDS && inputBids != null) {
                console.println("               " + inputBids.share(entries));
            }
            cell.checkpointByVertex().lines()
                    .forEach(line -> console.println("               checkpoints by task: " + line));
            if (measured.getProperty("cpuByThread") != null) {
                console.println("               CPU s by thread group: " + measured.getProperty("cpuByThread"));
            }
            if (failAt > 0) {
                console.printf(Locale.ROOT, "               failure: noticed %.2f s, restart %.2f s, first read %s s,"
                                + " caught up %.2f s, %,d records replayed, checkpoint %d restored (last completed at"
                                + " the failure: %d, killed %s ms after it completed)%n",
                        cell.noticedSeconds(), cell.restartSeconds(), measured.getProperty("firstReadSeconds"),
                        cell.recoverySeconds(), cell.recordsReplayed(), cell.restoredCheckpoint(),
                        cell.checkpointAtFailure(), measured.getProperty("killAfterCheckpointMillis"));
                console.println("               restart by task, s after the kill: "
                        + measured.getProperty("restartByTask"));
            }
        } catch (Exception e) {
            String reason = ChildJvm.failureReason(Path.of(spec.resultFile()));
            String message = reason != null ? reason + "\n" + e.getMessage() : e.getMessage();
            cell = CellResult.failed(spec, round, message);
            console.println("FAIL: " + message);
        } finally {
            closeFill(fill);
            broker.deleteTopic(outputTopic);
            if (spec.jvmWarmUp() != JvmWarmUp.OFF) {
                broker.deleteTopic(JvmWarmUp.own(outputTopic));
            }
            if (fixedRate()) {
                broker.deleteTopic(cellInput);
            }
        }
        return cell;
    }

    /**
     * OK if the output matches the query's stock result (the first stock cell's sets it); q12's, in a fixed-rate run,
     * if it counts every bid of the input exactly once ({@link InputBids#mismatch}); in a bounded run, q12's is not
     * compared (its windows do not fire in so short a job; {@link #Q12_BOUNDED}) but still FAILs if it counts a
     * bidder more often than it bid ({@link InputBids#violation}). FAIL otherwise.
     */
    private String verdict(NexmarkQuery query, Variant variant, OutputDigest digest, List<String> entries,
                           TopicReport report, Map<NexmarkQuery, OutputDigest> expected) {
        if (!report.partitionsWithOpenTransactions().isEmpty()) {
            return "FAIL: transactions left open on partitions " + report.partitionsWithOpenTransactions();
        }
        if (query.output == NexmarkQuery.Output.CLOSED_WINDOW_BIDS) {
            if (inputBids == null) {
                inputBids = InputBids.of(new NexmarkGenerator(NexmarkConfig.defaults(seed)), events);
            }
            if (fixedRate()) {
                String mismatch = inputBids.mismatch(entries);
                return mismatch == null ? "OK" : "FAIL: " + mismatch;
            }
            String violation = inputBids.violation(entries);
            return violation == null ? CellResult.NOT_COMPARED + Q12_BOUNDED + " (" + inputBids.share(entries) + ")"
                    : "FAIL: " + violation;
        }
        if (digest.entries() == 0) {
            return "FAIL: empty result";
        }
        OutputDigest stock = variant.equals(Variant.STOCK) ? expected.putIfAbsent(query, digest) : expected.get(query);
        if (stock == null) {
            return variant.equals(Variant.STOCK) ? "OK" : "FAIL: no stock result to compare with";
        }
        return stock.equals(digest) ? "OK"
                : "FAIL: output differs from stock (" + digest.entries() + " entries " + digest.sha256()
                        + ", stock " + stock.entries() + " " + stock.sha256() + ")";
    }

    private static void closeFill(LiveFill fill) {
        if (fill == null) {
            return;
        }
        try {
            fill.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Every cell's JVM plans with the same planner: the planner jar with the columnar stage, the loader without. */
    private String cellClasspath() {
        return columnarPlanner ? PlannerClasspath.forCells() : System.getProperty("java.class.path");
    }

    private Properties runChild(CellSpec spec, Path log) throws Exception {
        return ChildJvm.run(CellRunner.class, cellClasspath(), spec.toArgs(),
                cellJavaOptions(System.getenv("CHILD_JAVA_OPTS"), spec.variant()),
                Path.of(spec.resultFile()), log, Duration.ofMinutes(20), spec.label());
    }

    /**
     * A cell JVM's options: {@code CHILD_JAVA_OPTS} ({@code childJavaOpts}, null if unset, for the default), then the
     * variant's JVM properties, last so that they hold for its cells whatever the environment sets. A recovery cell's
     * JVM passes them on to its cluster's processes ({@link RecoveryCell}).
     */
    static String cellJavaOptions(String childJavaOpts, Variant variant) {
        List<String> options = new ArrayList<>(List.of(childJavaOpts == null ? DEFAULT_CHILD_JAVA_OPTS : childJavaOpts));
        options.addAll(variant.jvmOptions());
        return String.join(" ", options);
    }
}
