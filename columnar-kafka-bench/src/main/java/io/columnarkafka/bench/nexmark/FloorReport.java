package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.Spread;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The report's floor part ({@code --floor on}): per stateless query and mini-batch setting with floor cells, the
 * floor against stock, columnar against stock and columnar against the floor, each paired per round (median, min,
 * max over the counted rounds in which both cells passed), by job time and by steady-state rate; each variant's
 * median events/s and CPU per million events; and each variant's median job phases ({@link JobPhases}), with
 * columnar's minus the floor's: where columnar's time above the floor goes.
 */
final class FloorReport {
    private final List<CellResult> cells;

    FloorReport(List<CellResult> cells) {
        this.cells = cells;
    }

    /**
     * One (query, mini-batch) pair. Ratios are of events/s (higher is faster): floor ÷ stock is the most any codec
     * and calc can gain over stock's in this job; columnar ÷ floor is how close columnar comes to it.
     *
     * @param phases each variant's median phases in ms (stock, columnar, floor; {@link JobPhases#NAMES}), NaN where
     *     no counted cell measured them
     */
    record Row(NexmarkQuery query, boolean miniBatch, Spread floorVsStock, Spread columnarVsStock,
               Spread columnarVsFloor, Spread steadyFloorVsStock, Spread steadyColumnarVsStock,
               Spread steadyColumnarVsFloor, double[] eventsPerSecond, double[] cpuPerMillion, double[][] phases) {}

