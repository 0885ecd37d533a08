package io.columnarkafka.bench.sink;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;

/**
 * The benchmark's results as a Markdown report, raw JSON and CSV. Every run is listed, the warm-up round
 * and failed runs included (a failed run is a FAIL row, never a missing one); medians and paired ratios
 * count only the passed runs of rounds 1 and up.
 */
record ResultReport(
        List<RunResult> results,
        Map<String, String> profiles,
        String stamp,
        String note,
        String loadBefore,
        String loadAfter,
        Map<String, String> producer,
        int batchSize,
        boolean pooledInput,
        int parallelism,
        long checkpointIntervalMs,
        int partitions,
        TransactionNamingStrategy transactionNaming) {

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Sink benchmark ").append(stamp).append("\n\n");
        if (!note.isEmpty()) {
            md.append("**").append(note).append("**\n\n");
        }
        long failed = results.stream().filter(r -> !r.ok()).count();
        md.append(failed == 0 ? "**Every run passed** (verifier, byte parity, Arrow memory, SQL admission).\n\n"
                : "**FAIL: " + failed + " run(s) failed**; see the FAIL rows below.\n\n");
        md.append(String.format(Locale.ROOT, "%,d rows per run, each to a fresh topic of %d partitions"
                        + " on one embedded broker; parallelism %d, checkpoints every %d ms, EXACTLY_ONCE"
                        + " (KafkaSink transaction naming %s), batches of %d rows; producer %s."
                        + " Each run in a JVM of its own (%s). Input of (a)–(d): %s. SQL variants: a bounded"
                        + " datagen table of Bid-shaped random rows, `INSERT INTO bids SELECT * FROM bids_src`.%n%n",
                rows(), partitions, parallelism, checkpointIntervalMs, transactionNaming, batchSize, producer,
                SinkBenchmark.childJavaOpts(),
                pooledInput
                        ? "pooled (every variant takes its rows from one batch built once per subtask: RowData for (a),"
                                + " an Arrow batch sliced without copying for (b), JSON bytes for (c) and (d); each"
                                + " pass over the pool moves dateTime one day on, so every record's id is its own)"
                        : "generated ((a) and (b) generate every row as they go; (c) and (d) use pre-built JSON)"));
        md.append(String.format("Round 0 is a warm-up and is not counted; the order of the runs rotates by one per"
                + " round. Machine: %d cores; load average (1/5/15 min) before `%s`, after `%s`.%n%n",
                Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter));
        md.append(medians());
        md.append(pairedRatios());
        md.append("\n## Every run, in the order run (round 0: warm-up, not counted)\n\n");
        md.append("| round | variant | object reuse | status | wall s | records/s | first→last records/s"
                + " | Flink JVM CPU µs/record (broker) | checkpoints | checkpoint e2e min/avg/max ms | read_committed |\n");
        md.append("|---:|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (RunResult r : results) {
            if (!r.ok() && Double.isNaN(r.wallSeconds())) {
                md.append(String.format(Locale.ROOT, "| %s | (%s) %s | %s | **%s** | | | | | | | %s |%n",
                        round(r), r.spec().variant().letter(), r.spec().variant().description(), reuse(r),
                        r.status(), r.verdict()));
                continue;
            }
            md.append(String.format(Locale.ROOT, "| %s | (%s) %s | %s | %s | %.2f | %,.0f | %s | %.2f (%.2f) | %d%s | %d / %d / %d | %s |%n",
                    round(r), r.spec().variant().letter(), r.spec().variant().description(), reuse(r),
                    r.ok() ? "OK" : "**" + r.status() + "**",
                    r.wallSeconds(), r.recordsPerSecond(),
                    Double.isNaN(r.activeSeconds()) ? "n/a" : String.format(Locale.ROOT, "%,.0f", r.activeRecordsPerSecond()),
                    r.cpuMicrosPerRecord(), r.brokerCpuMicrosPerRecord(),
                    r.checkpoints(), r.checkpointsFailed() > 0 ? " (" + r.checkpointsFailed() + " failed)" : "",
                    r.checkpointMinMs(), r.checkpointAvgMs(), r.checkpointMaxMs(),
                    r.spec().variant().writesKafka()
                            ? String.format(Locale.ROOT, "%,d records, %d dup, %d missing%s", r.committedRecords(),
                                    r.duplicates(), r.missing(),
                                    r.parityMismatches() > 0 ? ", " + r.parityMismatches() + " differ from Flink's JSON"
                                            : r.parityMismatches() == 0 ? ", bytes = Flink's" : "")
                            : "n/a"));
        }
        md.append("\nFlink JVM CPU µs/record: CPU time of the run's JVM over the job (all its threads: Flink, the"
                + " producers, GC, JIT) per row; the broker is a process of its own, in brackets its CPU over the"
                + " run. On a shared machine CPU per row is the steadier figure; records/s moves with the load.\n");
        md.append("\n(d) has no Flink: its \"checkpoints\" are its transaction commits and their durations.\n");
        results.stream().filter(r -> !r.checkpointFailures().isEmpty()).forEach(r -> md.append(String.format(
                "%nFailed checkpoints of round %s (%s) %s: %s (a checkpoint triggered while the bounded job was"
                        + " finishing is declined by the closing tasks; the job's data is unaffected)%n",
                round(r), r.spec().variant().letter(), reuse(r), r.checkpointFailures())));
        results.stream().filter(r -> !r.sinkOperator().isEmpty() && r.spec().variant().kind() == Variant.Kind.SQL)
                .map(r -> "(" + r.spec().variant().letter() + ") " + r.sinkOperator()).distinct()
                .forEach(line -> md.append("\nSQL writing operators: ").append(line).append('\n'));
        if (!profiles.isEmpty()) {
            md.append("\n## Profiles (JFR, object reuse off)\n\n");
            profiles.forEach((v, file) -> md.append("- (").append(v).append(") `").append(file).append("`\n"));
        }
        return md.toString();
    }

    private static String round(RunResult r) {
        return r.round() < 0 ? "JFR" : r.round() == 0 ? "0 (warm-up)" : Integer.toString(r.round());
    }

    private static String reuse(RunResult r) {
        return r.spec().variant().hasObjectReuseSetting() ? (r.spec().objectReuse() ? "on" : "off") : "n/a";
    }

    /** The medians of one variant and object-reuse setting over its counted, passed runs. */
    record Median(int runs, int failed, double recordsPerSecond, double minRecordsPerSecond,
                  double maxRecordsPerSecond, double activeRecordsPerSecond, double cpuMicrosPerRecord,
                  double brokerCpuMicrosPerRecord) {}

    private Optional<Median> find(Variant variant, boolean reuse) {
        List<RunResult> all = results.stream()
                .filter(r -> r.round() > 0 && r.spec().variant() == variant
                        && (!variant.hasObjectReuseSetting() || r.spec().objectReuse() == reuse))
                .toList();
        if (all.isEmpty()) {
            return Optional.empty();
        }
        List<RunResult> runs = all.stream().filter(RunResult::ok).toList();
        int failed = all.size() - runs.size();
        if (runs.isEmpty()) {
            return Optional.of(new Median(0, failed, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN));
        }
        return Optional.of(new Median(runs.size(), failed,
                median(runs, RunResult::recordsPerSecond),
                runs.stream().mapToDouble(RunResult::recordsPerSecond).min().orElseThrow(),
                runs.stream().mapToDouble(RunResult::recordsPerSecond).max().orElseThrow(),
                median(runs, RunResult::activeRecordsPerSecond),
                median(runs, RunResult::cpuMicrosPerRecord),
                median(runs, RunResult::brokerCpuMicrosPerRecord)));
    }

    private static double median(List<RunResult> runs, ToDoubleFunction<RunResult> metric) {
        double[] values = runs.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }

    private String medians() {
        StringBuilder md = new StringBuilder("## Medians over the counted rounds\n\n");
        md.append("| variant | object reuse | status | runs | records/s (median) | min – max | first→last records/s"
                + " | Flink JVM CPU µs/record (broker) |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|\n");
        for (Variant variant : Variant.values()) {
            for (boolean reuse : variant.hasObjectReuseSetting() ? List.of(false, true) : List.of(false)) {
                find(variant, reuse).ifPresent(m -> md.append(String.format(Locale.ROOT,
                        "| (%s) %s | %s | %s | %d | %s | %s | %s | %s |%n",
                        variant.letter(), variant.description(),
                        variant.hasObjectReuseSetting() ? (reuse ? "on" : "off") : "n/a",
                        m.failed() == 0 ? "OK" : "**FAIL (" + m.failed() + " of " + (m.runs() + m.failed()) + " runs)**",
                        m.runs(), rate(m.recordsPerSecond()),
                        rate(m.minRecordsPerSecond()) + " – " + rate(m.maxRecordsPerSecond()),
                        rate(m.activeRecordsPerSecond()),
                        Double.isNaN(m.cpuMicrosPerRecord()) ? "n/a" : String.format(Locale.ROOT, "%.2f (%.2f)",
                                m.cpuMicrosPerRecord(), m.brokerCpuMicrosPerRecord()))));
            }
        }
        return md.toString();
    }

    private static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? "n/a" : String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    private List<PairedRatio.Result> ratios() {
        return PairedRatio.all().stream().filter(p -> p.applies(results)).map(p -> p.over(results)).toList();
    }

    private String pairedRatios() {
        List<PairedRatio.Result> ratios = ratios();
        if (ratios.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n## Paired per-round ratios (counted rounds where both runs passed)\n\n");
        md.append("| ratio | rounds | records/s: median (min – max) | target | Flink JVM CPU per record: median (min – max)"
                + " | target |\n");
        md.append("|---|---:|---:|---|---:|---|\n");
        for (PairedRatio.Result r : ratios) {
            PairedRatio p = r.pair();
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s |%n", p.label(), r.throughput().rounds(),
                    PairedRatio.describe(r.throughput()),
                    target(p.throughputTarget(), r.throughput().median(), true),
                    PairedRatio.describe(r.cpu()),
                    target(p.cpuTarget(), r.cpu().median(), false)));
        }
        md.append("\nA records/s ratio above 1 means the first variant is faster; a CPU ratio below 1 that it"
                + " spends less Flink CPU per record.\n");
        return md.toString();
    }

    private static String target(double target, double median, boolean atLeast) {
        if (Double.isNaN(target)) {
            return "";
        }
        if (Double.isNaN(median)) {
            return (atLeast ? "≥ " : "≤ ") + target + ": n/a";
        }
        boolean met = atLeast ? median >= target : median <= target;
        return String.format(Locale.ROOT, "%s %.2f: %s", atLeast ? "≥" : "≤", target, met ? "met" : "**MISSED**");
    }

    private long rows() {
        return results.isEmpty() ? 0 : results.get(0).spec().rows();
    }

    String csv() {
        StringBuilder csv = new StringBuilder("round,warmUp,variant,objectReuse,status,rows,wallSeconds,recordsPerSecond,"
                + "activeSeconds,activeRecordsPerSecond,cpuSeconds,cpuMicrosPerRecord,brokerCpuSeconds,checkpoints,"
                + "checkpointsFailed,checkpointMinMs,checkpointAvgMs,checkpointMaxMs,arrowBytesLeft,committedRecords,"
                + "duplicates,missing,parityMismatches,sinkOperator\n");
        for (RunResult r : results) {
            csv.append(String.join(",", Integer.toString(r.round()), Boolean.toString(r.warmUp()),
                    r.spec().variant().letter(), Boolean.toString(r.spec().objectReuse()), csvText(r.status()),
                    Long.toString(r.spec().rows()), csvNum(r.wallSeconds()), csvNum(r.recordsPerSecond()),
                    csvNum(r.activeSeconds()), csvNum(r.activeRecordsPerSecond()), csvNum(r.cpuSeconds()),
                    csvNum(r.cpuMicrosPerRecord()), csvNum(r.brokerCpuSeconds()), Long.toString(r.checkpoints()),
                    Long.toString(r.checkpointsFailed()), Long.toString(r.checkpointMinMs()),
                    Long.toString(r.checkpointAvgMs()), Long.toString(r.checkpointMaxMs()),
                    Long.toString(r.arrowBytesLeft()), Long.toString(r.committedRecords()),
                    Long.toString(r.duplicates()), Long.toString(r.missing()), Long.toString(r.parityMismatches()),
                    csvText(r.sinkOperator()))).append('\n');
        }
        return csv.toString();
    }

    String json() {
        String runs = results.stream().map(r -> "    {"
                + field("round", Integer.toString(r.round())) + ", "
                + field("warmUp", Boolean.toString(r.warmUp())) + ", "
                + field("variant", str(r.spec().variant().letter())) + ", "
                + field("description", str(r.spec().variant().description())) + ", "
                + field("objectReuse", Boolean.toString(r.spec().objectReuse())) + ", "
                + field("status", str(r.status())) + ", "
                + field("rows", Long.toString(r.spec().rows())) + ", "
                + field("wallSeconds", num(r.wallSeconds())) + ", "
                + field("recordsPerSecond", num(r.recordsPerSecond())) + ", "
                + field("activeSeconds", num(r.activeSeconds())) + ", "
                + field("activeRecordsPerSecond", num(r.activeRecordsPerSecond())) + ", "
                + field("cpuSeconds", num(r.cpuSeconds())) + ", "
                + field("cpuMicrosPerRecord", num(r.cpuMicrosPerRecord())) + ", "
                + field("brokerCpuSeconds", num(r.brokerCpuSeconds())) + ", "
                + field("checkpoints", Long.toString(r.checkpoints())) + ", "
                + field("checkpointsFailed", Long.toString(r.checkpointsFailed())) + ", "
                + field("checkpointFailures", str(r.checkpointFailures())) + ", "
                + field("checkpointEndToEndMs", "{\"min\": " + r.checkpointMinMs() + ", \"avg\": "
                        + r.checkpointAvgMs() + ", \"max\": " + r.checkpointMaxMs() + "}") + ", "
                + field("arrowBytesLeft", Long.toString(r.arrowBytesLeft())) + ", "
                + field("sinkOperator", str(r.sinkOperator())) + ", "
                + field("committedRecords", Long.toString(r.committedRecords())) + ", "
                + field("duplicates", Long.toString(r.duplicates())) + ", "
                + field("missing", Long.toString(r.missing())) + ", "
                + field("parityMismatches", Long.toString(r.parityMismatches())) + ", "
                + field("verdict", str(r.verdict())) + "}")
                .collect(Collectors.joining(",\n"));
        String ratios = ratios().stream().map(r -> "    {"
                + field("ratio", str(r.pair().label())) + ", "
                + field("rounds", Integer.toString(r.throughput().rounds())) + ", "
                + field("recordsPerSecond", spread(r.throughput())) + ", "
                + field("cpuPerRecord", spread(r.cpu())) + ", "
                + field("throughputTarget", num(r.pair().throughputTarget())) + ", "
                + field("cpuTarget", num(r.pair().cpuTarget())) + "}")
                .collect(Collectors.joining(",\n"));
        String producerJson = producer.entrySet().stream()
                .map(e -> field(e.getKey(), str(e.getValue()))).collect(Collectors.joining(", ", "{", "}"));
        return "{\n"
                + "  " + field("stamp", str(stamp)) + ",\n"
                + "  " + field("note", str(note)) + ",\n"
                + "  " + field("passed", Boolean.toString(results.stream().allMatch(RunResult::ok))) + ",\n"
                + "  " + field("cores", Integer.toString(Runtime.getRuntime().availableProcessors())) + ",\n"
                + "  " + field("loadBefore", str(loadBefore)) + ",\n"
                + "  " + field("loadAfter", str(loadAfter)) + ",\n"
                + "  " + field("parallelism", Integer.toString(parallelism)) + ",\n"
                + "  " + field("checkpointIntervalMs", Long.toString(checkpointIntervalMs)) + ",\n"
                + "  " + field("partitions", Integer.toString(partitions)) + ",\n"
                + "  " + field("transactionNaming", str(transactionNaming.name())) + ",\n"
                + "  " + field("batchSize", Integer.toString(batchSize)) + ",\n"
                + "  " + field("input", str(pooledInput ? "pooled" : "generated")) + ",\n"
                + "  " + field("producer", producerJson) + ",\n"
                + "  \"pairedRatios\": [\n" + ratios + "\n  ],\n"
                + "  \"runs\": [\n" + runs + "\n  ]\n}\n";
    }

    private static String spread(PairedRatio.Spread s) {
        return "{\"median\": " + num(s.median()) + ", \"min\": " + num(s.min()) + ", \"max\": " + num(s.max()) + "}";
    }

    private static String field(String name, String jsonValue) {
        return str(name) + ": " + jsonValue;
    }

    private static String num(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? "null" : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String csvNum(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? "" : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String csvText(String s) {
        return "\"" + s.replace("\"", "\"\"").replace('\n', ' ') + "\"";
    }

    private static String str(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> {
                    if (ch < 0x20) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
