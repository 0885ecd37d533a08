package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.MachineLoad;
import io.columnarkafka.bench.MiniBatch;
import io.columnarkafka.bench.PairedRounds;
import io.columnarkafka.bench.Spread;
import io.columnarkafka.bench.WarmUpFigures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The CDC benchmark's report: the run's mini-batch mode and JVM warm-up; per query and mini-batch mode, the paired
 * per-round ratios columnar/stock of throughput and of CPU per event (median, min, max over the counted rounds), each
 * side's median figures, the verdict over all its cells and the path its columnar cells ran; then every cell.
 * Markdown, JSON and CSV.
 */
final class CdcReport {
    /** A query's summary over its counted cells of one mini-batch mode. */
    record Row(CdcQuery query, boolean miniBatch, int cells, double stockEventsPerSecond,
               double columnarEventsPerSecond, Spread throughput, double stockCpuNanosPerEvent, double columnarCpuNanosPerEvent, Spread cpu,
               String verdict, String columnarPaths) {}

    private final List<CdcResult> results;
    private final Setup setup;

    /** What the run was: its options, its input and the machine's load before and after it. */
    record Setup(String stamp, String note, long records, String inputMix, long inputBytes, int warmup, int rounds,
                 int parallelism, int partitions, long checkpointIntervalMs, long seed, boolean miniBatch,
                 JvmWarmUp jvmWarmUp, String loadBefore, String loadAfter) {}

    CdcReport(List<CdcResult> results, Setup setup) {
        this.results = results;
        this.setup = setup;
    }