    private static final List<Variant> VARIANTS = List.of(Variant.STOCK, Variant.COLUMNAR, Variant.FLOOR);

    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        cells.stream().filter(c -> c.spec().variant().equals(Variant.FLOOR) && c.round() > 0)
                .map(c -> c.spec().query().name() + "/" + c.spec().miniBatch()).distinct().sorted()
                .forEach(pair -> {
                    NexmarkQuery query = NexmarkQuery.valueOf(pair.split("/")[0]);
                    boolean mb = Boolean.parseBoolean(pair.split("/")[1]);
                    List<CellResult> stock = counted(query, mb, Variant.STOCK);
                    List<CellResult> columnar = counted(query, mb, Variant.COLUMNAR);
                    List<CellResult> floor = counted(query, mb, Variant.FLOOR);
                    ToDoubleFunction<CellResult> job = CellResult::eventsPerSecond;
                    ToDoubleFunction<CellResult> steady = CellResult::steadyEventsPerSecond;
                    double[][] phases = new double[VARIANTS.size()][];
                    for (int v = 0; v < VARIANTS.size(); v++) {
                        phases[v] = medianPhases(counted(query, mb, VARIANTS.get(v)));
                    }
                    rows.add(new Row(query, mb, paired(stock, floor, job), paired(stock, columnar, job),
                            paired(floor, columnar, job), paired(stock, floor, steady), paired(stock, columnar, steady),
                            paired(floor, columnar, steady),
                            VARIANTS.stream().mapToDouble(v -> NexmarkReport.median(counted(query, mb, v), job))
                                    .toArray(),
                            VARIANTS.stream().mapToDouble(v -> NexmarkReport.median(counted(query, mb, v),
                                    CellResult::cpuSecondsPerMillionEvents)).toArray(),
                            phases));
                });
        rows.sort((a, b) -> a.query() != b.query() ? a.query().compareTo(b.query())
                : Boolean.compare(a.miniBatch(), b.miniBatch()));
        return rows;
    }

    /** {@code over}'s figure ÷ {@code under}'s, per counted round where both passed; NaN figures left out. */
    static Spread paired(List<CellResult> under, List<CellResult> over, ToDoubleFunction<CellResult> figure) {
        List<Double> ratios = new ArrayList<>();
        for (double r : NexmarkReport.pairedRatios(under, over, figure)) {
            if (!Double.isNaN(r)) {
                ratios.add(r);
            }
        }
        return Spread.of(ratios);
    }

    private List<CellResult> counted(NexmarkQuery query, boolean mb, Variant variant) {
        return cells.stream().filter(c -> c.round() > 0 && !c.recovery() && c.spec().query() == query
                && c.spec().miniBatch() == mb && c.spec().variant().equals(variant) && c.compared()).toList();
    }

    /** Per phase, the median over the cells that measured phases; NaN for each if none did. */
    static double[] medianPhases(List<CellResult> cells) {
        List<long[]> measured = cells.stream().filter(c -> c.phases() != null).map(c -> c.phases().values()).toList();
        double[] medians = new double[JobPhases.NAMES.size()];
        for (int i = 0; i < medians.length; i++) {
            int phase = i;
            medians[i] = NexmarkReport.median(measured.stream().mapToDouble(p -> p[phase]).toArray());
        }
        return medians;
    }

    void appendMarkdown(StringBuilder md) {
        List<Row> rows = rows();
        if (rows.isEmpty()) {
            return;
        }
        md.append("## Floor: the same job without decode, calc and encode (stateless queries)\n\n");
        md.append("Each stateless query's floor cell runs in every round beside its stock and columnar cells (the three"
                + " rotated one place a round): Flink's KafkaSource reads the same input topic (same partitions,"
                + " bounded the same way, the source table's consumer settings), and for each input record looks up by"
                + " partition and offset the value stock Flink writes for it, or nothing where the query drops the"
                + " record (a table stock Flink filled once per query before the rounds: the query as written, each"
                + " record's partition and offset carried as the result's key); Flink's KafkaSink writes those values"
                + " EXACTLY_ONCE with the result table's producer settings; same parallelism and checkpoints. No JSON"
                + " is parsed, evaluated or written in the job. Its output is read back read_committed and must equal"
                + " stock's, like every cell's. So floor ÷ stock is the most any decode, calc and encode could gain"
                + " over stock's in this job, and columnar ÷ floor how close columnar comes to that (1.00 = costing"
                + " nothing). Ratios of events/s, paired per round: median (min–max).\n\n");
        md.append("| query | mini-batch | floor ÷ stock, job time | columnar ÷ stock, job time | columnar ÷ floor, job"
                + " time | floor ÷ stock, steady | columnar ÷ stock, steady | columnar ÷ floor, steady | events/s stock"
                + " / col. / floor | CPU s/M events stock / col. / floor |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.query().id(), r.miniBatch() ? "on" : "off", bold(r.floorVsStock()), bold(r.columnarVsStock()),
                    bold(r.columnarVsFloor()), bold(r.steadyFloorVsStock()), bold(r.steadyColumnarVsStock()),
                    bold(r.steadyColumnarVsFloor()), triple(r.eventsPerSecond(), "%,.0f"),
                    triple(r.cpuPerMillion(), "%.1f")));
        }
        md.append("\nWhere the job time goes (ms, each variant's median per phase over its counted cells; the phases"
                + " add up to the job time, see JobPhases / docs/nexmark.md), and columnar's minus the floor's:\n\n");
        md.append("| query | mini-batch | variant | ").append(String.join(" | ", JobPhases.NAMES)).append(" | sum |\n");
        md.append("|---|---|---|").append("---:|".repeat(JobPhases.NAMES.size() + 1)).append('\n');
        for (Row r : rows) {
            for (int v = 0; v < VARIANTS.size(); v++) {
                appendPhases(md, r, VARIANTS.get(v).id(), r.phases()[v]);
            }
            double[] above = new double[JobPhases.NAMES.size()];
            for (int i = 0; i < above.length; i++) {
                above[i] = r.phases()[1][i] - r.phases()[2][i];
            }
            appendPhases(md, r, "**columnar − floor**", above);
        }
        md.append('\n');
    }

    private static void appendPhases(StringBuilder md, Row r, String variant, double[] phases) {
        md.append("| ").append(r.query().id()).append(" | ").append(r.miniBatch() ? "on" : "off").append(" | ")
                .append(variant).append(" |");
        for (double ms : phases) {
            md.append(' ').append(Double.isNaN(ms) ? "–" : String.format(Locale.ROOT, "%.0f", ms)).append(" |");
        }
        double sum = Arrays.stream(phases).sum();
        md.append(' ').append(Double.isNaN(sum) ? "–" : String.format(Locale.ROOT, "%.0f", sum)).append(" |\n");
    }

    private static String bold(Spread s) {
        return s.rounds() == 0 ? "–"
                : String.format(Locale.ROOT, "**%.2f** (%.2f–%.2f)", s.median(), s.min(), s.max());
    }

    private static String triple(double[] values, String format) {
        return String.join(" / ", Arrays.stream(values)
                .mapToObj(v -> Double.isNaN(v) ? "–" : String.format(Locale.ROOT, format, v)).toList());
    }

    /** The JSON array {@code floor}: one object per row. */
    String json() {
        List<Row> rows = rows();
        StringBuilder json = new StringBuilder("[\n");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            json.append(String.format(Locale.ROOT, "    {\"query\": \"%s\", \"miniBatch\": %s, \"floorVsStock\": %s,"
                            + " \"columnarVsStock\": %s, \"columnarVsFloor\": %s, \"steadyFloorVsStock\": %s,"
                            + " \"steadyColumnarVsStock\": %s, \"steadyColumnarVsFloor\": %s,"
                            + " \"eventsPerSecond\": %s, \"cpuSecondsPerMillion\": %s, \"phasesMs\": %s}%s%n",
                    r.query().id(), r.miniBatch(), spread(r.floorVsStock()), spread(r.columnarVsStock()),
                    spread(r.columnarVsFloor()), spread(r.steadyFloorVsStock()), spread(r.steadyColumnarVsStock()),
                    spread(r.steadyColumnarVsFloor()), byVariant(r.eventsPerSecond()), byVariant(r.cpuPerMillion()),
                    phasesJson(r.phases()), i + 1 < rows.size() ? "," : ""));
        }
        return json.append("  ]").toString();
    }

    private static String spread(Spread s) {
        return String.format(Locale.ROOT, "{\"rounds\": %d, \"median\": %s, \"min\": %s, \"max\": %s}", s.rounds(),
                NexmarkReport.num(s.median()), NexmarkReport.num(s.min()), NexmarkReport.num(s.max()));
    }

    private static String byVariant(double[] values) {
        return String.format(Locale.ROOT, "{\"stock\": %s, \"columnar\": %s, \"floor\": %s}",
                NexmarkReport.num(values[0]), NexmarkReport.num(values[1]), NexmarkReport.num(values[2]));
    }

    private static String phasesJson(double[][] phases) {
        List<String> variants = new ArrayList<>();
        for (int v = 0; v < VARIANTS.size(); v++) {
            List<String> named = new ArrayList<>();
            for (int i = 0; i < JobPhases.NAMES.size(); i++) {
                named.add("\"" + JobPhases.NAMES.get(i) + "\": " + NexmarkReport.num(phases[v][i]));
            }
            variants.add("\"" + VARIANTS.get(v).id() + "\": {" + String.join(", ", named)
                    + "}");
        }
        return "{" + String.join(", ", variants) + "}";
    }
}
