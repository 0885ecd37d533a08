package io.columnarkafka.bench.pipeline;

import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.MachineLoad;
import io.columnarkafka.bench.ThreadCpu;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The pipeline benchmark's report: every run, and per counted round the paired ratios of three comparisons
 * (columnar over stock, the measure; floor over stock, the most any codec can reach in this job;
 * columnar over floor, how much of that is reached), throughput and CPU per record, summarized as median,
 * min and max, and the same for the steady-state rate ({@code SteadyFigures}: no start-up, no final checkpoint
 * wait); and the CPU each codec adds to the floor per record, and stock's over columnar's. A round with a failed run gives no ratio
 * for the comparisons that run is in, and the report says FAIL.
 */
final class PipelineReport {
    /** The target for the Kafka → Kafka EXACTLY_ONCE bid pipeline. */
    static final double TARGET = 2.0;

    /** A paired comparison: {@code over}'s records/s over {@code under}'s, and {@code under}'s CPU over {@code over}'s. */
    record Comparison(PipelineVariant over, PipelineVariant under, String meaning) {
        String name() {
            return label(over) + " vs " + label(under);
        }
    }

    static final Comparison COLUMNAR_VS_STOCK = new Comparison(PipelineVariant.COLUMNAR, PipelineVariant.STOCK,
            "the issue's measure");
    static final Comparison FLOOR_VS_STOCK = new Comparison(PipelineVariant.FLOOR, PipelineVariant.STOCK,
            "the ceiling: the most any codec can gain over stock's in this job");
    static final Comparison COLUMNAR_VS_FLOOR = new Comparison(PipelineVariant.COLUMNAR, PipelineVariant.FLOOR,
            "how close columnar is to the ceiling (1.0 = a codec costing nothing)");
    static final List<Comparison> COMPARISONS = List.of(COLUMNAR_VS_STOCK, FLOOR_VS_STOCK, COLUMNAR_VS_FLOOR);

    private final int bids;
    private final int rounds;
    private final int parallelism;
    private final int partitions;
    private final long checkpointInterval;
    private final JvmWarmUp jvmWarmUp;
    private final String note;
    private final double loadBefore;
    private final double loadAfter;
    private final List<PipelineResult> results;

    PipelineReport(int bids, int rounds, int parallelism, int partitions, long checkpointInterval, JvmWarmUp jvmWarmUp,
            String note, double loadBefore, double loadAfter, List<PipelineResult> results) {
        this.bids = bids;
        this.rounds = rounds;
        this.parallelism = parallelism;
        this.partitions = partitions;
        this.checkpointInterval = checkpointInterval;
        this.jvmWarmUp = jvmWarmUp;
        this.note = note;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.results = results;
    }

    private static String label(PipelineVariant variant) {
        return variant.name().toLowerCase(Locale.ROOT);
    }

    /** The round's run of {@code variant} if it ran and passed its checks. */
    private Optional<PipelineResult> passed(PipelineVariant variant, int round) {
        return results.stream().filter(r -> r.variant == variant && r.round == round && r.passed()).findFirst();
    }

    boolean allPassed() {
        return results.stream().allMatch(PipelineResult::passed);
    }

    /** Records/s of {@code c.over} over {@code c.under} in each counted round whose two runs passed, sorted. */
    double[] throughputRatios(Comparison c) {
        return ratios(c, r -> r.wallSeconds);
    }

    /**
     * Steady-state records/s of {@code c.over} over {@code c.under} in each counted round whose two runs passed and
     * were measured, sorted.
     */
    double[] steadyThroughputRatios(Comparison c) {
        return ratios(c, r -> 1 / r.steady.eventsPerSecond());
    }

    /** CPU per record of {@code c.under} over {@code c.over} in each counted round whose two runs passed, sorted. */
    double[] cpuRatios(Comparison c) {
        return ratios(c, r -> r.cpuSeconds);
    }

