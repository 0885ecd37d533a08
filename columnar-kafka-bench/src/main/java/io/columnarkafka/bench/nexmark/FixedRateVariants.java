package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.AaControl;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The fixed-rate report's part for the extra variants of a same-run A/B ({@code --rate} with {@code --variants};
 * {@link FixedRateReport} holds stock against columnar): per query, mini-batch setting and extra variant, at the
 * same input rate, the medians of its checkpoint p50 and p99, CPU cores and steady read beside columnar's, and its
 * paired per-round ratios to columnar of checkpoint p50 and of CPU cores, each judged against the A/A control's
 * ({@link AaControl}); what its plans showed of its options. Below 1 is better for the variant. Empty when the run
 * had no extra variant.
 */
final class FixedRateVariants {
    private final List<CellResult> cells;

    FixedRateVariants(List<CellResult> cells) {
        this.cells = cells;
    }

    /**
     * One extra variant on one (query, mini-batch) pair over the counted rounds.
     *
     * @param ok every cell of the variant was compared and equal (q12: counted every bid), and columnar has cells
     */
    record Row(NexmarkQuery query, boolean miniBatch, Variant variant, double columnarCheckpointP50,
               double checkpointP50, double columnarCheckpointP99, double checkpointP99, double columnarCores,
               double cores, double steadyRead, AaControl checkpointAgainstControl, AaControl coresAgainstControl,
               String inPlan, String output, boolean ok) {
        String verdict(AaControl against) {
            return variant.control() ? "the A/A control" : against.verdict();
        }
    }

    List<Row> rows() {
        List<Variant> extra = VariantReport.extraVariants(cells);
        List<Row> rows = new ArrayList<>();
        List<String> pairs = cells.stream().filter(c -> c.round() > 0)
                .sorted(Comparator.comparing((CellResult c) -> c.spec().query()).thenComparing(c -> c.spec().miniBatch()))
                .map(c -> c.spec().query().name() + "/" + c.spec().miniBatch()).distinct().toList();
        for (String pair : pairs) {
            NexmarkQuery query = NexmarkQuery.valueOf(pair.split("/")[0]);
            boolean mb = Boolean.parseBoolean(pair.split("/")[1]);
            List<CellResult> columnar = counted(query, mb, Variant.COLUMNAR);
            List<CellResult> control = counted(query, mb, Variant.CONTROL);
            for (Variant variant : extra) {
                List<CellResult> all = cells.stream().filter(c -> c.round() > 0 && c.spec().query() == query
                        && c.spec().miniBatch() == mb && c.spec().variant().equals(variant)).toList();
                List<CellResult> passed = counted(query, mb, variant);
                boolean ok = !all.isEmpty() && all.stream().allMatch(CellResult::compared) && !columnar.isEmpty();
                String output = ok ? "equal" : all.stream().filter(c -> !c.compared()).map(CellResult::verdictHeadline)
                        .distinct().collect(Collectors.joining("; "));
                rows.add(new Row(query, mb, variant,
                        NexmarkReport.median(columnar, c -> c.checkpoints().p50Ms()),
                        NexmarkReport.median(passed, c -> c.checkpoints().p50Ms()),
                        NexmarkReport.median(columnar, c -> c.checkpoints().p99Ms()),
                        NexmarkReport.median(passed, c -> c.checkpoints().p99Ms()),
                        NexmarkReport.median(columnar, CellResult::steadyCores),
                        NexmarkReport.median(passed, CellResult::steadyCores),
                        NexmarkReport.median(passed, c -> c.steady().readEventsPerSecond()),
                        AaControl.of(columnar, passed, control, CellResult::round, c -> c.checkpoints().p50Ms()),
                        AaControl.of(columnar, passed, control, CellResult::round, CellResult::steadyCores),
                        VariantReport.inPlan(variant, all),
                        output.isEmpty() ? "FAIL: a variant has no counted cell" : output, ok));
            }
        }
        return rows;
    }

    private List<CellResult> counted(NexmarkQuery query, boolean mb, Variant variant) {
        return cells.stream().filter(c -> c.round() > 0 && c.compared() && c.spec().query() == query
                && c.spec().miniBatch() == mb && c.spec().variant().equals(variant)).toList();
    }

