package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The CDC report's part for the extra variants of a same-run A/B ({@code --variants}; {@link CdcReport} holds the
 * rest): per query, mini-batch mode and extra variant, its median events/s and CPU per event, its paired per-round
 * ratios of each against stock and against the default columnar variant (median, min, max over the counted rounds),
 * the A/A control's ratios to columnar beside them and whether the variant's lie beyond them ({@link AaControl}),
 * what its plans showed of its planner options and the verdict over its cells. Empty when the run had no extra
 * variant.
 */
final class CdcVariantReport {
    /** One extra variant on one query and mini-batch mode; its figures the medians of its counted cells. */
    record Row(CdcQuery query, boolean miniBatch, CdcVariant variant, int cells, double eventsPerSecond,
               double cpuNanosPerEvent, Figure throughput, Figure cpu, String inPlan, String verdict) {}

    /**
     * One figure's paired per-round ratios.
     *
     * @param toStock the variant's figure over stock's
     * @param againstControl the variant's and the A/A control's figures over columnar's
     */
    record Figure(Spread toStock, AaControl againstControl) {
        /** The control's own row says what it is; the others whether the A/A spread resolves them. */
        String verdict(CdcVariant variant) {
            return variant.control() ? "the A/A control" : againstControl.verdict();
        }
    }

    private final List<CdcResult> results;

    CdcVariantReport(List<CdcResult> results) {
        this.results = results;
    }