    /** The same records in both runs: a ratio of rates or of costs per record is {@code cost(under) / cost(over)}. */
    private double[] ratios(Comparison c, ToDoubleFunction<PipelineResult> cost) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Optional<PipelineResult> over = passed(c.over, round);
            Optional<PipelineResult> under = passed(c.under, round);
            if (over.isPresent() && under.isPresent()) {
                double ratio = cost.applyAsDouble(under.get()) / cost.applyAsDouble(over.get());
                if (!Double.isNaN(ratio)) {
                    ratios.add(ratio);
                }
            }
        }
        return ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    /**
     * The CPU per record {@code variant}'s codec adds to the floor: its run's µs per record minus the floor's
     * in each counted round whose two runs passed, sorted.
     */
    double[] codecMicrosPerRecord(PipelineVariant variant) {
        List<Double> extra = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Optional<PipelineResult> run = passed(variant, round);
            Optional<PipelineResult> floor = passed(PipelineVariant.FLOOR, round);
            if (run.isPresent() && floor.isPresent()) {
                extra.add(run.get().cpuMicrosPerRecord(bids) - floor.get().cpuMicrosPerRecord(bids));
            }
        }
        return extra.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    /**
     * Stock's codec CPU over columnar's ({@link #codecMicrosPerRecord}) in each counted round whose three runs
     * passed and where columnar costs more than the floor (else the ratio means nothing), sorted.
     */
    double[] codecCpuRatios() {
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Optional<PipelineResult> stock = passed(PipelineVariant.STOCK, round);
            Optional<PipelineResult> columnar = passed(PipelineVariant.COLUMNAR, round);
            Optional<PipelineResult> floor = passed(PipelineVariant.FLOOR, round);
            if (stock.isPresent() && columnar.isPresent() && floor.isPresent()
                    && columnar.get().cpuSeconds > floor.get().cpuSeconds) {
                ratios.add((stock.get().cpuSeconds - floor.get().cpuSeconds)
                        / (columnar.get().cpuSeconds - floor.get().cpuSeconds));
            }
        }
        return ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    static double median(double[] sorted) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static String summary(double[] sorted) {
        return sorted.length == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f (%.2f – %.2f, %d rounds)",
                median(sorted), sorted[0], sorted[sorted.length - 1], sorted.length);
    }

    /** What the target column says of a comparison's records/s ratio. */
    private String verdict(Comparison c, double[] throughput) {
        boolean reached = throughput.length > 0 && median(throughput) >= TARGET;
        if (c == COLUMNAR_VS_STOCK) {
            return "≥ " + TARGET + (allPassed() && reached ? " met" : " **not met**");
        }
        if (c == FLOOR_VS_STOCK && throughput.length > 0) {
            return reached ? "≥ " + TARGET + ": reachable by a codec" : "**< " + TARGET + ": no codec reaches " + TARGET
                    + " here**";
        }
        return "";
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# Pipeline benchmark: Kafka JSON bids → Kafka, EXACTLY_ONCE\n\n");
        if (!note.isEmpty()) {
            md.append("**").append(note).append("**\n\n");
        }
        md.append(String.format(Locale.ROOT, "%,d Nexmark bids (Flink JSON) in a topic of %d partitions on one embedded"
                        + " broker; each run reads all of them (bounded, earliest → latest) and writes every bid to a"
                        + " fresh topic, EXACTLY_ONCE, parallelism %d, checkpoints every %d ms, in a JVM of its"
                        + " own. Variants: columnar = %s; stock = %s; floor = %s. The floor has the stock job's source,"
                        + " sink, Kafka settings and topology, writes the same records (every bid) and the same bytes"
                        + " (the input is Flink JSON, which columnar and stock re-encode byte for byte), and runs no"
                        + " codec: its cost is what Kafka's clients and Flink's runtime cost any codec here. Round 0 is"
                        + " a warm-up (not counted); the order of the variants rotates every round. Every output topic,"
                        + " the floor's too, is read back read_committed and must hold each input value exactly once.%n%n",
                bids, partitions, parallelism, checkpointInterval, PipelineVariant.COLUMNAR.description,
                PipelineVariant.STOCK.description, PipelineVariant.FLOOR.description));
        if (jvmWarmUp == JvmWarmUp.ONCE) {
            md.append("JVM warm-up on: each run's JVM first ran its job over the same input into a topic of its own,"
                    + " unmeasured, so the measured job meets a JIT that has compiled Flink's, Kafka's and the variant's"
                    + " code, as a long-running TaskManager's has.\n\n");
        } else if (jvmWarmUp == JvmWarmUp.SETTLED) {
            md.append(String.format(Locale.ROOT, "JVM warm-up settled: each run's JVM ran its job over the same input"
                    + " into a topic of its own, unmeasured, again until one run spent at most %.0f %% of its wall time"
                    + " compiling (at most %d runs), so the measured job meets a JIT as quiet as a TaskManager's that"
                    + " has run for minutes; the table of every run gives its warm-up runs and the JIT's compile time"
                    + " (all compiler threads, elapsed) in the measured job.%n%n", JvmWarmUp.SETTLED_JIT_SHARE * 100, JvmWarmUp.SETTLED_MAX_JOBS));
        }
        md.append(MachineLoad.sentence(loadBefore, loadAfter)).append(" CPU per record is steadier than wall time.\n\n");
        md.append("Records/s = bids / wall time (submission to the job's result), the measure the target applies to;"
                + " steady-state records/s = the rate between 10 % and 90 % of the input read by the sources and of the"
                + " output sent by the sink, the slower of the two (no start-up, no final checkpoint wait; see"
                + " docs/nexmark.md, \"Steady-state throughput\"); fixed s = wall s − bids / steady rate.\n\n");
        md.append("## Paired per-round ratios\n\n| comparison | measure | median (min – max) | target |\n|---|---|---|---|\n");
        for (Comparison c : COMPARISONS) {
            double[] throughput = throughputRatios(c);
            md.append("| ").append(c.name()).append(": ").append(c.meaning).append(" | records/s, ").append(label(c.over))
                    .append(" ÷ ").append(label(c.under)).append(" | ").append(summary(throughput)).append(" | ")
                    .append(verdict(c, throughput)).append(" |\n");
            md.append("| | steady-state records/s, ").append(label(c.over)).append(" ÷ ").append(label(c.under))
                    .append(" | ").append(summary(steadyThroughputRatios(c))).append(" | |\n");
            md.append("| | CPU per record, ").append(label(c.under)).append(" ÷ ").append(label(c.over)).append(" | ")
                    .append(summary(cpuRatios(c))).append(" | |\n");
        }
        md.append("| codec CPU: a run's µs per record minus the floor's | stock | ")
                .append(summary(codecMicrosPerRecord(PipelineVariant.STOCK))).append(" | |\n");
        md.append("| | columnar | ").append(summary(codecMicrosPerRecord(PipelineVariant.COLUMNAR))).append(" | |\n");
        md.append("| | codec CPU, stock ÷ columnar (rounds where columnar costs more than the floor) | ")
                .append(summary(codecCpuRatios())).append(" | |\n");
        md.append("| verification | read_committed, every run | ")
                .append(allPassed() ? "all runs OK" : "**FAIL** (see below)").append(" | |\n");
        boolean warmed = jvmWarmUp != JvmWarmUp.OFF;
        md.append("\n## Every run, in the order run\n\n| round | variant | wall s | records/s | steady records/s"
                        + " (limited by) | fixed s | CPU µs/record |" + (warmed ? " warm-up runs | JIT s in the job |" : "")
                        + " read_committed |\n")
                .append("|---:|---|---:|---:|---:|---:|---:|").append(warmed ? "---:|---:|" : "").append("---|\n");
        for (PipelineResult r : results) {
            md.append(String.format(Locale.ROOT, "| %d%s | %s | %.2f | %,.0f | %s (%s) | %s | %.2f |", r.round,
                    r.round == 0 ? " (warm-up)" : "", label(r.variant), r.wallSeconds,
                    r.recordsPerSecond(bids), Double.isNaN(r.steady.eventsPerSecond()) ? "–"
                            : String.format(Locale.ROOT, "%,.0f", r.steady.eventsPerSecond()), r.steady.limitedBy(),
                    Double.isNaN(r.fixedSeconds(bids)) ? "–" : String.format(Locale.ROOT, "%.2f", r.fixedSeconds(bids)),
                    r.cpuMicrosPerRecord(bids)));
            if (warmed) {
                double jit = r.warmUp.measuredJitSeconds();
                md.append(String.format(Locale.ROOT, " %d | %s |", r.warmUp.jobs(),
                        Double.isNaN(jit) ? "–" : String.format(Locale.ROOT, "%.2f", jit)));
            }
            md.append(' ').append(r.passed() ? "OK" : "FAIL: " + r.failure()).append(" |\n");
        }
        if (results.stream().anyMatch(r -> r.cpuByThread != null)) {
            md.append(threadTable());
        }
        return md.toString();
    }

    /** CPU per record by thread group ({@code BENCH_THREAD_CPU=1}); "rest" is GC, the JVM, Flink's other threads. */
    private String threadTable() {
        List<String> groups = List.of(ThreadCpu.TASK_THREADS, ThreadCpu.FETCHER_THREADS, ThreadCpu.PRODUCER_IO_THREADS,
                ThreadCpu.JIT);
        StringBuilder md = new StringBuilder("\n## CPU µs per record by thread group (BENCH_THREAD_CPU=1)\n\n"
                + "| round | variant | task threads | fetcher threads | producer I/O threads | JIT | rest | all threads |\n"
                + "|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (PipelineResult r : results) {
            if (r.cpuByThread == null) {
                continue;
            }
            Map<String, Double> seconds = ThreadCpu.parse(r.cpuByThread);
            double all = seconds.values().stream().mapToDouble(Double::doubleValue).sum();
            double named = 0;
            md.append("| ").append(r.round).append(" | ").append(label(r.variant));
            for (String group : groups) {
                double s = seconds.getOrDefault(group, 0.0);
                named += s;
                md.append(String.format(Locale.ROOT, " | %.2f", s * 1e6 / bids));
            }
            md.append(String.format(Locale.ROOT, " | %.2f | %.2f |%n", (all - named) * 1e6 / bids, all * 1e6 / bids));
        }
        return md.toString();
    }

    String json() {
        StringBuilder json = new StringBuilder("{\n");
        json.append(String.format(Locale.ROOT, "  \"bids\": %d, \"rounds\": %d, \"parallelism\": %d, \"partitions\": %d,"
                        + " \"checkpointIntervalMs\": %d, \"jvmWarmUp\": %b, \"jvmWarmUpMode\": \"%s\", \"loadBefore\": %.2f, \"loadAfter\": %.2f,%n",
                bids, rounds, parallelism, partitions, checkpointInterval, jvmWarmUp != JvmWarmUp.OFF, jvmWarmUp.flag(),
                loadBefore, loadAfter));
        // columnar vs stock under the keys earlier reports used
        json.append("  \"throughputRatios\": ").append(Arrays.toString(throughputRatios(COLUMNAR_VS_STOCK)))
                .append(",\n  \"cpuRatios\": ").append(Arrays.toString(cpuRatios(COLUMNAR_VS_STOCK)))
                .append(",\n  \"comparisons\": [\n");
        for (int i = 0; i < COMPARISONS.size(); i++) {
            Comparison c = COMPARISONS.get(i);
            json.append(String.format(Locale.ROOT, "    {\"over\": \"%s\", \"under\": \"%s\", \"throughputRatios\": %s,"
                            + " \"steadyThroughputRatios\": %s, \"cpuRatios\": %s}%s%n", c.over, c.under,
                    Arrays.toString(throughputRatios(c)), Arrays.toString(steadyThroughputRatios(c)),
                    Arrays.toString(cpuRatios(c)), i + 1 < COMPARISONS.size() ? "," : ""));
        }
        json.append("  ],\n  \"codecMicrosPerRecord\": {\"STOCK\": ")
                .append(Arrays.toString(codecMicrosPerRecord(PipelineVariant.STOCK))).append(", \"COLUMNAR\": ")
                .append(Arrays.toString(codecMicrosPerRecord(PipelineVariant.COLUMNAR)))
                .append("},\n  \"codecCpuRatios\": ").append(Arrays.toString(codecCpuRatios()))
                .append(",\n  \"runs\": [\n");
        for (int i = 0; i < results.size(); i++) {
            PipelineResult r = results.get(i);
            json.append(String.format(Locale.ROOT, "    {\"round\": %d, \"variant\": \"%s\", \"wallSeconds\": %s,"
                            + " \"steadyRecordsPerSecond\": %s, \"steadyReadRecordsPerSecond\": %s,"
                            + " \"steadyWrittenRecordsPerSecond\": %s,"
                            + " \"cpuSeconds\": %s, \"cpuByThread\": %s, \"warmUpJobs\": %d, \"jitSeconds\": %s,"
                            + " \"ok\": %s, \"failure\": %s}%s%n",
                    r.round, r.variant, number(r.wallSeconds), number(r.steady.eventsPerSecond()),
                    number(r.steady.readEventsPerSecond()), number(r.steady.writtenEventsPerSecond()),
                    number(r.cpuSeconds), string(r.cpuByThread), r.warmUp.jobs(), number(r.warmUp.measuredJitSeconds()),
                    r.passed(), string(r.failure()), i + 1 < results.size() ? "," : ""));
        }
        return json.append("  ]\n}\n").toString();
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String string(String value) {
        return value == null ? "null"
                : "\"" + value.replace("\\", "\\\\").replace("\"", "'").replace("\n", " ") + "\"";
    }
}