    /** The section; nothing without extra variants. */
    String markdown() {
        List<Row> rows = rows();
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("## Extra variants\n\n");
        md.append("Extra variants, run in the same rounds as stock and columnar at the same rate (all variants"
                + " interleaved, their order rotating from round to round). Figures are the medians of the counted"
                + " cells, columnar / variant; each ratio is the variant's figure over columnar's in the same round,"
                + " median (min–max), below 1 better for the variant. The A/A control `" + AaControl.CONTROL_ID + "` is"
                + " the default columnar configuration again: its ratios to columnar are this run's noise. A variant"
                + " is **resolved** only when every one of its ratios lies beyond every one of the A/A control's (on"
                + " one side) in at least " + AaControl.ROUNDS_TO_RESOLVE + " rounds (a variant that changes nothing is"
                + " that far apart in up to 2 / 2^n of runs of n rounds); rounds above 1 = rounds the variant's figure was higher than columnar's.\n\n");
        md.append("| query | mini-batch | variant | ckpt p50 ms col. / var. | ckpt p50 ratio | A/A ckpt p50 ratio"
                + " | ckpt p50 against the A/A control | ckpt p50 rounds | ckpt p99 ms col. / var. | CPU cores col. / var."
                + " | CPU ratio | A/A CPU ratio | CPU against the A/A control | CPU rounds | steady read events/s"
                + " | in the plan | output |\n");
        md.append("|---|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|---|---|---:|---|---|\n");
        for (Row r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | `%s` | %s / %s | %s | %s | %s | %s | %s / %s | %s / %s"
                            + " | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.query.id(), r.miniBatch ? "on" : "off", r.variant.id(),
                    FixedRateReport.whole(r.columnarCheckpointP50), FixedRateReport.whole(r.checkpointP50),
                    VariantReport.markdown(r.checkpointAgainstControl.variantSpread()),
                    VariantReport.markdown(r.checkpointAgainstControl.controlSpread()),
                    r.verdict(r.checkpointAgainstControl), AaControl.signs(r.checkpointAgainstControl.ratios()),
                    FixedRateReport.whole(r.columnarCheckpointP99), FixedRateReport.whole(r.checkpointP99),
                    NexmarkReport.twoDecimals(r.columnarCores), NexmarkReport.twoDecimals(r.cores),
                    VariantReport.markdown(r.coresAgainstControl.variantSpread()),
                    VariantReport.markdown(r.coresAgainstControl.controlSpread()),
                    r.verdict(r.coresAgainstControl), AaControl.signs(r.coresAgainstControl.ratios()),
                    FixedRateReport.whole(r.steadyRead), r.inPlan, r.output));
        }
        return md.append('\n').toString();
    }

    /** The JSON array {@code variantSummary}: one object per row. */
    String json() {
        List<Row> rows = rows();
        StringBuilder json = new StringBuilder("[\n");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            json.append(String.format(Locale.ROOT, "    {\"query\": \"%s\", \"miniBatch\": %s, \"variant\": \"%s\","
                            + " \"control\": %s, \"checkpointP50Ms\": %s, \"columnarCheckpointP50Ms\": %s,"
                            + " \"checkpointP50\": %s, \"checkpointP99Ms\": %s, \"cpuCores\": %s,"
                            + " \"columnarCpuCores\": %s, \"cpuCoresRatio\": %s, \"steadyReadEventsPerSecond\": %s,"
                            + " \"inPlan\": \"%s\", \"ok\": %s, \"output\": \"%s\"}%s%n",
                    r.query.id(), r.miniBatch, NexmarkReport.escape(r.variant.id()), r.variant.control(),
                    NexmarkReport.num(r.checkpointP50), NexmarkReport.num(r.columnarCheckpointP50),
                    againstJson(r.variant, r.checkpointAgainstControl), NexmarkReport.num(r.checkpointP99),
                    NexmarkReport.num(r.cores), NexmarkReport.num(r.columnarCores),
                    againstJson(r.variant, r.coresAgainstControl), NexmarkReport.num(r.steadyRead),
                    NexmarkReport.escape(r.inPlan), r.ok, NexmarkReport.escape(r.output),
                    i + 1 < rows.size() ? "," : ""));
        }
        return json.append("  ]").toString();
    }

    private static String againstJson(Variant variant, AaControl against) {
        return String.format(Locale.ROOT, "{\"ratio\": %s, \"ratioMin\": %s, \"ratioMax\": %s, \"pairs\": %d,"
                        + " \"aaRatio\": %s, \"aaRatioMin\": %s, \"aaRatioMax\": %s, \"againstAa\": \"%s\"}",
                NexmarkReport.num(against.variantSpread().median()), NexmarkReport.num(against.variantSpread().min()),
                NexmarkReport.num(against.variantSpread().max()), against.variantSpread().rounds(),
                NexmarkReport.num(against.controlSpread().median()), NexmarkReport.num(against.controlSpread().min()),
                NexmarkReport.num(against.controlSpread().max()),
                variant.control() ? "CONTROL" : against.resolution().name());
    }
}