    /** One row per query, mini-batch mode and extra variant that ran, in the queries' order, then the variants'. */
    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        List<CdcVariant> extras = results.stream().map(r -> r.cell().variant()).filter(CdcVariant::extra).distinct()
                .sorted().toList();
        for (CdcQuery query : CdcQuery.values()) {
            for (boolean miniBatch : List.of(false, true)) {
                List<CdcResult> same = results.stream()
                        .filter(r -> r.cell().query() == query && r.cell().miniBatch() == miniBatch).toList();
                for (CdcVariant variant : extras) {
                    List<CdcResult> all = same.stream().filter(r -> r.cell().variant().equals(variant)).toList();
                    if (!all.isEmpty()) {
                        rows.add(row(query, miniBatch, variant, all, same));
                    }
                }
            }
        }
        return rows;
    }

    private static Row row(CdcQuery query, boolean miniBatch, CdcVariant variant, List<CdcResult> all,
                           List<CdcResult> same) {
        List<CdcResult> stock = CdcReport.counted(same, CdcVariant.STOCK);
        List<CdcResult> columnar = CdcReport.counted(same, CdcVariant.COLUMNAR);
        List<CdcResult> control = CdcReport.counted(same, CdcVariant.CONTROL);
        List<CdcResult> counted = CdcReport.counted(all, variant);
        return new Row(query, miniBatch, variant, all.size(), CdcReport.median(counted, CdcResult::eventsPerSecond),
                CdcReport.median(counted, CdcResult::cpuNanosPerEvent),
                new Figure(CdcReport.paired(stock, counted, CdcResult::eventsPerSecond),
                        AaControl.of(columnar, counted, control, CdcResult::round, CdcResult::eventsPerSecond)),
                new Figure(CdcReport.paired(stock, counted, CdcResult::cpuNanosPerEvent),
                        AaControl.of(columnar, counted, control, CdcResult::round, CdcResult::cpuNanosPerEvent)),
                inPlan(variant, all), CdcReport.verdict(all));
    }

    /** What the variant's cells' plans showed of its options; the control's plans are the default columnar ones. */
    private static String inPlan(CdcVariant variant, List<CdcResult> cells) {
        if (variant.control()) {
            return "default options (A/A)";
        }
        String shown = cells.stream().map(CdcResult::plannerOptionsInPlan).filter(s -> !s.isEmpty()).distinct()
                .collect(Collectors.joining(" | "));
        return shown.isEmpty() ? "not recorded" : shown;
    }

    /** The section, after the summary table; nothing without extra variants. */
    void appendMarkdown(StringBuilder md) {
        List<Row> rows = rows();
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n## Extra variants\n\nRun in the same rounds as stock and columnar (every variant interleaved, their"
                + " order rotating from round to round), each cell's output compared with stock's. Events/s and CPU"
                + " ns/event are the medians of the counted cells; each ratio is the variant's figure over stock's or"
                + " over columnar's in the same round, median (min – max) over the rounds (throughput above 1 and CPU"
                + " below 1 favour the variant). \"In the plan\" is what EXPLAIN of the variant's cells showed of its"
                + " planner options (a plan showing the other choice fails the cell). " + AaControl.RULE
                + "; otherwise it is not resolved.\n\n");
        md.append("| query | mini-batch | variant | events/s | throughput / stock | throughput / columnar | A/A"
                + " throughput / columnar | throughput against the A/A control | CPU ns/event | CPU / stock | CPU /"
                + " columnar | A/A CPU / columnar | CPU against the A/A control | in the plan | verdict |\n");
        md.append("|---|---|---|---:|---|---|---|---|---:|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | `%s` | %,.0f | %s | %s | %s | %s | %,.0f | %s | %s | %s"
                            + " | %s | %s | %s |%n", r.query().id(), CdcReport.onOff(r.miniBatch()), r.variant().id(),
                    r.eventsPerSecond(), r.throughput().toStock().ratio(),
                    r.throughput().againstControl().variantSpread().ratio(),
                    r.throughput().againstControl().controlSpread().ratio(), r.throughput().verdict(r.variant()),
                    r.cpuNanosPerEvent(), r.cpu().toStock().ratio(), r.cpu().againstControl().variantSpread().ratio(),
                    r.cpu().againstControl().controlSpread().ratio(), r.cpu().verdict(r.variant()),
                    r.inPlan().replace("|", "\\|"), r.verdict().replace("|", "\\|")));
        }
    }

    /** The rows as JSON objects: each ratio as median, min and max, where it lies against the A/A control's. */
    List<Map<String, Object>> json() {
        return rows().stream().map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("query", r.query().id());
            m.put("miniBatch", r.miniBatch());
            m.put("variant", r.variant().id());
            m.put("cells", r.cells());
            m.put("eventsPerSecond", r.eventsPerSecond());
            m.put("cpuNanosPerEvent", r.cpuNanosPerEvent());
            putFigure(m, "throughput", r.throughput(), r.variant());
            putFigure(m, "cpu", r.cpu(), r.variant());
            m.put("inPlan", r.inPlan());
            m.put("verdict", r.verdict());
            return m;
        }).toList();
    }

    private static void putFigure(Map<String, Object> m, String name, Figure figure, CdcVariant variant) {
        m.put(name + "ToStock", figure.toStock());
        m.put(name + "ToColumnar", figure.againstControl().variantSpread());
        m.put(name + "AaToColumnar", figure.againstControl().controlSpread());
        m.put(name + "AgainstAa", againstAa(figure, variant));
        m.put(name + "AgainstAaVerdict", figure.verdict(variant));
    }

    /** {@code CONTROL} for the control's own row, else where the variant's ratios lie against the control's. */
    private static String againstAa(Figure figure, CdcVariant variant) {
        return variant.control() ? "CONTROL" : figure.againstControl().resolution().name();
    }

    /** The rows as CSV, a header line first; empty without extra variants. */
    String csv() {
        List<Row> rows = rows();
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder csv = new StringBuilder("query,mini_batch,variant,cells,events_per_s,cpu_ns_per_event,"
                + spreadHeader("throughput_to_stock") + "," + spreadHeader("throughput_to_columnar") + ","
                + spreadHeader("throughput_aa_to_columnar") + ",throughput_against_aa,throughput_resolved,"
                + spreadHeader("cpu_to_stock") + "," + spreadHeader("cpu_to_columnar") + ","
                + spreadHeader("cpu_aa_to_columnar") + ",cpu_against_aa,cpu_resolved,in_plan,verdict\n");
        for (Row r : rows) {
            csv.append(String.format(Locale.ROOT, "%s,%s,\"%s\",%d,%.1f,%.1f,%s,%s,\"%s\",\"%s\"%n", r.query().id(),
                    CdcReport.onOff(r.miniBatch()), r.variant().id(), r.cells(), r.eventsPerSecond(),
                    r.cpuNanosPerEvent(), figureCsv(r.throughput(), r.variant()), figureCsv(r.cpu(), r.variant()),
                    r.inPlan().replace("\"", "\"\""), r.verdict().replace("\"", "\"\"")));
        }
        return csv.toString();
    }

    private static String spreadHeader(String name) {
        return name + "_rounds," + name + "," + name + "_min," + name + "_max";
    }

    private static String figureCsv(Figure figure, CdcVariant variant) {
        AaControl against = figure.againstControl();
        return String.join(",", spreadCsv(figure.toStock()), spreadCsv(against.variantSpread()),
                spreadCsv(against.controlSpread()), againstAa(figure, variant),
                Boolean.toString(!variant.control() && against.resolved()));
    }

    private static String spreadCsv(Spread spread) {
        return String.format(Locale.ROOT, "%d,%.4f,%.4f,%.4f", spread.rounds(), spread.median(), spread.min(),
                spread.max());
    }
}
