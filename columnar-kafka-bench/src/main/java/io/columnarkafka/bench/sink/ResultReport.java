package io.columnarkafka.bench.sink;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;

/** The benchmark's results as a Markdown report, raw JSON and CSV. */
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

    /** The targets: (b) at least 1.5x (a), and within 15% of (c). */
    static final double TARGET_VS_STOCK = 1.5;
    static final double TARGET_VS_CEILING = 0.85;

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Sink benchmark ").append(stamp).append("\n\n");
        if (!note.isEmpty()) {
            md.append("**").append(note).append("**\n\n");
        }
        md.append(String.format(Locale.ROOT, "%,d Nexmark Bid rows per variant, each to a fresh topic of %d partitions"
                        + " on one embedded broker; parallelism %d, checkpoints every %d ms, EXACTLY_ONCE"
                        + " (KafkaSink transaction naming %s), batches of %d rows; producer %s."
                        + " Each run in a JVM of its own (%s). Input: %s.%n%n",
                rows(), partitions, parallelism, checkpointIntervalMs, transactionNaming, batchSize, producer,
                SinkBenchmark.childJavaOpts(),
                pooledInput
                        ? "pooled (every variant takes its rows from one batch built once per subtask: RowData for (a),"
                                + " an Arrow batch sliced without copying for (b), JSON bytes for (c) and (d); only"
                                + " serialization and the sink are measured)"
                        : "generated ((a) and (b) generate every row as they go; (c) and (d) use pre-built JSON)"));
        md.append(String.format("Machine: %d cores; load average (1/5/15 min) before `%s`, after `%s`.%n%n",
                Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter));
        md.append(medians());
        md.append("\n## Every run, in the order run\n\n");
        md.append("| variant | object reuse | wall s | records/s | first→last records/s | CPU µs/record (broker)"
                + " | checkpoints | checkpoint e2e min/avg/max ms | read_committed |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (RunResult r : results) {
            md.append(String.format(Locale.ROOT, "| (%s) %s | %s | %.2f | %,.0f | %s | %.2f (%.2f) | %d%s | %d / %d / %d | %s |%n",
                    r.spec().variant().letter(), r.spec().variant().description(),
                    r.spec().variant().flinkJob() ? (r.spec().objectReuse() ? "on" : "off") : "n/a",
                    r.wallSeconds(), r.recordsPerSecond(),
                    Double.isNaN(r.activeSeconds()) ? "n/a" : String.format(Locale.ROOT, "%,.0f", r.activeRecordsPerSecond()),
                    r.cpuMicrosPerRecord(), r.brokerCpuMicrosPerRecord(),
                    r.checkpoints(), r.checkpointsFailed() > 0 ? " (" + r.checkpointsFailed() + " failed)" : "",
                    r.checkpointMinMs(), r.checkpointAvgMs(), r.checkpointMaxMs(),
                    (r.exactlyOnce() ? "OK " : "FAIL ") + String.format(Locale.ROOT, "%,d records, %d dup, %d missing",
                            r.committedRecords(), r.duplicates(), r.missing())));
        }
        md.append("\nCPU µs/record: CPU time of the run's JVM over the job (all threads, MiniCluster included) per row;"
                + " in brackets the broker JVM's over the run. Unlike records/s, a busy machine hardly changes it.\n");
        md.append("\n(d) has no Flink: its \"checkpoints\" are its transaction commits and their durations.\n");
        results.stream().filter(r -> !r.checkpointFailures().isEmpty()).forEach(r -> md.append(String.format(
                "%nFailed checkpoints of (%s) object reuse %s: %s%n", r.spec().variant().letter(),
                r.spec().objectReuse() ? "on" : "off", r.checkpointFailures())));
        md.append("\n## Targets (medians of records/s over job wall time; first→last in brackets)\n\n");
        for (boolean reuse : List.of(false, true)) {
            Optional<Median> a = find(Variant.STOCK_JSON, reuse);
            Optional<Median> b = find(Variant.COLUMNAR, reuse);
            Optional<Median> c = find(Variant.PREBUILT_BYTES, reuse);
            String setting = "object reuse " + (reuse ? "on" : "off");
            if (b.isPresent() && a.isPresent()) {
                md.append(ratioLine(setting + ": (b)/(a)", b.get(), a.get(), TARGET_VS_STOCK));
            }
            if (b.isPresent() && c.isPresent()) {
                md.append(ratioLine(setting + ": (b)/(c)", b.get(), c.get(), TARGET_VS_CEILING));
            }
        }
        Optional<Median> d = find(Variant.BARE_PRODUCER, false);
        Optional<Median> cOff = find(Variant.PREBUILT_BYTES, false);
        if (d.isPresent() && cOff.isPresent()) {
            md.append(String.format(Locale.ROOT, "- (c) off/(d), what KafkaSink + Flink cost against bare producers: %.2f%n",
                    cOff.get().recordsPerSecond() / d.get().recordsPerSecond()));
        }
        if (!profiles.isEmpty()) {
            md.append("\n## Profiles (JFR, object reuse off)\n\n");
            profiles.forEach((v, file) -> md.append("- (").append(v).append(") `").append(file).append("`\n"));
        }
        return md.toString();
    }

    private static String ratioLine(String what, Median x, Median y, double target) {
        double wall = x.recordsPerSecond() / y.recordsPerSecond();
        double active = x.activeRecordsPerSecond() / y.activeRecordsPerSecond();
        double cpu = y.cpuMicrosPerRecord() / x.cpuMicrosPerRecord();
        return String.format(Locale.ROOT, "- %s = %.2f [%.2f] (target >= %.2f): %s; client CPU per record %.2fx less%n",
                what, wall, active, target, wall >= target ? "met" : "MISSED", cpu);
    }

    /** The medians of one variant and object-reuse setting over its rounds. */
    record Median(Variant variant, boolean objectReuse, int runs, double recordsPerSecond, double minRecordsPerSecond,
                  double maxRecordsPerSecond, double activeRecordsPerSecond, double cpuMicrosPerRecord,
                  double brokerCpuMicrosPerRecord) {}

    private Optional<Median> find(Variant variant, boolean reuse) {
        List<RunResult> runs = results.stream()
                .filter(r -> r.spec().variant() == variant && (!variant.flinkJob() || r.spec().objectReuse() == reuse))
                .toList();
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Median(variant, reuse, runs.size(),
                median(runs, RunResult::recordsPerSecond),
                runs.stream().mapToDouble(RunResult::recordsPerSecond).min().orElseThrow(),
                runs.stream().mapToDouble(RunResult::recordsPerSecond).max().orElseThrow(),
                median(runs, RunResult::activeRecordsPerSecond),
                median(runs, RunResult::cpuMicrosPerRecord),
                median(runs, RunResult::brokerCpuMicrosPerRecord)));
    }

    private static double median(List<RunResult> runs, java.util.function.ToDoubleFunction<RunResult> metric) {
        double[] values = runs.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }

    private String medians() {
        StringBuilder md = new StringBuilder("## Medians over the rounds\n\n");
        md.append("| variant | object reuse | runs | records/s (median) | min – max | first→last records/s"
                + " | CPU µs/record (broker) |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (Variant variant : Variant.values()) {
            for (boolean reuse : variant.flinkJob() ? List.of(false, true) : List.of(false)) {
                find(variant, reuse).ifPresent(m -> md.append(String.format(Locale.ROOT,
                        "| (%s) %s | %s | %d | %,.0f | %,.0f – %,.0f | %s | %.2f (%.2f) |%n",
                        variant.letter(), variant.description(),
                        variant.flinkJob() ? (reuse ? "on" : "off") : "n/a", m.runs(), m.recordsPerSecond(),
                        m.minRecordsPerSecond(), m.maxRecordsPerSecond(),
                        Double.isNaN(m.activeRecordsPerSecond()) ? "n/a"
                                : String.format(Locale.ROOT, "%,.0f", m.activeRecordsPerSecond()),
                        m.cpuMicrosPerRecord(), m.brokerCpuMicrosPerRecord())));
            }
        }
        return md.toString();
    }

    private long rows() {
        return results.isEmpty() ? 0 : results.get(0).spec().rows();
    }

    String csv() {
        StringBuilder csv = new StringBuilder("variant,objectReuse,rows,wallSeconds,recordsPerSecond,activeSeconds,"
                + "activeRecordsPerSecond,cpuSeconds,brokerCpuSeconds,checkpoints,checkpointsFailed,checkpointMinMs,checkpointAvgMs,checkpointMaxMs,"
                + "committedRecords,duplicates,missing,exactlyOnce\n");
        for (RunResult r : results) {
            csv.append(String.join(",", r.spec().variant().letter(), Boolean.toString(r.spec().objectReuse()),
                    Long.toString(r.spec().rows()), csvNum(r.wallSeconds()), csvNum(r.recordsPerSecond()),
                    csvNum(r.activeSeconds()), csvNum(r.activeRecordsPerSecond()), csvNum(r.cpuSeconds()),
                    csvNum(r.brokerCpuSeconds()), Long.toString(r.checkpoints()),
                    Long.toString(r.checkpointsFailed()), Long.toString(r.checkpointMinMs()),
                    Long.toString(r.checkpointAvgMs()), Long.toString(r.checkpointMaxMs()),
                    Long.toString(r.committedRecords()), Long.toString(r.duplicates()), Long.toString(r.missing()),
                    Boolean.toString(r.exactlyOnce()))).append('\n');
        }
        return csv.toString();
    }

    String json() {
        String runs = results.stream().map(r -> "    {"
                + field("variant", str(r.spec().variant().letter())) + ", "
                + field("description", str(r.spec().variant().description())) + ", "
                + field("objectReuse", Boolean.toString(r.spec().objectReuse())) + ", "
                + field("rows", Long.toString(r.spec().rows())) + ", "
                + field("wallSeconds", num(r.wallSeconds())) + ", "
                + field("recordsPerSecond", num(r.recordsPerSecond())) + ", "
                + field("activeSeconds", num(r.activeSeconds())) + ", "
                + field("activeRecordsPerSecond", num(r.activeRecordsPerSecond())) + ", "
                + field("cpuSeconds", num(r.cpuSeconds())) + ", "
                + field("brokerCpuSeconds", num(r.brokerCpuSeconds())) + ", "
                + field("checkpoints", Long.toString(r.checkpoints())) + ", "
                + field("checkpointsFailed", Long.toString(r.checkpointsFailed())) + ", "
                + field("checkpointFailures", str(r.checkpointFailures())) + ", "
                + field("checkpointEndToEndMs", "{\"min\": " + r.checkpointMinMs() + ", \"avg\": "
                        + r.checkpointAvgMs() + ", \"max\": " + r.checkpointMaxMs() + "}") + ", "
                + field("committedRecords", Long.toString(r.committedRecords())) + ", "
                + field("duplicates", Long.toString(r.duplicates())) + ", "
                + field("missing", Long.toString(r.missing())) + ", "
                + field("exactlyOnce", Boolean.toString(r.exactlyOnce())) + ", "
                + field("verdict", str(r.verdict())) + "}")
                .collect(Collectors.joining(",\n"));
        String producerJson = producer.entrySet().stream()
                .map(e -> field(e.getKey(), str(e.getValue()))).collect(Collectors.joining(", ", "{", "}"));
        return "{\n"
                + "  " + field("stamp", str(stamp)) + ",\n"
                + "  " + field("note", str(note)) + ",\n"
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
                + "  \"runs\": [\n" + runs + "\n  ]\n}\n";
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
