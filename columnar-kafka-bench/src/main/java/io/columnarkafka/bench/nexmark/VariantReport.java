package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.Spread;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The report's part for the extra variants of a same-run A/B ({@code --variants}; {@link NexmarkReport} holds the
 * rest): per query, mini-batch setting and extra variant, its median throughput and CPU beside stock's and
 * columnar's, its paired per-round throughput ratios against stock and against the default columnar variant
 * (median, min, max; a round counts where both cells passed), and what its cells' plans showed of its planner
 * options; with an A/A control ({@link Variant#CONTROL}) in the run, beside each variant the control's ratios to
 * columnar and whether the variant's lie outside them ({@link AaControl}). Empty when the run had no extra variant.
 */
final class VariantReport {
    private final List<CellResult> cells;

    VariantReport(List<CellResult> cells) {
        this.cells = cells;
    }

    /**
     * One extra variant on one (query, mini-batch) pair.
     *
     * @param ok every cell of the variant passed and stock and columnar have counted cells
     * @param compared ok, and every cell's output was compared with stock's (q12's, in a bounded run, is not)
     * @param againstControl the variant's and the A/A control's throughput ratios to columnar, paired per round
     */
    record Row(NexmarkQuery query, boolean miniBatch, Variant variant, double eventsPerSecond,
               double stockCpu, double columnarCpu, double cpu, Spread againstStock, Spread againstColumnar,
               AaControl againstControl, String inPlan, String output, boolean ok, boolean compared) {
        /** The control's own row says what it is; the others whether the A/A spread resolves them. */
        String verdict() {
            return variant.control() ? "the A/A control" : againstControl.verdict();
        }
    }

    /** The extra variants the cells ran, by id. */
    List<Variant> extraVariants() {
        return extraVariants(cells);
    }

    /** The extra variants {@code cells} ran, the A/A control first, then by id. */
    static List<Variant> extraVariants(List<CellResult> cells) {
        return cells.stream().map(c -> c.spec().variant()).filter(Variant::extra).distinct().sorted().toList();
    }

    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        List<CellResult> plain = cells.stream().filter(c -> !c.recovery()).toList();
        List<String> pairs = plain.stream().filter(c -> c.round() > 0)
                .sorted(java.util.Comparator.comparing((CellResult c) -> c.spec().query())
                        .thenComparing(c -> c.spec().miniBatch()))
                .map(c -> c.spec().query().name() + "/" + c.spec().miniBatch()).distinct().toList();
        for (String pair : pairs) {
            NexmarkQuery query = NexmarkQuery.valueOf(pair.split("/")[0]);
            boolean mb = Boolean.parseBoolean(pair.split("/")[1]);
            List<CellResult> stock = counted(plain, query, mb, Variant.STOCK);
            List<CellResult> columnar = counted(plain, query, mb, Variant.COLUMNAR);
            List<CellResult> control = counted(plain, query, mb, Variant.CONTROL);
            for (Variant variant : extraVariants()) {
                List<CellResult> all = plain.stream().filter(c -> c.spec().query() == query
                        && c.spec().miniBatch() == mb && c.spec().variant().equals(variant)).toList();
                List<CellResult> passed = counted(plain, query, mb, variant);
                boolean ok = !all.isEmpty() && all.stream().allMatch(CellResult::ok) && !passed.isEmpty()
                        && !stock.isEmpty() && !columnar.isEmpty();
                boolean compared = ok && all.stream().allMatch(CellResult::compared);
                String failures = all.stream().filter(c -> !c.ok()).map(CellResult::verdictHeadline).distinct()
                        .collect(Collectors.joining("; "));
                String output = ok ? (compared ? "equal to stock" : all.get(0).verdictHeadline())
                        : failures.isEmpty() ? "FAIL: a variant has no counted cell" : failures;
                AaControl againstControl =
                        AaControl.of(columnar, passed, control, CellResult::round, CellResult::eventsPerSecond);
                rows.add(new Row(query, mb, variant, NexmarkReport.median(passed, CellResult::eventsPerSecond),
                        NexmarkReport.median(stock, CellResult::cpuSecondsPerMillionEvents),
                        NexmarkReport.median(columnar, CellResult::cpuSecondsPerMillionEvents),
                        NexmarkReport.median(passed, CellResult::cpuSecondsPerMillionEvents),
                        paired(NexmarkReport.pairedRatios(stock, passed, CellResult::eventsPerSecond)),
                        againstControl.variantSpread(), againstControl, inPlan(variant, all), output, ok, compared));
            }
        }
        return rows;
    }

    private static List<CellResult> counted(List<CellResult> plain, NexmarkQuery query, boolean mb, Variant variant) {
        return plain.stream().filter(c -> c.round() > 0 && c.spec().query() == query && c.spec().miniBatch() == mb
                && c.spec().variant().equals(variant) && c.ok()).toList();
    }

    /**
     * What the variant's cells' plans showed of its options; the control's plans are the default columnar ones. JVM
     * properties are no plan's: they are named as given to the cells' JVMs.
     */
    static String inPlan(Variant variant, List<CellResult> cells) {
        if (variant.control()) {
            return "default options (A/A)";
        }
        List<String> unplanned = new ArrayList<>();
        variant.sinkOptions().forEach((key, value) -> unplanned.add("result table " + key + "=" + value));
        if (!variant.jvmProperties().isEmpty()) {
            unplanned.add("JVM " + String.join(" ", variant.jvmOptions()));
        }
        String jvm = unplanned.isEmpty() ? "" : String.join(", ", unplanned) + " (no plan option)";
        if (variant.plannerOptions().isEmpty()) {
            return jvm;
        }
        String shown = cells.stream().map(CellResult::plannerOptionsInPlan).filter(s -> !s.isEmpty())
                .distinct().collect(Collectors.joining(" | "));
        return (shown.isEmpty() ? "not recorded" : shown) + (jvm.isEmpty() ? "" : "; " + jvm);
    }

    /** A variant's paired per-round ratios as median, min and max. */
    private static Spread paired(double[] ratios) {
        return Spread.of(Arrays.stream(ratios).boxed().toList());
    }

    static String markdown(Spread ratio) {
        return ratio.rounds() == 0 ? "–"
                : String.format(Locale.ROOT, "**%.2f** (%.2f–%.2f)", ratio.median(), ratio.min(), ratio.max());
    }

    /** The geomean of one variant's median ratios over the compared rows of {@code part}. */
    private static double geomean(List<Row> part, Variant variant, boolean againstStock) {
        return NexmarkReport.geomean(part.stream().filter(r -> r.compared && r.variant.equals(variant))
                .mapToDouble(r -> (againstStock ? r.againstStock : r.againstColumnar).median()).toArray());
    }

    /** The section for one mini-batch setting's rows; nothing without extra variants. */
    void appendMarkdown(StringBuilder md, boolean miniBatch) {
        List<Row> part = rows().stream().filter(r -> r.miniBatch == miniBatch).toList();
        if (part.isEmpty()) {
            return;
        }
        md.append("### Extra variants\n\nExtra variants, run in the same rounds as stock and columnar (all variants interleaved, their order"
                + " rotating from round to round): throughput and CPU are the medians of the counted cells; each ratio"
                + " is the variant's throughput over stock's or over columnar's in the same round, median (min–max)"
                + " over the rounds; \"in the plan\" is what EXPLAIN of the variant's cells showed of its option (a"
                + " plan showing the other choice fails the cell). " + AaControl.RULE + "; rounds above 1 = rounds the"
                + " variant was faster than columnar.\n\n");
        for (Variant variant : extraVariants()) {
            md.append(String.format(Locale.ROOT, "- `%s`: geomean ratio against stock **%s**, against columnar"
                            + " **%s** (compared queries)%n", variant.id(),
                    NexmarkReport.twoDecimals(geomean(part, variant, true)),
                    NexmarkReport.twoDecimals(geomean(part, variant, false))));
        }
        md.append("\n| query | variant | events/s | ratio / stock (min–max) | ratio / columnar (min–max) | A/A / columnar"
                + " (min–max) | against the A/A control | rounds / columnar | CPU s/M events stock / col. / variant |"
                + " in the plan | output |\n");
        md.append("|---|---|---:|---:|---:|---:|---|---|---:|---|---|\n");
        for (Row r : part) {
            md.append(String.format(Locale.ROOT, "| %s | `%s` | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s | %s |%n",
                    r.query.id(), r.variant.id(), NexmarkReport.count(r.eventsPerSecond), markdown(r.againstStock),
                    markdown(r.againstColumnar), markdown(r.againstControl.controlSpread()), r.verdict(),
                    AaControl.signs(r.againstControl.ratios()), oneDecimal(r.stockCpu), oneDecimal(r.columnarCpu),
                    oneDecimal(r.cpu), r.inPlan, r.output));
        }
        md.append('\n');
    }

    /** The JSON array {@code variantSummary}: one object per row. */
    String json() {
        List<Row> rows = rows();
        StringBuilder json = new StringBuilder("[\n");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            json.append(String.format(Locale.ROOT, "    {\"query\": \"%s\", \"stateful\": %s, \"miniBatch\": %s,"
                            + " \"variant\": \"%s\", \"eventsPerSecond\": %s, \"cpuSecondsPerMillion\": %s,"
                            + " \"stockCpuSecondsPerMillion\": %s, \"columnarCpuSecondsPerMillion\": %s, %s,"
                            + " \"inPlan\": \"%s\", \"ok\": %s, \"compared\": %s, \"output\": \"%s\"}%s%n",
                    r.query.id(), r.query.stateful, r.miniBatch, NexmarkReport.escape(r.variant.id()),
                    NexmarkReport.num(r.eventsPerSecond), NexmarkReport.num(r.cpu), NexmarkReport.num(r.stockCpu),
                    NexmarkReport.num(r.columnarCpu), ratiosJson(r.variant, r.againstStock, r.againstControl),
                    NexmarkReport.escape(r.inPlan), r.ok, r.compared, NexmarkReport.escape(r.output),
                    i + 1 < rows.size() ? "," : ""));
        }
        return json.append("  ]").toString();
    }

    /**
     * An extra variant's ratios as JSON fields (no braces): to stock, to columnar, the A/A control's to columnar, where
     * the variant's lie against the control's ({@code CONTROL} for the control's own row) and its rounds above 1.
     */
    static String ratiosJson(Variant variant, Spread againstStock, AaControl againstControl) {
        Spread columnar = againstControl.variantSpread();
        Spread control = againstControl.controlSpread();
        return String.format(Locale.ROOT, "\"pairsWithStock\": %d, \"ratioToStock\": %s, \"ratioToStockMin\": %s,"
                        + " \"ratioToStockMax\": %s, \"pairsWithColumnar\": %d, \"ratioToColumnar\": %s,"
                        + " \"ratioToColumnarMin\": %s, \"ratioToColumnarMax\": %s, \"control\": %s,"
                        + " \"aaToColumnar\": %s, \"aaToColumnarMin\": %s, \"aaToColumnarMax\": %s,"
                        + " \"againstAa\": \"%s\", \"roundsAboveColumnar\": %d",
                againstStock.rounds(), NexmarkReport.num(againstStock.median()), NexmarkReport.num(againstStock.min()),
                NexmarkReport.num(againstStock.max()), columnar.rounds(), NexmarkReport.num(columnar.median()),
                NexmarkReport.num(columnar.min()), NexmarkReport.num(columnar.max()), variant.control(),
                NexmarkReport.num(control.median()), NexmarkReport.num(control.min()), NexmarkReport.num(control.max()),
                variant.control() ? "CONTROL" : againstControl.resolution().name(),
                Arrays.stream(againstControl.ratios()).filter(x -> x > 1).count());
    }

    private static String oneDecimal(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
    }
}
