package io.columnarkafka.bench.pipeline;

import io.columnarkafka.bench.MachineLoad;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The pipeline benchmark's report: every run, and per counted round the paired ratios columnar over
 * stock (throughput, and stock over columnar CPU per record), summarized as median, min and max. A round
 * with a failed run gives no ratio and the report says FAIL.
 */
final class PipelineReport {
    /** The target for the Kafka → Kafka EXACTLY_ONCE bid pipeline. */
    static final double TARGET = 2.0;

    private final int bids;
    private final int rounds;
    private final int parallelism;
    private final int partitions;
    private final long checkpointInterval;
    private final String note;
    private final double loadBefore;
    private final double loadAfter;
    private final List<PipelineResult> results;

    PipelineReport(int bids, int rounds, int parallelism, int partitions, long checkpointInterval, String note,
            double loadBefore, double loadAfter, List<PipelineResult> results) {
        this.bids = bids;
        this.rounds = rounds;
        this.parallelism = parallelism;
        this.partitions = partitions;
        this.checkpointInterval = checkpointInterval;
        this.note = note;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.results = results;
    }

    private PipelineResult find(PipelineVariant variant, int round) {
        return results.stream().filter(r -> r.variant == variant && r.round == round).findFirst().orElseThrow();
    }

    boolean allPassed() {
        return results.stream().allMatch(PipelineResult::passed);
    }

    /** Columnar over stock records/s in each counted round whose runs both passed. */
    private double[] throughputRatios() {
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            PipelineResult columnar = find(PipelineVariant.COLUMNAR, round);
            PipelineResult stock = find(PipelineVariant.STOCK, round);
            if (columnar.passed() && stock.passed()) {
                ratios.add(stock.wallSeconds / columnar.wallSeconds);
            }
        }
        return ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    /** Stock over columnar CPU per record in each counted round whose runs both passed. */
    private double[] cpuRatios() {
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            PipelineResult columnar = find(PipelineVariant.COLUMNAR, round);
            PipelineResult stock = find(PipelineVariant.STOCK, round);
            if (columnar.passed() && stock.passed()) {
                ratios.add(stock.cpuSeconds / columnar.cpuSeconds);
            }
        }
        return ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    private static double median(double[] sorted) {
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

    String markdown() {
        StringBuilder md = new StringBuilder("# Pipeline benchmark: Kafka JSON bids → Kafka, EXACTLY_ONCE\n\n");
        if (!note.isEmpty()) {
            md.append("**").append(note).append("**\n\n");
        }
        md.append(String.format(Locale.ROOT, "%,d Nexmark bids (Flink JSON) in a topic of %d partitions on one embedded"
                        + " broker; each run reads all of them (bounded, earliest → latest) and writes every bid as Flink"
                        + " JSON to a fresh topic, EXACTLY_ONCE, parallelism %d, checkpoints every %d ms, in a JVM of its"
                        + " own. Variants: columnar = %s; stock = %s. Round 0 is a warm-up (not counted); the order"
                        + " of the variants rotates every round. Every output topic is read back read_committed and must"
                        + " hold each input value exactly once.%n%n",
                bids, partitions, parallelism, checkpointInterval, PipelineVariant.COLUMNAR.description,
                PipelineVariant.STOCK.description));
        md.append(MachineLoad.sentence(loadBefore, loadAfter)).append(" CPU per record is steadier than wall time.\n\n");
        md.append("## Paired per-round ratios (columnar vs stock)\n\n| measure | median (min – max) | target |\n|---|---|---|\n");
        double[] throughput = throughputRatios();
        md.append("| records/s, columnar ÷ stock | ").append(summary(throughput)).append(" | ≥ ")
                .append(TARGET).append(allPassed() && median(throughput) >= TARGET ? " met" : " **not met**").append(" |\n");
        md.append("| CPU per record, stock ÷ columnar | ").append(summary(cpuRatios())).append(" | |\n");
        md.append("| verification | ").append(allPassed() ? "all runs OK" : "**FAIL** (see below)").append(" | |\n");
        md.append("\n## Every run, in the order run\n\n| round | variant | wall s | records/s | CPU µs/record | read_committed |\n")
                .append("|---:|---|---:|---:|---:|---|\n");
        for (PipelineResult r : results) {
            md.append(String.format(Locale.ROOT, "| %d%s | %s | %.2f | %,.0f | %.2f | %s |%n", r.round,
                    r.round == 0 ? " (warm-up)" : "", r.variant.name().toLowerCase(Locale.ROOT), r.wallSeconds,
                    r.recordsPerSecond(bids), r.cpuMicrosPerRecord(bids), r.passed() ? "OK" : "FAIL: " + r.failure()));
        }
        return md.toString();
    }

    String json() {
        StringBuilder json = new StringBuilder("{\n");
        json.append(String.format(Locale.ROOT, "  \"bids\": %d, \"rounds\": %d, \"parallelism\": %d, \"partitions\": %d,"
                        + " \"checkpointIntervalMs\": %d, \"loadBefore\": %.2f, \"loadAfter\": %.2f,%n",
                bids, rounds, parallelism, partitions, checkpointInterval, loadBefore, loadAfter));
        json.append("  \"throughputRatios\": ").append(Arrays.toString(throughputRatios()))
                .append(",\n  \"cpuRatios\": ").append(Arrays.toString(cpuRatios())).append(",\n  \"runs\": [\n");
        for (int i = 0; i < results.size(); i++) {
            PipelineResult r = results.get(i);
            json.append(String.format(Locale.ROOT, "    {\"round\": %d, \"variant\": \"%s\", \"wallSeconds\": %s,"
                            + " \"cpuSeconds\": %s, \"ok\": %s, \"failure\": %s}%s%n",
                    r.round, r.variant, number(r.wallSeconds), number(r.cpuSeconds), r.passed(),
                    r.passed() ? "null" : "\"" + r.failure().replace("\\", "\\\\").replace("\"", "'").replace("\n", " ") + "\"",
                    i + 1 < results.size() ? "," : ""));
        }
        return json.append("  ]\n}\n").toString();
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, "%.3f", value);
    }
}
