package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.Spread;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The recovery report's part for the extra variants ({@code --variants}; {@link NexmarkReport} holds stock against
 * columnar): per recovery query and extra variant, its median restart and caught-up times, its paired per-round
 * ratios of caught-up time against stock and against the default columnar variant, and with an A/A control in the
 * run the control's ratios to columnar beside them and whether the variant's lie outside them ({@link AaControl}).
 * Below 1 the variant recovers faster. Empty when the run had no extra variant in its recovery cells.
 */
final class RecoveryVariantReport {
    private final List<CellResult> recovery;

    RecoveryVariantReport(List<CellResult> cells) {
        this.recovery = cells.stream().filter(CellResult::recovery).toList();
    }

    /**
     * One extra variant on one recovery query.
     *
     * @param ok every recovery cell of the variant passed (exactly once, equal to stock) and stock and columnar have one
     * @param againstControl the variant's and the A/A control's caught-up ratios to columnar, paired per round
     */
    record Row(NexmarkQuery query, Variant variant, double restart, double caughtUp, Spread againstStock,
               AaControl againstControl, String output, boolean ok) {
        String verdict() {
            return variant.control() ? "the A/A control" : againstControl.verdict();
        }
    }

    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        List<Variant> extra = VariantReport.extraVariants(recovery);
        for (NexmarkQuery query : recovery.stream().map(c -> c.spec().query()).distinct().sorted().toList()) {
            List<CellResult> stock = passed(query, Variant.STOCK);
            List<CellResult> columnar = passed(query, Variant.COLUMNAR);
            List<CellResult> control = passed(query, Variant.CONTROL);
            for (Variant variant : extra) {
                List<CellResult> all = recovery.stream()
                        .filter(c -> c.spec().query() == query && c.spec().variant().equals(variant)).toList();
                List<CellResult> passed = passed(query, variant);
                boolean ok = !all.isEmpty() && all.stream().allMatch(CellResult::ok) && !stock.isEmpty()
                        && !columnar.isEmpty();
                String failures = all.stream().filter(c -> !c.ok()).map(CellResult::verdictHeadline).distinct()
                        .collect(Collectors.joining("; "));
                rows.add(new Row(query, variant, NexmarkReport.median(passed, CellResult::restartSeconds),
                        NexmarkReport.median(passed, CellResult::recoverySeconds),
                        Spread.of(Arrays.stream(NexmarkReport.pairedRatios(stock, passed, CellResult::recoverySeconds))
                                .boxed().toList()),
                        AaControl.of(columnar, passed, control, CellResult::round, CellResult::recoverySeconds),
                        ok ? "exactly once, equal to stock" : failures.isEmpty() ? "FAIL: a variant has no cell"
                                : failures, ok));
            }
        }
        return rows;
    }

    private List<CellResult> passed(NexmarkQuery query, Variant variant) {
        return recovery.stream().filter(c -> c.ok() && c.spec().query() == query && c.spec().variant().equals(variant))
                .toList();
    }

    void appendMarkdown(StringBuilder md) {
        List<Row> rows = rows();
        if (rows.isEmpty()) {
            return;
        }
        md.append("### Extra variants in recovery\n\nThe extra variants' recovery cells, run in the same rounds as"
                + " stock's and columnar's (their order rotating with them): restart and caught up are the medians of"
                + " the variant's cells; each ratio is the variant's caught-up time over stock's or over columnar's in"
                + " the same round, median (min–max; below 1: the variant recovers faster). The A/A control `"
                + AaControl.CONTROL_ID + "` is the default columnar configuration again: its ratio to columnar is this"
                + " run's noise, and a variant is **resolved** only when every one of its ratios lies beyond every one"
                + " of the control's (on one side) in at least " + AaControl.ROUNDS_TO_RESOLVE + " rounds; rounds"
                + " above 1 = rounds the variant took longer than columnar. Its phases against columnar's are under"
                + " \"Recovery time in phases\".\n\n");
        md.append("| query | variant | restart s | caught up s | ratio / stock (min–max) | ratio / columnar (min–max) |"
                + " A/A / columnar (min–max) | against the A/A control | rounds / columnar | output |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---|---|---|\n");
        for (Row r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.query.id(), r.variant.id(), NexmarkReport.twoDecimals(r.restart),
                    NexmarkReport.twoDecimals(r.caughtUp), VariantReport.markdown(r.againstStock),
                    VariantReport.markdown(r.againstControl.variantSpread()),
                    VariantReport.markdown(r.againstControl.controlSpread()), r.verdict(),
                    AaControl.signs(r.againstControl.ratios()), r.output));
        }
        md.append('\n');
    }

    /** The JSON array {@code recoveryVariantSummary}: one object per row. */
    String json() {
        List<Row> rows = rows();
        StringBuilder json = new StringBuilder("[\n");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            json.append(String.format(Locale.ROOT, "    {\"query\": \"%s\", \"variant\": \"%s\", \"restartSeconds\": %s,"
                            + " \"recoverySeconds\": %s, %s, \"ok\": %s, \"output\": \"%s\"}%s%n",
                    r.query.id(), NexmarkReport.escape(r.variant.id()), NexmarkReport.num(r.restart),
                    NexmarkReport.num(r.caughtUp), VariantReport.ratiosJson(r.variant, r.againstStock, r.againstControl),
                    r.ok, NexmarkReport.escape(r.output), i + 1 < rows.size() ? "," : ""));
        }
        return json.append("  ]").toString();
    }
}
