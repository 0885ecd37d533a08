package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.MachineLoad;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The fixed-rate mode's report ({@code bin/bench-nexmark --rate}): per query and mini-batch setting, at the same
 * input rate for both variants, the medians of the counted rounds' checkpoint durations (p50, p99, max) and sizes,
 * the CPU cores the Flink JVM used while steady, the rate the sources read at while steady (equal to the input
 * rate when a variant keeps up), and the paired per-round ratios (columnar / stock: median, min, max) of
 * checkpoint p50 and of CPU cores; where the checkpoint time goes ({@link CheckpointTimeTables}); every cell; the
 * recovery cells at the same rate, as the bounded matrix reports them ({@link NexmarkReport#appendRecovery}); raw
 * cells as JSON and CSV.
 */
final class FixedRateReport {
    private final NexmarkReport run;
    /** The plain cells (the recovery cells have a section of their own) and every cell. */
    private final List<CellResult> cells;
    private final List<CellResult> everyCell;
    private final double rate;
    private final double seconds;

    /** The report of {@code run}'s cells, run at {@code rate} events/s for {@code seconds}. */
    FixedRateReport(NexmarkReport run, double rate, double seconds) {
        this.run = run;
        this.everyCell = run.cells;
        this.cells = everyCell.stream().filter(c -> !c.recovery()).toList();
        this.rate = rate;
        this.seconds = seconds;
    }

    /** Stock's and columnar's median of a figure, and the paired per-round ratio columnar / stock. */
    record Pair(double stock, double columnar, double ratio, double ratioMin, double ratioMax) {
        static Pair of(List<CellResult> stock, List<CellResult> columnar, ToDoubleFunction<CellResult> figure) {
            double[] ratios = NexmarkReport.pairedRatios(stock, columnar, figure);
            return new Pair(NexmarkReport.median(stock, figure), NexmarkReport.median(columnar, figure),
                    NexmarkReport.median(ratios), NexmarkReport.min(ratios), NexmarkReport.max(ratios));
        }
    }

    /** One (query, mini-batch) pair over the counted rounds. */
    record Row(NexmarkQuery query, boolean miniBatch, int pairs, Pair checkpointP50, Pair checkpointP99,
               Pair checkpointMax, Pair checkpointSize, Pair cores, Pair steadyRead, String output, boolean ok) {}

    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        List<String> keys = cells.stream().filter(c -> c.round() > 0)
                .sorted(java.util.Comparator.comparing((CellResult c) -> c.spec().query())
                        .thenComparing(c -> c.spec().miniBatch()))
                .map(c -> c.spec().query().name() + "/" + c.spec().miniBatch()).distinct().toList();
        for (String key : keys) {
            NexmarkQuery query = NexmarkQuery.valueOf(key.split("/")[0]);
            boolean mb = Boolean.parseBoolean(key.split("/")[1]);
            // The extra variants' cells have their own rows (FixedRateVariants).
            List<CellResult> all = cells.stream().filter(c -> c.spec().query() == query && c.spec().miniBatch() == mb
                    && !c.spec().variant().extra()).toList();
            List<CellResult> stock = counted(all, Variant.STOCK);
            List<CellResult> columnar = counted(all, Variant.COLUMNAR);
            boolean ok = all.stream().allMatch(CellResult::compared) && !stock.isEmpty() && !columnar.isEmpty();
            String output = ok
                    ? String.format(Locale.ROOT, "%,d %s, equal", stock.get(0).output().entries(),
                            query.output.name().toLowerCase(Locale.ROOT))
                    : all.stream().filter(c -> !c.compared()).map(CellResult::verdictHeadline).distinct()
                            .collect(Collectors.joining("; "));
            rows.add(new Row(query, mb, NexmarkReport.pairedRatios(stock, columnar, c -> 1).length,
                    Pair.of(stock, columnar, c -> c.checkpoints().p50Ms()),
                    Pair.of(stock, columnar, c -> c.checkpoints().p99Ms()),
                    Pair.of(stock, columnar, c -> c.checkpoints().maxMs()),
                    Pair.of(stock, columnar, c -> c.checkpoints().sizeP50Bytes()),
                    Pair.of(stock, columnar, CellResult::steadyCores),
                    Pair.of(stock, columnar, c -> c.steady().readEventsPerSecond()),
                    output.isEmpty() ? "FAIL: a variant has no counted cell" : output, ok));
        }
        return rows;
    }

    private static List<CellResult> counted(List<CellResult> cells, Variant variant) {
        return cells.stream().filter(c -> c.round() > 0 && c.compared() && c.spec().variant().equals(variant)).toList();
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Nexmark at a fixed event rate, exactly-once Kafka, ").append(run.stamp).append("\n\n");
        md.append(MachineLoad.sentence(MachineLoad.oneMinute(run.loadBefore), MachineLoad.oneMinute(run.loadAfter)))
                .append(" The ratios are paired per round.");
        if (!run.note.isBlank()) {
            md.append(' ').append(run.note);
        }
        md.append("\n\n");
        md.append(String.format(Locale.ROOT, "Each cell's input topic (%d partitions) is written live by the harness's"
                + " JVM at **%,.0f events/s** for %.0f s: %,d Nexmark events (seed %d, the bounded matrix's bytes),"
                + " paced from when the cell's tasks all run, while the job (its own JVM: MiniCluster, parallelism %d,"
                + " %s, %d ms checkpoints, EXACTLY_ONCE Kafka sink, the columnar planner stage in the columnar"
                + " cells) reads it unbounded from the earliest offset. Once its sources have read every event (q12:"
                + " and its last 10 s processing-time window has fired), Flink's stop-with-savepoint with drain ends"
                + " the job, and the result topic, read read_committed, must equal stock's (q12's: count every bid"
                + " of the input exactly once). Both variants process the same input at the same rate, so their"
                + " checkpoints see the same in-flight data and state: the fair checkpoint comparison a bounded"
                + " full-speed run is not. Checkpoints = the periodic ones triggered while the input flowed (not"
                + " those of q12's wait, nor the final savepoint), end to end; CPU cores = the cell JVM's process CPU time / wall time while 10 %% to 90 %% of the input was"
                + " read; steady read = the sources' rate over that span (the input rate if the variant kept up)."
                + " %d warm-up round(s) not counted, then %d rounds, stock and columnar paired in each, their order"
                + " alternating and the query order rotating. Ratio = columnar / stock per round, median (min–max);"
                + " below 1 is better for columnar.%n%n",
                run.partitions, rate, seconds, run.events, run.seed, run.parallelism,
                CellStateBackend.of(everyCell).phrase(), run.checkpointIntervalMs,
                run.warmup, run.rounds));
        md.append(run.clients.describe());
        md.append(SplitDistinct.describe(everyCell));
        md.append(FlinkOptions.describe(everyCell));
        md.append("| query | mini-batch | pairs | ckpt p50 ms stock / col. | ckpt p50 ratio | ckpt p99 ms | ckpt max ms"
                + " | ckpt size p50 KiB | CPU cores stock / col. | CPU ratio | steady read events/s | output |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        List<Row> rows = rows();
        for (Row r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %s / %s | %s | %s / %s | %s / %s | %s / %s |"
                            + " %s / %s | %s | %s / %s | %s |%n",
                    r.query.id(), r.miniBatch ? "on" : "off", r.pairs,
                    whole(r.checkpointP50.stock()), whole(r.checkpointP50.columnar()), ratio(r.checkpointP50),
                    whole(r.checkpointP99.stock()), whole(r.checkpointP99.columnar()),
                    whole(r.checkpointMax.stock()), whole(r.checkpointMax.columnar()),
                    kib(r.checkpointSize.stock()), kib(r.checkpointSize.columnar()),
                    NexmarkReport.twoDecimals(r.cores.stock()), NexmarkReport.twoDecimals(r.cores.columnar()),
                    ratio(r.cores), whole(r.steadyRead.stock()), whole(r.steadyRead.columnar()), r.output));
        }
        long better = rows.stream().filter(r -> r.ok && r.checkpointP50.ratio() <= 1).count();
        md.append(String.format(Locale.ROOT, "%nCheckpoint p50 no worse than stock's (paired median ratio ≤ 1) in %d"
                + " of %d compared rows.%n%n", better, rows.stream().filter(Row::ok).count()));
        md.append(new FixedRateVariants(cells).markdown());
        md.append(CheckpointTimeTables.markdown(cells));
        md.append("## Every cell\n\n");
        md.append("| query | mini-batch | round | variant | checkpoints | ckpt p50 / p99 / max ms | ckpt size p50 KiB |"
                + " CPU cores | steady read events/s | fill s | job s | output |\n");
        md.append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (CellResult c : cells) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %d / %d / %d | %s | %s | %s | %s | %s |"
                            + " %s |%n",
                    c.spec().query().id(), c.spec().miniBatch() ? "on" : "off",
                    c.round() == 0 ? "warm-up" : Integer.toString(c.round()),
                    c.spec().variant().id(), c.checkpoints().completed(),
                    c.checkpoints().p50Ms(), c.checkpoints().p99Ms(), c.checkpoints().maxMs(),
                    kib(c.checkpoints().sizeP50Bytes()), NexmarkReport.twoDecimals(c.steadyCores()),
                    whole(c.steady().readEventsPerSecond()), NexmarkReport.twoDecimals(c.fillSeconds()),
                    NexmarkReport.twoDecimals(c.jobSeconds()),
                    c.compared() ? c.output().entries() + " entries, OK" : c.verdictHeadline()));
        }
        md.append('\n');
        run.appendRecovery(md);
        return md.toString();
    }

    private static String ratio(Pair p) {
        return Double.isNaN(p.ratio()) ? "–"
                : String.format(Locale.ROOT, "**%.2f** (%.2f–%.2f)", p.ratio(), p.ratioMin(), p.ratioMax());
    }

    static String whole(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String kib(double bytes) {
        return Double.isNaN(bytes) ? "–" : String.format(Locale.ROOT, "%,.1f", bytes / 1024);
    }

    String json() {
        StringBuilder json = new StringBuilder("{\n  \"stamp\": \"").append(run.stamp).append("\",\n");
        json.append(String.format(Locale.ROOT, "  \"mode\": \"fixed-rate\", \"rate\": %.1f, \"seconds\": %.1f,"
                        + " \"events\": %d, \"parallelism\": %d, \"warmup\": %d, \"rounds\": %d,"
                        + " \"checkpointIntervalMs\": %d, \"loadBefore\": \"%s\", \"loadAfter\": \"%s\","
                        + " \"machineBusyAtStart\": %b, \"state\": \"%s\",%n",
                rate, seconds, run.events, run.parallelism, run.warmup, run.rounds, run.checkpointIntervalMs,
                run.loadBefore, run.loadAfter, MachineLoad.busy(MachineLoad.oneMinute(run.loadBefore)),
                CellStateBackend.of(everyCell).flag()));
        json.append("  \"variants\": [").append(cells.stream().map(c -> c.spec().variant()).distinct().sorted()
                .map(v -> "\"" + NexmarkReport.escape(v.id()) + "\"").collect(Collectors.joining(", "))).append("],\n");
        json.append("  \"variantSummary\": ").append(new FixedRateVariants(cells).json()).append(",\n");
        json.append("  \"summary\": [\n");
        List<Row> rows = rows();
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            json.append(String.format(Locale.ROOT, "    {\"query\": \"%s\", \"stateful\": %s, \"miniBatch\": %s,"
                            + " \"pairs\": %d, \"checkpointP50Ms\": %s, \"checkpointP99Ms\": %s, \"checkpointMaxMs\": %s,"
                            + " \"checkpointSizeP50Bytes\": %s, \"cpuCores\": %s, \"steadyReadEventsPerSecond\": %s,"
                            + " \"ok\": %s, \"output\": \"%s\"}%s%n",
                    r.query.id(), r.query.stateful, r.miniBatch, r.pairs, pairJson(r.checkpointP50),
                    pairJson(r.checkpointP99), pairJson(r.checkpointMax), pairJson(r.checkpointSize),
                    pairJson(r.cores), pairJson(r.steadyRead), r.ok, NexmarkReport.escape(r.output),
                    i + 1 < rows.size() ? "," : ""));
        }
        json.append("  ],\n  \"recovery\": ").append(run.recoveryJson()).append(",\n");
        List<CellResult> recovery = everyCell.stream().filter(CellResult::recovery).toList();
        json.append("  \"recoveryCells\": [\n");
        for (int i = 0; i < recovery.size(); i++) {
            json.append("    ").append(NexmarkReport.cellJson(recovery.get(i)))
                    .append(i + 1 < recovery.size() ? ",\n" : "\n");
        }
        json.append("  ],\n  \"cells\": [\n");
        for (int i = 0; i < cells.size(); i++) {
            CellResult c = cells.get(i);
            json.append(String.format(Locale.ROOT, "    {\"query\": \"%s\", \"variant\": \"%s\", \"miniBatch\": %s,"
                            + " \"splitDistinct\": %s, \"round\": %d, \"jobSeconds\": %s, \"fillSeconds\": %s,"
                            + " \"cpuSeconds\": %s,"
                            + " \"steadyCores\": %s, \"steadyReadEventsPerSecond\": %s,"
                            + " \"steadyWrittenEventsPerSecond\": %s, \"checkpoints\": %d, \"checkpointsFailed\": %d,"
                            + " \"checkpointP50Ms\": %d, \"checkpointP99Ms\": %d, \"checkpointMaxMs\": %d,"
                            + " \"checkpointSizeP50Bytes\": %d, \"checkpointSizeMaxBytes\": %d,"
                            + " \"outputEntries\": %d, \"outputDigest\": \"%s\", \"plan\": \"%s\","
                            + " \"checkpointByVertex\": \"%s\", \"checkpointPath\": %s, \"plannerOptionsInPlan\": \"%s\","
                            + " \"verdict\": \"%s\"}%s%n",
                    c.spec().query().id(), c.spec().variant().id(), c.spec().miniBatch(), c.spec().splitDistinct(),
                    c.round(), NexmarkReport.num(c.jobSeconds()), NexmarkReport.num(c.fillSeconds()),
                    NexmarkReport.num(c.cpuSeconds()), NexmarkReport.num(c.steadyCores()),
                    NexmarkReport.num(c.steady().readEventsPerSecond()),
                    NexmarkReport.num(c.steady().writtenEventsPerSecond()), c.checkpoints().completed(),
                    c.checkpoints().failed(), c.checkpoints().p50Ms(), c.checkpoints().p99Ms(),
                    c.checkpoints().maxMs(), c.checkpoints().sizeP50Bytes(), c.checkpoints().sizeMaxBytes(),
                    c.output().entries(), c.output().sha256(), NexmarkReport.escape(c.sinkPath()), NexmarkReport.escape(c.checkpointByVertex()),
                    pathJson(c.checkpointPath()), NexmarkReport.escape(c.plannerOptionsInPlan()),
                    NexmarkReport.escape(c.verdict()), i + 1 < cells.size() ? "," : ""));
        }
        return json.append("  ]\n}\n").toString();
    }

    private static String pathJson(CheckpointPath p) {
        return String.format(Locale.ROOT, "{\"checkpoints\": %d, \"lastVertex\": %d, \"lastShare\": %s,"
                        + " \"endToEndP50Ms\": %d, \"startDelayP50Ms\": %d, \"alignmentP50Ms\": %d, \"syncP50Ms\": %d,"
                        + " \"asyncP50Ms\": %d, \"restP50Ms\": %d}", p.checkpoints(), p.lastVertex(),
                NexmarkReport.num(p.lastShare()), p.endToEndP50Ms(), p.startDelayP50Ms(), p.alignmentP50Ms(),
                p.syncP50Ms(), p.asyncP50Ms(), p.restP50Ms());
    }

    private static String pairJson(Pair p) {
        return String.format(Locale.ROOT, "{\"stock\": %s, \"columnar\": %s, \"ratio\": %s, \"ratioMin\": %s,"
                        + " \"ratioMax\": %s}", NexmarkReport.num(p.stock()), NexmarkReport.num(p.columnar()),
                NexmarkReport.num(p.ratio()), NexmarkReport.num(p.ratioMin()), NexmarkReport.num(p.ratioMax()));
    }

    String csv() {
        StringBuilder csv = new StringBuilder("query,variant,mini_batch,round,rate,events,job_seconds,fill_seconds,"
                + "cpu_seconds,steady_cores,steady_read_events_per_second,checkpoints,checkpoint_p50_ms,"
                + "checkpoint_p99_ms,checkpoint_max_ms,checkpoint_size_p50_bytes,output_entries,output_digest,verdict,"
                + "recovery_seconds,records_replayed,split_distinct\n");
        for (CellResult c : everyCell) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%.1f,%d,%s,%s,%s,%s,%s,%d,%d,%d,%d,%d,%d,%s,\"%s\",%s,%s,%s%n",
                    c.spec().query().id(), c.spec().variant().id(), c.spec().miniBatch(),
                    c.round(), rate, run.events, NexmarkReport.num(c.jobSeconds()), NexmarkReport.num(c.fillSeconds()),
                    NexmarkReport.num(c.cpuSeconds()), NexmarkReport.num(c.steadyCores()),
                    NexmarkReport.num(c.steady().readEventsPerSecond()), c.checkpoints().completed(),
                    c.checkpoints().p50Ms(), c.checkpoints().p99Ms(), c.checkpoints().maxMs(),
                    c.checkpoints().sizeP50Bytes(), c.output().entries(), c.output().sha256(),
                    c.verdictHeadline().replace("\"", "'"), NexmarkReport.num(c.recoverySeconds()),
                    c.recovery() ? Long.toString(c.recordsReplayed()) : "", c.spec().splitDistinct()));
        }
        return csv.toString();
    }
}