    /** One row per query and mini-batch mode that ran, in the queries' order. */
    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (CdcQuery query : CdcQuery.values()) {
            for (boolean miniBatch : List.of(false, true)) {
                List<CdcResult> all = results.stream()
                        .filter(r -> r.cell().query() == query && r.cell().miniBatch() == miniBatch).toList();
                if (!all.isEmpty()) {
                    rows.add(row(query, miniBatch, all));
                }
            }
        }
        return rows;
    }

    /** A query's summary over its cells of one mini-batch mode. */
    private static Row row(CdcQuery query, boolean miniBatch, List<CdcResult> all) {
        List<CdcResult> stock = counted(all, CdcVariant.STOCK);
        List<CdcResult> columnar = counted(all, CdcVariant.COLUMNAR);
        String paths = all.stream().filter(r -> r.cell().variant().equals(CdcVariant.COLUMNAR) && r.measured())
                .collect(Collectors.groupingBy(r -> r.planPath() + " (" + r.columnarNodes() + " columnar nodes, "
                        + r.edges() + " ArrowToRows edges)", LinkedHashMap::new, Collectors.counting()))
                .entrySet().stream().map(e -> e.getKey() + " x" + e.getValue()).collect(Collectors.joining("; "));
        return new Row(query, miniBatch, all.size(), median(stock, CdcResult::eventsPerSecond),
                median(columnar, CdcResult::eventsPerSecond),
                paired(stock, columnar, CdcResult::eventsPerSecond),
                median(stock, CdcResult::cpuNanosPerEvent), median(columnar, CdcResult::cpuNanosPerEvent),
                paired(stock, columnar, CdcResult::cpuNanosPerEvent),
                verdict(all), paths.isEmpty() ? "none measured" : paths);
    }

    /** OK if every cell passed, else how many failed and the first one's reason. */
    static String verdict(List<CdcResult> all) {
        List<CdcResult> failed = all.stream().filter(r -> !r.ok()).toList();
        return failed.isEmpty() ? "OK" : "FAIL: " + failed.size() + " of " + all.size() + " cells ("
                + failed.get(0).cell().label() + " round " + failed.get(0).round() + ": "
                + failed.get(0).verdictHeadline() + ")";
    }

    /** A variant's cells of the counted rounds whose job ran to its end. */
    static List<CdcResult> counted(List<CdcResult> cells, CdcVariant variant) {
        return cells.stream().filter(r -> r.round() > 0 && r.cell().variant().equals(variant) && r.measured())
                .toList();
    }

    /** {@code figure(numerator) / figure(denominator)} per counted round, as median, min and max. */
    static Spread paired(List<CdcResult> denominator, List<CdcResult> numerator, ToDoubleFunction<CdcResult> figure) {
        return Spread.of(PairedRounds.ratios(denominator, numerator, CdcResult::round, figure));
    }

    static double median(List<CdcResult> cells, ToDoubleFunction<CdcResult> figure) {
        return Spread.of(cells.stream().map(figure::applyAsDouble).toList()).median();
    }

    boolean ok() {
        return results.stream().allMatch(CdcResult::ok);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# CDC pipeline: stock Flink vs columnar-kafka (").append(setup.stamp()).append(")\n\n");
        if (!setup.note().isEmpty()) {
            md.append(setup.note()).append("\n\n");
        }
        md.append(String.format(Locale.ROOT, "Input: %,d Debezium records of an `orders` table (%s), %,d bytes of keys"
                        + " and values, seed %d, %d partitions. Each cell a Flink job in a fresh JVM on a MiniCluster,"
                        + " parallelism %d, EXACTLY_ONCE sinks, checkpoints every %d ms, source bounded at the latest"
                        + " offsets; %d uncounted warm-up round(s), then %d counted rounds, the order of the variants"
                        + " and of the queries rotating each round. Throughput: input records per second of job time"
                        + " (RUNNING to FINISHED); CPU: the Flink JVM's process CPU time over the job per input"
                        + " record. Ratios are columnar/stock per round (paired), median (min – max); a throughput"
                        + " ratio above 1 and a CPU ratio below 1 favour columnar.%n%n",
                setup.records(), setup.inputMix(), setup.inputBytes(), setup.seed(), setup.partitions(),
                setup.parallelism(), setup.checkpointIntervalMs(), setup.warmup(), setup.rounds()));
        md.append(setup.miniBatch() ? "Mini-batch on in " + (variants().size() > 2 ? "every variant" : "both variants")
                + " (" + MiniBatch.tableOptions().entrySet().stream()
                .map(e -> "`" + e.getKey() + "` = " + e.getValue()).collect(Collectors.joining(", "))
                + "), as `bin/bench-nexmark`'s mini-batch cells.\n\n" : "Mini-batch off.\n\n");
        md.append(describeWarmUp());
        md.append(MachineLoad.sentence(MachineLoad.oneMinute(setup.loadBefore()), MachineLoad.oneMinute(setup.loadAfter())))
                .append(" Load before: `").append(setup.loadBefore()).append("`, after: `").append(setup.loadAfter())
                .append("`.\n\n");
        md.append("| query | mini-batch | stock events/s | columnar events/s | throughput columnar/stock"
                + " | stock CPU ns/event | columnar CPU ns/event | CPU columnar/stock | verdict | columnar path |\n");
        md.append("|---|---|---:|---:|---|---:|---:|---|---|---|\n");
        for (Row row : rows()) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %,.0f | %s | %,.0f | %,.0f | %s | %s | %s |%n",
                    row.query().id(), onOff(row.miniBatch()), row.stockEventsPerSecond(), row.columnarEventsPerSecond(),
                    row.throughput().ratio(), row.stockCpuNanosPerEvent(), row.columnarCpuNanosPerEvent(),
                    row.cpu().ratio(), row.verdict(), row.columnarPaths()));
        }
        new CdcVariantReport(results).appendMarkdown(md);
        md.append("\n## Queries\n\n");
        for (CdcQuery query : CdcQuery.values()) {
            CdcQuery.RequiredPath path = query.requiredPath(setup.miniBatch());
            md.append("- `").append(query.id()).append("`: `").append(query.insert()).append("`, output compared by ")
                    .append(query.output.name().toLowerCase(Locale.ROOT).replace('_', ' '))
                    .append(path.equals(CdcQuery.RequiredPath.ANY) ? "; any columnar path is measured"
                            : "; its columnar cells must plan " + path.describe())
                    .append('\n');
        }
        boolean warmed = setup.jvmWarmUp() != JvmWarmUp.OFF;
        md.append("\n## Cells\n\n| round | query | mini-batch | variant | job s | events/s | CPU s | CPU ns/event |")
                .append(warmed ? " warm-up jobs |" : "").append(" JIT s in the job | plan | output | verdict |\n")
                .append("|---:|---|---|---|---:|---:|---:|---:|").append(warmed ? "---:|" : "")
                .append("---:|---|---|---|\n");
        for (CdcResult r : results) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f | %,.0f | %.2f | %,.0f |",
                    r.round() == 0 ? "warm-up" : Integer.toString(r.round()), r.cell().query().id(),
                    onOff(r.cell().miniBatch()), r.cell().variant().id(), r.jobSeconds(), r.eventsPerSecond(),
                    r.cpuSeconds(), r.cpuNanosPerEvent()));
            if (warmed) {
                md.append(' ').append(r.warmUp().jobs()).append(" |");
            }
            md.append(String.format(Locale.ROOT, " %.2f | %s | %,d %s | %s |%n", r.warmUp().measuredJitSeconds(),
                    r.cell().variant().columnar() ? r.planPath() : "stock", r.output().entries(),
                    r.output().sha256(), r.verdictHeadline().replace("|", "\\|")));
        }
        return md.toString();
    }

    /**
     * The JVM warm-up paragraph ({@link WarmUpFigures#paragraph}), or with none the sentence that says the JIT is in
     * every measured job.
     */
    private String describeWarmUp() {
        if (setup.jvmWarmUp() == JvmWarmUp.OFF) {
            return "No JVM warm-up (`--jvm-warm-up off`): each measured job is its JVM's first, the JIT's compile"
                    + " time and the first job's class loading included (JIT s in the cells' table).\n\n";
        }
        Map<String, List<WarmUpFigures>> byVariant = new LinkedHashMap<>();
        for (CdcVariant variant : variants()) {
            List<WarmUpFigures> figures = results.stream().filter(r -> r.cell().variant().equals(variant))
                    .map(CdcResult::warmUp).filter(w -> w.jobs() > 0).toList();
            if (!figures.isEmpty()) {
                byVariant.put(variant.id(), figures);
            }
        }
        return WarmUpFigures.paragraph(setup.jvmWarmUp(), "each cell's JVM", "", byVariant);
    }

    /** The variants the cells ran, stock first, then columnar, then the extra ones. */
    private List<CdcVariant> variants() {
        return results.stream().map(r -> r.cell().variant()).distinct().sorted().toList();
    }

    static String onOff(boolean on) {
        return on ? "on" : "off";
    }

    String json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("setup", setup);
        json.put("jvmWarmUpMode", setup.jvmWarmUp().flag());
        json.put("summary", rows().stream().map(row -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("query", row.query().id());
            m.put("miniBatch", row.miniBatch());
            m.put("cells", row.cells());
            m.put("stockEventsPerSecond", row.stockEventsPerSecond());
            m.put("columnarEventsPerSecond", row.columnarEventsPerSecond());
            m.put("throughputRatio", row.throughput());
            m.put("stockCpuNanosPerEvent", row.stockCpuNanosPerEvent());
            m.put("columnarCpuNanosPerEvent", row.columnarCpuNanosPerEvent());
            m.put("cpuRatio", row.cpu());
            m.put("verdict", row.verdict());
            m.put("columnarPaths", row.columnarPaths());
            return m;
        }).toList());
        List<Map<String, Object>> extraVariants = new CdcVariantReport(results).json();
        if (!extraVariants.isEmpty()) {
            json.put("extraVariants", extraVariants);
        }
        json.put("cells", results.stream().map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("round", r.round());
            m.put("query", r.cell().query().id());
            m.put("miniBatch", r.cell().miniBatch());
            m.put("variant", r.cell().variant().id());
            m.put("jobSeconds", r.jobSeconds());
            m.put("cpuSeconds", r.cpuSeconds());
            m.put("eventsPerSecond", r.eventsPerSecond());
            m.put("cpuNanosPerEvent", r.cpuNanosPerEvent());
            m.put("planPath", r.planPath());
            m.put("columnarNodes", r.columnarNodes());
            m.put("edges", r.edges());
            m.put("jvmWarmUpJobs", r.warmUp().jobs());
            m.put("jvmWarmUpLastJitShare", r.warmUp().lastJitShare());
            m.put("jitSeconds", r.warmUp().measuredJitSeconds());
            m.put("outputEntries", r.output().entries());
            m.put("outputSha256", r.output().sha256());
            m.put("verdict", r.verdict());
            return m;
        }).toList());
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The extra variants' rows ({@link CdcVariantReport#csv}); empty without extra variants. */
    String variantsCsv() {
        return new CdcVariantReport(results).csv();
    }

    String csv() {
        StringBuilder csv = new StringBuilder("round,query,mini_batch,variant,job_s,cpu_s,events_per_s,"
                + "cpu_ns_per_event,jvm_warm_up_jobs,jit_s,columnar_nodes,arrow_to_rows_edges,plan_path,output_entries,"
                + "output_sha256,verdict\n");
        for (CdcResult r : results) {
            csv.append(String.format(Locale.ROOT, "%d,%s,%s,%s,%.3f,%.3f,%.1f,%.1f,%d,%.3f,%d,%d,\"%s\",%d,%s,\"%s\"%n",
                    r.round(), r.cell().query().id(), onOff(r.cell().miniBatch()), r.cell().variant().id(),
                    r.jobSeconds(), r.cpuSeconds(), r.eventsPerSecond(), r.cpuNanosPerEvent(), r.warmUp().jobs(),
                    r.warmUp().measuredJitSeconds(), r.columnarNodes(), r.edges(), r.planPath().replace("\"", "\"\""),
                    r.output().entries(), r.output().sha256(), r.verdictHeadline().replace("\"", "\"\"")));
        }
        return csv.toString();
    }
}
