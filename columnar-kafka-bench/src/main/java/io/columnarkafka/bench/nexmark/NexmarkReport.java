package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.MachineLoad;
import io.columnarkafka.bench.PairedRounds;
import io.columnarkafka.bench.WarmUpFigures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The matrix's report: per query and mini-batch setting the medians of each variant's counted rounds, the
 * paired per-round throughput ratio (columnar / stock: median, min, max), CPU, checkpoint figures and the
 * output check; geomeans of the median ratios over stateless, stateful and all queries; per recovery query the
 * medians of the recovery cells and their paired per-round ratio of recovery time, and every recovery cell (a
 * failed check is a FAIL row); raw cells as JSON and CSV.
 */
final class NexmarkReport {
    // Package-private: the fixed-rate report (FixedRateReport) states the same run's settings.
    final List<CellResult> cells;
    final String stamp;
    final String note;
    final String loadBefore;
    final String loadAfter;
    final long events;
    final int warmup;
    final int rounds;
    final int parallelism;
    final long checkpointIntervalMs;
    final int partitions;
    final long seed;
    final ClientSettings clients;

    NexmarkReport(List<CellResult> cells, String stamp, String note, String loadBefore, String loadAfter, long events,
                  int warmup, int rounds, int parallelism, long checkpointIntervalMs, int partitions, long seed,
                  ClientSettings clients) {
        this.cells = cells;
        this.stamp = stamp;
        this.note = note;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.events = events;
        this.warmup = warmup;
        this.rounds = rounds;
        this.parallelism = parallelism;
        this.checkpointIntervalMs = checkpointIntervalMs;
        this.partitions = partitions;
        this.seed = seed;
        this.clients = clients;
    }

    /** The summary of one (query, mini-batch) pair over the counted rounds. */
    record Row(NexmarkQuery query, boolean miniBatch, double stockEps, double columnarEps, double ratio,
               double ratioMin, double ratioMax, double stockCpu, double columnarCpu, long stockP50, long columnarP50,
               long stockP99, long columnarP99, long stockMax, long columnarMax, long stockSize, long columnarSize,
               String output, String sinkPath, boolean ok, boolean compared) {}

    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        Set<String> pairs = new LinkedHashSet<>();
        for (CellResult c : cells) {
            if (c.round() > 0 && !c.recovery()) {
                pairs.add(c.spec().query().name() + "/" + c.spec().miniBatch());
            }
        }
        List<String> sorted = new ArrayList<>(pairs);
        sorted.sort((a, b) -> {
            String[] x = a.split("/");
            String[] y = b.split("/");
            int byQuery = Integer.compare(NexmarkQuery.valueOf(x[0]).ordinal(), NexmarkQuery.valueOf(y[0]).ordinal());
            return byQuery != 0 ? byQuery : x[1].compareTo(y[1]);
        });
        for (String pair : sorted) {
            NexmarkQuery query = NexmarkQuery.valueOf(pair.split("/")[0]);
            boolean mb = Boolean.parseBoolean(pair.split("/")[1]);
            List<CellResult> stock = counted(query, mb, Variant.STOCK);
            List<CellResult> columnar = counted(query, mb, Variant.COLUMNAR);
            List<CellResult> all = new ArrayList<>(stock);
            all.addAll(columnar);
            // The extra variants' cells have their own rows (VariantReport).
            all.addAll(cells.stream().filter(c -> c.round() == 0 && !c.recovery() && c.spec().query() == query
                    && c.spec().miniBatch() == mb && !c.spec().variant().extra()).toList());
            boolean ok = all.stream().allMatch(CellResult::ok) && !stock.isEmpty() && !columnar.isEmpty();
            boolean compared = ok && all.stream().allMatch(CellResult::compared);
            double[] ratios = pairedRatios(stock, columnar, CellResult::eventsPerSecond);
            String output = all.stream().filter(CellResult::ok).findFirst()
                    .map(c -> c.compared()
                            ? String.format(Locale.ROOT, "%,d %s", c.output().entries(),
                                    query.output.name().toLowerCase(Locale.ROOT))
                            : c.verdictHeadline())
                    .orElse("-");
            String failures = all.stream().filter(c -> !c.ok()).map(CellResult::verdictHeadline).distinct()
                    .collect(Collectors.joining("; "));
            String sinkPath = columnar.stream().map(CellResult::sinkPath).filter(s -> s != null && !s.isEmpty())
                    .distinct().collect(Collectors.joining(" | "));
            rows.add(new Row(query, mb, median(stock, CellResult::eventsPerSecond),
                    median(columnar, CellResult::eventsPerSecond), median(ratios), min(ratios), max(ratios),
                    median(stock, CellResult::cpuSecondsPerMillionEvents),
                    median(columnar, CellResult::cpuSecondsPerMillionEvents),
                    (long) median(stock, c -> c.checkpoints().p50Ms()), (long) median(columnar, c -> c.checkpoints().p50Ms()),
                    (long) median(stock, c -> c.checkpoints().p99Ms()), (long) median(columnar, c -> c.checkpoints().p99Ms()),
                    (long) median(stock, c -> c.checkpoints().maxMs()), (long) median(columnar, c -> c.checkpoints().maxMs()),
                    (long) median(stock, c -> c.checkpoints().sizeP50Bytes()),
                    (long) median(columnar, c -> c.checkpoints().sizeP50Bytes()),
                    ok ? output : failures.isEmpty() ? "FAIL: a variant has no counted cell" : failures, sinkPath, ok,
                    compared));
        }
        return rows;
    }

    private List<CellResult> counted(NexmarkQuery query, boolean mb, Variant variant) {
        return cells.stream().filter(c -> c.round() > 0 && !c.recovery() && c.spec().query() == query
                && c.spec().miniBatch() == mb && c.spec().variant().equals(variant) && c.ok()).toList();
    }

    /** The summary of one query's recovery cells over the counted rounds. */
    record RecoveryRow(NexmarkQuery query, int pairs, double stockRestart, double columnarRestart,
                       double stockRecovery, double columnarRecovery, double ratio, double ratioMin, double ratioMax,
                       double stockReplayed, double columnarReplayed, String output, boolean ok) {}

    List<RecoveryRow> recoveryRows() {
        List<RecoveryRow> rows = new ArrayList<>();
        List<NexmarkQuery> queries = cells.stream().filter(CellResult::recovery).map(c -> c.spec().query()).distinct()
                .sorted().toList();
        for (NexmarkQuery query : queries) {
            // The extra variants' cells have their own rows (RecoveryVariantReport).
            List<CellResult> all = cells.stream().filter(c -> c.recovery() && c.spec().query() == query
                    && !c.spec().variant().extra()).toList();
            List<CellResult> stock = all.stream().filter(c -> c.ok() && c.spec().variant().equals(Variant.STOCK)).toList();
            List<CellResult> columnar = all.stream().filter(c -> c.ok() && c.spec().variant().equals(Variant.COLUMNAR))
                    .toList();
            double[] ratios = pairedRatios(stock, columnar, CellResult::recoverySeconds);
            boolean ok = all.stream().allMatch(CellResult::ok) && !stock.isEmpty() && !columnar.isEmpty();
            String failures = all.stream().filter(c -> !c.ok()).map(CellResult::verdictHeadline).distinct()
                    .collect(Collectors.joining("; "));
            rows.add(new RecoveryRow(query, ratios.length,
                    median(stock, CellResult::restartSeconds), median(columnar, CellResult::restartSeconds),
                    median(stock, CellResult::recoverySeconds), median(columnar, CellResult::recoverySeconds),
                    median(ratios), min(ratios), max(ratios),
                    medianReplayed(stock), medianReplayed(columnar),
                    ok ? "exactly once, equal to stock" : failures.isEmpty() ? "FAIL: a variant has no cell" : failures,
                    ok));
        }
        return rows;
    }

    /** The median of the cells' records replayed, over the cells where it is known. */
    private static double medianReplayed(List<CellResult> cells) {
        return median(cells.stream().filter(c -> c.recordsReplayed() >= 0).toList(), CellResult::recordsReplayed);
    }

    /** Columnar / stock of {@code figure}, per round in which both cells of the pair passed. */
    static double[] pairedRatios(List<CellResult> stock, List<CellResult> columnar,
                                         ToDoubleFunction<CellResult> figure) {
        return PairedRounds.ratios(stock, columnar, CellResult::round, figure).stream()
                .mapToDouble(Double::doubleValue).toArray();
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    static double median(List<CellResult> cells, ToDoubleFunction<CellResult> f) {
        return median(cells.stream().mapToDouble(f).toArray());
    }

    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }

    /** Over the rows whose output was compared (a not-compared row's throughput is measured, not checked). */
    static double geomean(List<Row> rows) {
        return geomean(rows.stream().filter(Row::compared).mapToDouble(Row::ratio).toArray());
    }

    /** The geomean of the positive ratios; NaN if there is none. */
    static double geomean(double[] ratios) {
        double[] positive = Arrays.stream(ratios).filter(r -> r > 0).toArray();
        return positive.length == 0 ? Double.NaN
                : Math.exp(Arrays.stream(positive).map(Math::log).sum() / positive.length);
    }

    String markdown() {
        List<Row> rows = rows();
        List<SteadyStateReport.Row> steady = new SteadyStateReport(rows, cells).rows();
        StringBuilder md = new StringBuilder();
        md.append("# Nexmark exactly-once Kafka matrix, ").append(stamp).append("\n\n");
        md.append(MachineLoad.sentence(MachineLoad.oneMinute(loadBefore), MachineLoad.oneMinute(loadAfter)))
                .append(" The ratios are paired per round.");
        if (!note.isBlank()) {
            md.append(' ').append(note);
        }
        md.append("\n\n");
        String source = cells.stream().filter(c -> c.spec().variant().equals(Variant.COLUMNAR)).map(CellResult::sourceConnector)
                .filter(s -> s != null).findFirst().orElse("kafka");
        md.append(String.format(Locale.ROOT, "%,d Nexmark events (seed %d, 1:3:46, 10,000 events/s of event time) in"
                + " one %d-partition topic; each cell one Flink job in its own JVM (MiniCluster, parallelism %d, %s,"
                + " %d ms checkpoints, EXACTLY_ONCE Kafka sink), the broker in another JVM; %d warm-up round(s)"
                + " not counted, then %d rounds, stock and columnar paired in each round, their order alternating and"
                + " the query order rotating from round to round. Throughput = events / job time (RUNNING to FINISHED);"
                + " steady-state throughput = the rate between the moments 10 %% and 90 %% of the input had been read"
                + " by the sources and 10 %% and 90 %% of the output sent by the sinks, the slower of the two (as"
                + " Nexmark's suite measures an unbounded run, by the sources' rate while running; it leaves out"
                + " start-up and the final checkpoint wait, see docs/nexmark.md);"
                + " CPU = the cell JVM's process CPU time over the job, per million events.%n%n",
                events, seed, partitions, parallelism, CellStateBackend.of(cells).phrase(), checkpointIntervalMs, warmup,
                rounds));
        md.append(clients.describe());
        md.append(SplitDistinct.describe(cells));
        md.append(FlinkOptions.describe(cells));
        md.append(describeWarmUp());
        if (cells.stream().anyMatch(c -> c.spec().columnarPlanner())) {
            md.append("**What is columnar in the columnar cells:** the columnar planner stage is installed"
                    + " (ColumnarSql; every cell plans with Flink's planner jar instead of the loader): `kafka-columnar`"
                    + " scans emit Arrow batches, Calcs the columnar calc evaluates exactly and insert-only"
                    + " `kafka-columnar` sinks run on them, and Flink's operators take the rest behind Arrow-to-rows"
                    + " edges; the last column shows each plan's columnar nodes and edges. The stateless queries'"
                    + " source table has no WATERMARK in both variants (they use none); the event-time queries'"
                    + " watermark is pushed into the columnar scan.\n\n");
        } else {
            md.append("**What is columnar in the columnar cells:** the source is `").append(source).append("`")
                    .append(source.equals("kafka")
                            ? " (stock: Flink's KafkaSource and JSON deserializer; no columnar scan source is on main yet)"
                            : " (the columnar scan source)")
                    .append("; the sink is `kafka-columnar` / `upsert-kafka-columnar`: Flink's planner and operators on"
                            + " RowData, then the columnar JSON encoder into Flink's stock KafkaSink (the sink column shows"
                            + " the admission). Everything between source and sink is Flink's own row-at-a-time"
                            + " execution in both variants.\n\n");
        }
        for (boolean mb : new boolean[] {false, true}) {
            List<Row> part = rows.stream().filter(r -> r.miniBatch == mb).toList();
            if (part.isEmpty()) {
                continue;
            }
            md.append("## Mini-batch ").append(mb ? "on (allow-latency 2 s, size 50000)" : "off").append("\n\n");
            List<SteadyStateReport.Row> steadyPart = steady.stream().filter(r -> r.miniBatch() == mb).toList();
            md.append(String.format(Locale.ROOT, "Geomean throughput ratio (columnar / stock) by job time, the metric"
                            + " issue #11's targets name: stateless **%s**, stateful **%s**, all **%s**. By steady-state"
                            + " rate: %s.%n%n",
                    twoDecimals(geomean(part.stream().filter(r -> !r.query.stateful).toList())),
                    twoDecimals(geomean(part.stream().filter(r -> r.query.stateful).toList())), twoDecimals(geomean(part)),
                    SteadyStateReport.geomeans(steadyPart)));
            md.append("| query | kind | stock events/s | columnar events/s | ratio (min–max) | CPU s/M events"
                    + " stock / col. | ckpt p50 ms stock / col. | ckpt p99 | ckpt max | ckpt size p50 KiB | output"
                    + " (read_committed, equal to stock) | columnar sink |\n");
            md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
            for (Row r : part) {
                md.append(String.format(Locale.ROOT,
                        "| %s | %s | %,.0f | %,.0f | **%.2f** (%.2f–%.2f) | %.1f / %.1f | %d / %d | %d / %d | %d / %d"
                                + " | %,.1f / %,.1f | %s | %s |%n",
                        r.query.id(), r.query.stateful ? "stateful" : "stateless", r.stockEps, r.columnarEps, r.ratio,
                        r.ratioMin, r.ratioMax, r.stockCpu, r.columnarCpu, r.stockP50, r.columnarP50, r.stockP99,
                        r.columnarP99, r.stockMax, r.columnarMax, r.stockSize / 1024.0, r.columnarSize / 1024.0,
                        r.output, r.sinkPath));
            }
            md.append('\n');
            part.stream().filter(r -> r.ok && !r.compared).forEach(r -> md.append("Not in the geomeans: **")
                    .append(r.query.id()).append("**, ").append(r.output).append(".\n\n"));
            new VariantReport(cells).appendMarkdown(md, mb);
            SteadyStateReport.appendTable(md, steadyPart);
        }
        new FloorReport(cells).appendMarkdown(md);
        appendRecovery(md);
        appendCheckpointsByTask(md);
        md.append("## Not run\n\n");
        NexmarkQuery.SKIPPED.forEach((q, why) -> md.append("- ").append(q).append(": ").append(why).append('\n'));
        List<CellResult> failed = cells.stream().filter(c -> !c.ok()).toList();
        md.append("\n## Failures\n\n");
        if (failed.isEmpty()) {
            md.append("None: every cell's read_committed output equals the stock result.\n");
        } else {
            for (CellResult c : failed) {
                md.append("- **").append(c.spec().label()).append(" round ").append(c.round()).append("**: ")
                        .append(c.verdict()).append('\n');
            }
        }
        return md.toString();
    }

    /** The recovery cells' section: per query the paired summary, every cell, the phases; nothing without any. */
    void appendRecovery(StringBuilder md) {
        List<CellResult> recovery = cells.stream().filter(CellResult::recovery).toList();
        if (recovery.isEmpty()) {
            return;
        }
        boolean fixedRate = recovery.get(0).spec().fixedRate();
        md.append("## Recovery: one TaskManager process killed mid-run (mini-batch off")
                .append(fixedRate ? ", at the fixed input rate" : "").append(")\n\n");
        md.append(String.format(Locale.ROOT, "Per recovery query and counted round, every variant runs once more, rotated"
                + " like the cells above, each on a standalone Flink cluster of separate JVMs (a job manager and two"
                + " TaskManagers, the job's slots all on one, the other a spare). Once the sources have read %.0f %% of"
                + " the input (their current offsets, written by a metric reporter in each TaskManager every 10 ms),"
                + " the TaskManager process running the job is killed with SIGKILL at the first checkpoint completed"
                + " after that: %d ms or more after its completion (its offsets committed) and before the job's %d ms"
                + " checkpoint min-pause (recovery cells only, every variant) lets the next one start; the job restarts"
                + " on the spare from that checkpoint. Noticed = the kill to the job manager failing the"
                + " tasks (its heartbeat RPCs to the dead process failing; at the latest the 5 s heartbeat timeout);"
                + " restart = the kill to every task running again;"
                + (fixedRate ? " caught up = the kill to the restarted sources having read past where they would be"
                        + " without the failure (the failure position plus the events the live fill wrote since the"
                        + " kill: back at the live input, as they trailed it before), which takes replaying the records"
                        + " since the restored checkpoint and the input that arrived meanwhile, with the spare capacity"
                        + " the variant has at this rate; the job is then stopped with drain once it has read every"
                        + " event;"
                        : " caught up = the kill to the restarted sources having read past the failure position;")
                + " replayed ="
                + " the position at the failure − the offsets the sources committed for that checkpoint (– should the"
                + " job restore another). Job s = the job's creation to its end; CPU (in the JSON and CSV) = the TaskManager"
                + " processes' CPU time. The output must still equal stock's without a failure, read_committed."
                + " Ratio = columnar / stock recovery time, paired per round (below 1: columnar recovers faster).%n%n",
                100 * recovery.get(0).spec().failAtFraction(), FailureInjection.COMMIT_SETTLE_MS,
                RecoveryCell.CHECKPOINT_MIN_PAUSE_MS));
        md.append("| query | pairs | restart s stock / col. | caught up s stock / col. | ratio (min–max) |"
                + " records replayed stock / col. | output |\n");
        md.append("|---|---:|---:|---:|---:|---:|---|\n");
        for (RecoveryRow r : recoveryRows()) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %s / %s | %s / %s | %s | %s / %s | %s |%n",
                    r.query.id(), r.pairs, twoDecimals(r.stockRestart), twoDecimals(r.columnarRestart),
                    twoDecimals(r.stockRecovery), twoDecimals(r.columnarRecovery), r.pairs == 0 ? "–"
                            : String.format(Locale.ROOT, "**%.2f** (%.2f–%.2f)", r.ratio, r.ratioMin, r.ratioMax),
                    count(r.stockReplayed), count(r.columnarReplayed), r.output));
        }
        md.append('\n');
        new RecoveryVariantReport(cells).appendMarkdown(md);
        md.append("Every recovery cell:\n\n");
        md.append("| query | round | variant | noticed s | restart s | caught up s | records replayed | checkpoint"
                + " restored (last at failure) | job s | ckpt p50 / p99 / max ms | ckpt size p50 KiB | output |\n");
        md.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (CellResult c : recovery) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    c.spec().query().id(), c.round(), c.spec().variant().id(),
                    twoDecimals(c.noticedSeconds()), twoDecimals(c.restartSeconds()), twoDecimals(c.recoverySeconds()),
                    c.recordsReplayed() < 0 ? "–" : String.format(Locale.ROOT, "%,d", c.recordsReplayed()),
                    c.restoredCheckpoint() < 0 ? "–" : c.restoredCheckpoint() + " (" + c.checkpointAtFailure() + ")",
                    twoDecimals(c.jobSeconds()),
                    c.ok() ? c.checkpoints().p50Ms() + " / " + c.checkpoints().p99Ms() + " / " + c.checkpoints().maxMs()
                            : "–",
                    c.ok() ? String.format(Locale.ROOT, "%,.1f", c.checkpoints().sizeP50Bytes() / 1024.0) : "–",
                    c.ok() ? "exactly once, equal to stock" : c.verdictHeadline()));
        }
        md.append('\n');
        new RecoveryPhasesReport(cells).append(md);
    }

    /** Every counted cell's checkpoints by task, stock and columnar of a query next to each other. */
    private void appendCheckpointsByTask(StringBuilder md) {
        List<CellResult> measured = cells.stream()
                .filter(c -> c.round() > 0 && c.ok() && !c.checkpointByVertex().isEmpty())
                .sorted(java.util.Comparator.comparing((CellResult c) -> c.spec().query())
                        .thenComparing(c -> c.spec().miniBatch()).thenComparing(CellResult::recovery)
                        .thenComparing(CellResult::round).thenComparing(c -> c.spec().variant()))
                .toList();
        if (measured.isEmpty()) {
            return;
        }
        md.append("## Checkpoints by task\n\n");
        md.append("Per counted cell and task (operator chain), over the cell's completed checkpoints: the p50 and the"
                + " largest of the task's state size (its subtasks summed; the largest depends least on when the"
                + " checkpoints fell) and the p50 of its slowest subtask's start delay (trigger to the"
                + " barrier reaching the task), synchronous and asynchronous snapshot time and acknowledgement"
                + " (trigger to ack), from Flink's checkpoint statistics.\n\n");
        md.append("| query | mini-batch | round | variant | task | size p50 B | size max B | start delay ms | sync ms"
                + " | async ms | ack ms |\n");
        md.append("|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (CellResult c : measured) {
            for (String line : c.checkpointByVertex().lines().toList()) {
                String[] f = line.split(" \\| ");
                md.append(String.format(Locale.ROOT, "| %s | %s | %d | %s%s | `%s` | %s | %s | %s | %s | %s | %s |%n",
                        c.spec().query().id(), c.spec().miniBatch() ? "on" : "off", c.round(),
                        c.spec().variant().id(), c.recovery() ? " (recovery)" : "",
                        f[0].replace("`", "'"), f[1].replace("size p50 ", "").replace(" B", ""),
                        f[2].replace("size max ", "").replace(" B", ""), f[3].replace("start delay ", "").replace(" ms", ""),
                        f[4].replace("sync ", "").replace(" ms", ""), f[5].replace("async ", "").replace(" ms", ""),
                        f[6].replace("ack ", "").replace(" ms", "")));
            }
        }
        md.append('\n');
        if (measured.stream().anyMatch(c -> !c.sendWindows().isEmpty())) {
            md.append("Per counted cell and task with a send window, over its subtasks' checkpoints: the bytes in"
                    + " flight when the barrier reached the operator that hands records to the writer (what the"
                    + " writer's flush then waits for) and the time from there to the operator's snapshot (the"
                    + " writer's flush and snapshot), from the window's metrics (`SendWindowMetrics`).\n\n");
            md.append("| query | mini-batch | round | variant | task | checkpoints | backlog p50 KiB | backlog max KiB"
                    + " | flush p50 ms | flush max ms |\n");
            md.append("|---|---|---:|---|---|---:|---:|---:|---:|---:|\n");
            for (CellResult c : measured) {
                for (String line : c.sendWindows().lines().toList()) {
                    String[] f = line.split(" \\| ");
                    md.append(String.format(Locale.ROOT, "| %s | %s | %d | %s%s | `%s` | %s | %s | %s | %s | %s |%n",
                            c.spec().query().id(), c.spec().miniBatch() ? "on" : "off", c.round(),
                            c.spec().variant().id(), c.recovery() ? " (recovery)" : "", f[0].replace("`", "'"),
                            f[1].replace("checkpoints ", ""), f[2].replace("backlog p50 ", "").replace(" KiB", ""),
                            f[3].replace("backlog max ", "").replace(" KiB", ""),
                            f[4].replace("flush p50 ", "").replace(" ms", ""),
                            f[5].replace("flush max ", "").replace(" ms", "")));
                }
            }
            md.append('\n');
        }
    }

    /** Two decimals (seconds, ratios), or – where there is no value (e.g. a geomean over no query of a kind). */
    static String twoDecimals(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.2f", v);
    }

    static String count(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
    }

    /** How the plain cells' JVMs ran their job before the measured one ({@code --jvm-warm-up}). */
    private JvmWarmUp jvmWarmUp() {
        return cells.stream().map(c -> c.spec().jvmWarmUp()).filter(w -> w != JvmWarmUp.OFF).findFirst()
                .orElse(JvmWarmUp.OFF);
    }

    /** The JVM warm-up paragraph ({@link WarmUpFigures#paragraph}); recovery cells run without a warm-up. */
    String describeWarmUp() {
        Map<String, List<WarmUpFigures>> byVariant = new LinkedHashMap<>();
        cells.stream().filter(c -> c.warmUp().jobs() > 0).collect(Collectors.groupingBy(c -> c.spec().variant(),
                        TreeMap::new, Collectors.mapping(CellResult::warmUp, Collectors.toList())))
                .forEach((variant, figures) -> byVariant.put(variant.id(), figures));
        return WarmUpFigures.paragraph(jvmWarmUp(), "each plain cell's JVM", "Recovery cells run without it.",
                byVariant);
    }

    String json() {
        StringBuilder json = new StringBuilder("{\n  \"stamp\": \"").append(stamp).append("\",\n");
        json.append(String.format(Locale.ROOT, "  \"events\": %d, \"parallelism\": %d, \"warmup\": %d, \"rounds\": %d,"
                + " \"checkpointIntervalMs\": %d, \"loadBefore\": \"%s\", \"loadAfter\": \"%s\", \"machineBusyAtStart\": %b,"
                + " \"jvmWarmUp\": %b, \"jvmWarmUpMode\": \"%s\", \"state\": \"%s\",%n",
                events, parallelism, warmup, rounds, checkpointIntervalMs, loadBefore, loadAfter,
                MachineLoad.busy(MachineLoad.oneMinute(loadBefore)), jvmWarmUp() != JvmWarmUp.OFF, jvmWarmUp().flag(),
                CellStateBackend.of(cells).flag()));
        json.append("  \"summary\": [\n");
        List<Row> rows = rows();
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            json.append(String.format(Locale.ROOT, "    {\"query\": \"%s\", \"stateful\": %s, \"miniBatch\": %s,"
                            + " \"stockEventsPerSecond\": %.1f, \"columnarEventsPerSecond\": %.1f, \"ratio\": %.4f,"
                            + " \"ratioMin\": %.4f, \"ratioMax\": %.4f, \"stockCpuSecondsPerMillion\": %.3f,"
                            + " \"columnarCpuSecondsPerMillion\": %.3f, \"stockCheckpointP50Ms\": %d,"
                            + " \"columnarCheckpointP50Ms\": %d, \"stockCheckpointP99Ms\": %d, \"columnarCheckpointP99Ms\": %d,"
                            + " \"stockCheckpointMaxMs\": %d, \"columnarCheckpointMaxMs\": %d,"
                            + " \"stockCheckpointSizeP50Bytes\": %d, \"columnarCheckpointSizeP50Bytes\": %d,"
                            + " \"ok\": %s, \"compared\": %s, \"output\": \"%s\", \"columnarSink\": \"%s\"}%s%n",
                    r.query.id(), r.query.stateful, r.miniBatch, r.stockEps, r.columnarEps, r.ratio, r.ratioMin,
                    r.ratioMax, r.stockCpu, r.columnarCpu, r.stockP50, r.columnarP50, r.stockP99, r.columnarP99,
                    r.stockMax, r.columnarMax, r.stockSize, r.columnarSize, r.ok, r.compared, escape(r.output), escape(r.sinkPath),
                    i + 1 < rows.size() ? "," : ""));
        }
        json.append("  ],\n  \"steady\": ").append(new SteadyStateReport(rows, cells).json()).append(",\n");
        json.append("  \"variants\": [").append(cells.stream().map(c -> c.spec().variant()).distinct().sorted()
                .map(v -> "\"" + escape(v.id()) + "\"").collect(Collectors.joining(", "))).append("],\n");
        json.append("  \"variantSummary\": ").append(new VariantReport(cells).json()).append(",\n");
        json.append("  \"floor\": ").append(new FloorReport(cells).json()).append(",\n");
        json.append("  \"recoveryVariantSummary\": ").append(new RecoveryVariantReport(cells).json()).append(",\n");
        json.append("  \"recovery\": ").append(recoveryJson()).append(",\n");
        json.append("  \"cells\": [\n");
        for (int i = 0; i < cells.size(); i++) {
            json.append("    ").append(cellJson(cells.get(i))).append(i + 1 < cells.size() ? ",\n" : "\n");
        }
        return json.append("  ]\n}\n").toString();
    }

    /** The per-query recovery summaries as a JSON array. */
    String recoveryJson() {
        StringBuilder json = new StringBuilder("[\n");
        List<RecoveryRow> recovery = recoveryRows();
        for (int i = 0; i < recovery.size(); i++) {
            RecoveryRow r = recovery.get(i);
            json.append(String.format(Locale.ROOT, "    {\"query\": \"%s\", \"pairs\": %d, \"stockRestartSeconds\": %s,"
                            + " \"columnarRestartSeconds\": %s, \"stockRecoverySeconds\": %s, \"columnarRecoverySeconds\": %s,"
                            + " \"ratio\": %s, \"ratioMin\": %s, \"ratioMax\": %s, \"stockRecordsReplayed\": %s,"
                            + " \"columnarRecordsReplayed\": %s, \"ok\": %s, \"output\": \"%s\"}%s%n",
                    r.query.id(), r.pairs, num(r.stockRestart), num(r.columnarRestart), num(r.stockRecovery),
                    num(r.columnarRecovery), num(r.ratio), num(r.ratioMin), num(r.ratioMax), num(r.stockReplayed),
                    num(r.columnarReplayed), r.ok, escape(r.output), i + 1 < recovery.size() ? "," : ""));
        }
        return json.append("  ]").toString();
    }

    static String cellJson(CellResult c) {
        return String.format(Locale.ROOT, "{\"query\": \"%s\", \"variant\": \"%s\", \"miniBatch\": %s,"
                        + " \"splitDistinct\": %s, \"round\": %d,"
                        + " \"jobSeconds\": %s, \"steadyEventsPerSecond\": %s, \"steadyReadEventsPerSecond\": %s,"
                        + " \"steadyWrittenEventsPerSecond\": %s, \"fixedSeconds\": %s,"
                        + " \"cpuSeconds\": %s, \"checkpoints\": %d, \"checkpointP50Ms\": %d,"
                        + " \"checkpointP99Ms\": %d, \"checkpointMaxMs\": %d, \"checkpointSizeP50Bytes\": %d,"
                        + " \"checkpointSizeMaxBytes\": %d, \"steadyCheckpoints\": %d, \"steadyCheckpointP50Ms\": %s,"
                        + " \"recovery\": %s, \"noticedSeconds\": %s, \"restartSeconds\": %s, \"recoverySeconds\": %s,"
                        + " \"recordsReplayed\": %d,"
                        + " \"restoredCheckpoint\": %d, \"checkpointAtFailure\": %d,"
                        + " \"outputEntries\": %d, \"outputDigest\": \"%s\", \"source\": \"%s\", \"sink\": \"%s\","
                        + " \"checkpointByVertex\": \"%s\", \"recoveryPhasesMs\": \"%s\", \"restartByTask\": \"%s\","
                        + " \"plannerOptionsInPlan\": \"%s\", \"jvmWarmUpJobs\": %d, \"jitSeconds\": %s,"
                        + " \"sendWindows\": \"%s\", \"verdict\": \"%s\"}",
                c.spec().query().id(), c.spec().variant().id(), c.spec().miniBatch(), c.spec().splitDistinct(),
                c.round(), num(c.jobSeconds()), num(c.steadyEventsPerSecond()), num(c.steady().readEventsPerSecond()),
                num(c.steady().writtenEventsPerSecond()), num(c.fixedSeconds()), num(c.cpuSeconds()),
                c.checkpoints().completed(),
                c.checkpoints().p50Ms(), c.checkpoints().p99Ms(), c.checkpoints().maxMs(),
                c.checkpoints().sizeP50Bytes(), c.checkpoints().sizeMaxBytes(), c.steadyCheckpoints().completed(),
                steadyP50(c), c.recovery(), num(c.noticedSeconds()),
                num(c.restartSeconds()), num(c.recoverySeconds()),
                c.recordsReplayed(), c.restoredCheckpoint(), c.checkpointAtFailure(), c.output().entries(),
                c.output().sha256(), c.sourceConnector(), escape(c.sinkPath()), escape(c.checkpointByVertex()),
                c.recoveryPhases() == null ? "" : c.recoveryPhases().toString(), escape(c.restartByTask()),
                escape(c.plannerOptionsInPlan()), c.warmUp().jobs(), num(c.warmUp().measuredJitSeconds()),
                escape(c.sendWindows()), escape(c.verdict()));
    }

    String csv() {
        StringBuilder csv = new StringBuilder("query,variant,mini_batch,round,job_seconds,events_per_second,"
                + "cpu_seconds_per_million,checkpoints,checkpoint_p50_ms,checkpoint_p99_ms,checkpoint_max_ms,"
                + "checkpoint_size_p50_bytes,recovery,noticed_seconds,restart_seconds,recovery_seconds,records_replayed,"
                + "restored_checkpoint,checkpoint_at_failure,output_entries,"
                + "output_digest,verdict,steady_events_per_second,steady_read_events_per_second,"
                + "steady_written_events_per_second,fixed_seconds,planner_options_in_plan,steady_checkpoints,"
                + "steady_checkpoint_p50_ms,split_distinct\n");
        for (CellResult c : cells) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%s,%s,%s,%d,%d,%d,%d,%d,%s,%s,%s,%s,%d,%d,%d,%d,%s,\"%s\","
                            + "%s,%s,%s,%s,\"%s\",%d,%s,%s%n",
                    c.spec().query().id(), c.spec().variant().id(), c.spec().miniBatch(),
                    c.round(), num(c.jobSeconds()), num(c.eventsPerSecond()), num(c.cpuSecondsPerMillionEvents()),
                    c.checkpoints().completed(), c.checkpoints().p50Ms(), c.checkpoints().p99Ms(),
                    c.checkpoints().maxMs(), c.checkpoints().sizeP50Bytes(), c.recovery(), num(c.noticedSeconds()),
                    num(c.restartSeconds()), num(c.recoverySeconds()), c.recordsReplayed(), c.restoredCheckpoint(), c.checkpointAtFailure(),
                    c.output().entries(), c.output().sha256(), c.verdictHeadline().replace("\"", "'"),
                    num(c.steadyEventsPerSecond()), num(c.steady().readEventsPerSecond()),
                    num(c.steady().writtenEventsPerSecond()), num(c.fixedSeconds()),
                    c.plannerOptionsInPlan().replace("\"", "'"), c.steadyCheckpoints().completed(), steadyP50(c),
                    c.spec().splitDistinct()));
        }
        return csv.toString();
    }

    /** A cell's checkpoint p50 in its steady window; null (JSON) where it had none there. */
    private static String steadyP50(CellResult c) {
        return c.steadyCheckpoints().completed() == 0 ? "null" : Long.toString(c.steadyCheckpoints().p50Ms());
    }

    static String num(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.4f", v);
    }

    static String escape(String s) {
        return s == null ? "" : s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")
                .replace("\r", "\\r").replace("\t", "\\t");
    }
}
