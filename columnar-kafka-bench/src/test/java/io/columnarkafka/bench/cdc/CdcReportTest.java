package io.columnarkafka.bench.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.Spread;
import io.columnarkafka.bench.nexmark.OutputDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The report's arithmetic: paired per-round ratios, CPU per event, the warm-up left out, a FAIL never dropped; the
 * extra variants' ratios to stock and to columnar beside the A/A control's.
 */
class CdcReportTest {
    private static final long RECORDS = 1_000_000;
    private static final String OFF = "columnar:local-group-agg.vectorised=false";
    private static final String OFF_IN_PLAN = "local-group-agg.vectorised=false: AGGREGATE_NOT_VECTORISED ... is false"
            + " shown 1 time(s)";

    @Test
    void ratiosArePairedByRoundAndTheWarmUpIsNotCounted() {
        List<CdcResult> cells = new ArrayList<>();
        cells.add(cell(CdcQuery.CDC_CALC, CdcVariant.STOCK, 0, 100, 10, "OK")); // warm-up: 10x slower, not counted
        cells.add(cell(CdcQuery.CDC_CALC, CdcVariant.COLUMNAR, 0, 1, 1, "OK"));
        cells.add(cell(CdcQuery.CDC_CALC, CdcVariant.STOCK, 1, 10, 20, "OK"));
        cells.add(cell(CdcQuery.CDC_CALC, CdcVariant.COLUMNAR, 1, 5, 10, "OK"));
        cells.add(cell(CdcQuery.CDC_CALC, CdcVariant.STOCK, 2, 20, 20, "OK"));
        cells.add(cell(CdcQuery.CDC_CALC, CdcVariant.COLUMNAR, 2, 5, 5, "OK"));
        cells.add(cell(CdcQuery.CDC_CALC, CdcVariant.STOCK, 3, 8, 16, "OK"));
        cells.add(cell(CdcQuery.CDC_CALC, CdcVariant.COLUMNAR, 3, 8, 8, "OK"));

        CdcReport.Row row = report(cells).rows().get(0);

        // job seconds 10/5, 20/5, 8/8: throughput ratios 2, 4, 1
        assertThat(row.throughput().rounds()).isEqualTo(3);
        assertThat(row.throughput().median()).isEqualTo(2.0);
        assertThat(row.throughput().min()).isEqualTo(1.0);
        assertThat(row.throughput().max()).isEqualTo(4.0);
        // CPU 10/20, 5/20, 8/16 columnar/stock: 0.5, 0.25, 0.5
        assertThat(row.cpu().median()).isEqualTo(0.5);
        assertThat(row.cpu().min()).isEqualTo(0.25);
        // medians of the counted cells: stock 10 s of 1,000,000 records, 16 s of CPU
        assertThat(row.stockEventsPerSecond()).isCloseTo(100_000, within(1e-6));
        assertThat(row.stockCpuNanosPerEvent()).isCloseTo(20_000, within(1e-6));
        assertThat(row.columnarCpuNanosPerEvent()).isCloseTo(8_000, within(1e-6));
        assertThat(row.verdict()).isEqualTo("OK");
    }

    @Test
    void aFailedOrFallenBackCellMakesItsQueryAFailRowWithItsFiguresKept() {
        List<CdcResult> cells = new ArrayList<>();
        cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.STOCK, 1, 10, 10, "OK"));
        cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.COLUMNAR, 1, 5, 5, "FAIL: fallback, an ArrowToRows edge in the plan"));
        cells.add(CdcResult.failed(new CdcCell(CdcQuery.CDC_UPSERT, CdcVariant.COLUMNAR, 1, RECORDS, 2, 1000, false,
                "b", "in", "out", "run", "ck", "res", JvmWarmUp.OFF), "the Flink job failed"));

        CdcReport report = report(cells);
        List<CdcReport.Row> rows = report.rows();

        assertThat(rows).extracting(r -> r.query().id()).containsExactly("cdc-agg", "cdc-upsert");
        assertThat(rows.get(0).verdict()).startsWith("FAIL: 1 of 2 cells (cdc-agg-columnar round 1: FAIL: fallback");
        assertThat(rows.get(0).throughput().median()).isEqualTo(2.0);
        assertThat(rows.get(1).verdict()).startsWith("FAIL: 1 of 1 cells");
        assertThat(rows.get(1).throughput().rounds()).isZero();
        assertThat(report.ok()).isFalse();
        assertThat(report.markdown()).contains("| cdc-upsert |", "FAIL: the Flink job failed", "n/a");
        assertThat(report.csv().lines()).hasSize(4);
        assertThat(report.json()).contains("\"verdict\" : \"FAIL: the Flink job failed\"");
    }

    /** The header states the warm-up mode and the JIT left in the measured jobs; every cell its JIT seconds. */
    @Test
    void theReportSaysTheJvmWarmUpAndTheJitLeftInTheMeasuredJobs() {
        List<CdcResult> cells = List.of(warmed(CdcVariant.STOCK, 1, 2, 0.10, 1.5),
                warmed(CdcVariant.COLUMNAR, 1, 8, 0.30, 0.5), warmed(CdcVariant.STOCK, 2, 3, 0.12, 2.5),
                warmed(CdcVariant.COLUMNAR, 2, 4, 0.05, 1.5));

        String settled = report(cells, JvmWarmUp.SETTLED).markdown();
        assertThat(settled)
                .contains("**JVM warm-up** (`--jvm-warm-up settled`): each cell's JVM ran its job over the same"
                        + " input, unmeasured, into a topic of its own, again until one run spent at most 15 % of its"
                        + " wall time compiling (at most 8 runs)")
                .contains("Warm-up runs per cell: stock 2–3, columnar 4–8; 1 cell(s) stopped at 8 runs with the JIT"
                        + " still busier.")
                .contains("JIT compile time in the measured job (all compiler threads, elapsed; median over cells):"
                        + " stock 2.00 s, columnar 1.00 s.")
                .contains("| warm-up jobs | JIT s in the job |")
                .contains("| 1 | cdc-calc | off | columnar | 5.00 | 200,000 | 5.00 | 5,000 | 8 | 0.50 |");
        assertThat(report(cells, JvmWarmUp.SETTLED).csv().lines().skip(1).findFirst().orElseThrow())
                .contains(",off,stock,5.000,5.000,200000.0,5000.0,2,1.500,");

        assertThat(report(cells, JvmWarmUp.ONCE).markdown())
                .contains("**JVM warm-up** (`--jvm-warm-up on`): each cell's JVM first ran its job once");
        String off = report(List.of(cell(CdcQuery.CDC_CALC, CdcVariant.STOCK, 1, 10, 10, "OK")), JvmWarmUp.OFF)
                .markdown();
        assertThat(off).contains("No JVM warm-up (`--jvm-warm-up off`)").doesNotContain("warm-up jobs")
                .contains("| JIT s in the job |");
    }

    /**
     * Mini-batch on is said in the header with its options, in every row and cell, and in the path the columnar
     * cdc-agg cells must plan; a cell that missed it is a FAIL row with its figures.
     */
    @Test
    void theReportSaysTheMiniBatchModeInItsHeaderAndEveryRow() {
        List<CdcResult> cells = List.of(cell(CdcQuery.CDC_AGG, CdcVariant.STOCK, 1, 10, 10, "OK", true),
                cell(CdcQuery.CDC_AGG, CdcVariant.COLUMNAR, 1, 5, 5,
                        "FAIL: fallback, no ColumnarLocalGroupAggregate in the plan", true));
        CdcReport on = new CdcReport(cells, setup(true, JvmWarmUp.OFF));

        assertThat(on.rows()).singleElement().satisfies(row -> {
            assertThat(row.miniBatch()).isTrue();
            assertThat(row.verdict()).startsWith("FAIL: 1 of 2 cells (cdc-agg-columnar-mb round 1: FAIL: fallback");
            assertThat(row.throughput().median()).isEqualTo(2.0);
        });
        assertThat(on.markdown())
                .contains("Mini-batch on in both variants (`table.exec.mini-batch.enabled` = true,"
                        + " `table.exec.mini-batch.allow-latency` = 2 s, `table.exec.mini-batch.size` = 50000)")
                .contains("| query | mini-batch | stock events/s |")
                .contains("| cdc-agg | on | 100,000 | 200,000 | 2.00x (2.00x – 2.00x) |")
                .contains("its columnar cells must plan ColumnarLocalGroupAggregate with local=[vectorised]")
                .contains("| 1 | cdc-agg | on | columnar | 5.00 |");
        assertThat(on.csv().lines().skip(1)).allMatch(line -> line.startsWith("1,cdc-agg,on,"));
        assertThat(on.json()).contains("\"miniBatch\" : true");

        String off = report(List.of(cell(CdcQuery.CDC_AGG, CdcVariant.STOCK, 1, 10, 10, "OK"))).markdown();
        assertThat(off).contains("Mini-batch off.").contains("| cdc-agg | off |")
                .contains("`cdc-agg`: `INSERT INTO cdc_customers").contains("any columnar path is measured");
    }

    /**
     * Each extra variant is paired per round with stock and with columnar, throughput and CPU alike; the A/A
     * control's ratios to columnar are its noise band, and a variant apart from it in too few rounds is not resolved.
     */
    @Test
    void extraVariantsArePairedWithStockAndColumnarBesideTheAaControlsBand() {
        List<CdcResult> cells = new ArrayList<>();
        // round: stock, columnar, control and off job seconds (CPU seconds twice that)
        double[][] jobs = {{10, 5, 5, 8}, {10, 4, 5, 10}};
        for (int round = 1; round <= jobs.length; round++) {
            double[] j = jobs[round - 1];
            cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.STOCK, round, j[0], 2 * j[0], "OK", true));
            cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.COLUMNAR, round, j[1], 2 * j[1], "OK", true));
            cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.CONTROL, round, j[2], 2 * j[2], "OK", true));
            cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.parse(OFF), round, j[3], 2 * j[3] * (round == 1 ? 1 : 1.25),
                    "OK", true));
        }
        CdcReport report = new CdcReport(cells, setup(true, JvmWarmUp.OFF));
        List<CdcVariantReport.Row> rows = new CdcVariantReport(cells).rows();

        assertThat(rows).extracting(r -> r.variant().id()).containsExactly("columnar#2", OFF);
        CdcVariantReport.Row off = rows.get(1);
        // throughput off/stock 10/8, 10/10; off/columnar 5/8, 4/10; control/columnar 5/5, 4/5
        assertThat(off.throughput().toStock()).isEqualTo(new Spread(2, 1.125, 1.0, 1.25));
        assertThat(off.throughput().againstControl().variantSpread()).isEqualTo(new Spread(2, 0.5125, 0.4, 0.625));
        assertThat(off.throughput().againstControl().controlSpread()).isEqualTo(new Spread(2, 0.9, 0.8, 1.0));
        assertThat(off.throughput().verdict(off.variant())).isEqualTo("not resolved: every round below the A/A spread"
                + " (0.80–1.00), but a no-change variant is apart in up to 1 of 2 runs of 2 rounds (resolving takes 6)");
        // CPU off/stock 16/20, 25/20; off/columnar 16/10, 25/8; control/columnar 10/10, 10/8
        assertThat(off.cpu().toStock()).isEqualTo(new Spread(2, 1.025, 0.8, 1.25));
        assertThat(off.cpu().againstControl().variantSpread().min()).isEqualTo(1.6);
        assertThat(off.cpu().againstControl().controlSpread().max()).isEqualTo(1.25);
        assertThat(off.cpu().againstControl().resolution()).isEqualTo(AaControl.Resolution.APART_TOO_FEW_ROUNDS);
        assertThat(off.eventsPerSecond()).as("the median of 125,000 and 100,000").isCloseTo(112_500, within(1e-6));
        assertThat(off.inPlan()).isEqualTo(OFF_IN_PLAN);
        assertThat(rows.get(0).throughput().verdict(CdcVariant.CONTROL)).isEqualTo("the A/A control");
        assertThat(rows.get(0).inPlan()).isEqualTo("default options (A/A)");

        assertThat(report.rows()).singleElement().satisfies(row -> {
            assertThat(row.cells()).as("the summary row counts every cell of the query").isEqualTo(8);
            assertThat(row.throughput()).as("columnar/stock as without extra variants")
                    .isEqualTo(new Spread(2, 2.25, 2.0, 2.5));
        });
        assertThat(report.markdown()).contains("Mini-batch on in every variant", "## Extra variants",
                "A variant is **resolved** only when every one of its ratios to columnar lies beyond every one of the"
                        + " A/A control's (on one side) in at least 6 rounds",
                "| cdc-agg | on | `" + OFF + "` | 112,500 | 1.13x (1.00x – 1.25x) | 0.51x (0.40x – 0.63x) |"
                        + " 0.90x (0.80x – 1.00x) | not resolved: every round below the A/A spread (0.80–1.00)",
                "| cdc-agg | on | `columnar#2` |", "| the A/A control |", OFF_IN_PLAN + " | OK |",
                "| 1 | cdc-agg | on | " + OFF + " | 8.00 |");
        assertThat(report.json()).contains("\"extraVariants\"", "\"variant\" : \"" + OFF + "\"",
                "\"throughputAgainstAa\" : \"APART_TOO_FEW_ROUNDS\"", "\"cpuAgainstAa\" : \"CONTROL\"");
        assertThat(report.variantsCsv().lines()).hasSize(3).first().asString()
                .startsWith("query,mini_batch,variant,cells,events_per_s,cpu_ns_per_event,throughput_to_stock_rounds,"
                        + "throughput_to_stock,");
        assertThat(report.variantsCsv().lines().skip(2).findFirst().orElseThrow())
                .startsWith("cdc-agg,on,\"" + OFF + "\",2,112500.0,20500.0,2,1.1250,1.0000,1.2500,2,0.5125,0.4000,"
                        + "0.6250,2,0.9000,0.8000,1.0000,APART_TOO_FEW_ROUNDS,false,");
    }

    /** Six rounds all beyond the control's band resolve; a failed cell of the variant makes its row a FAIL. */
    @Test
    void sixRoundsBeyondTheAaBandResolveAndAFailedVariantCellIsAFailRow() {
        List<CdcResult> cells = new ArrayList<>();
        for (int round = 1; round <= 6; round++) {
            cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.STOCK, round, 10, 10, "OK", true));
            cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.COLUMNAR, round, 5, 5, "OK", true));
            cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.CONTROL, round, round % 2 == 0 ? 4.9 : 5.1, 5, "OK", true));
            cells.add(cell(CdcQuery.CDC_AGG, CdcVariant.parse(OFF), round, 7 + round / 10.0, 5,
                    round == 6 ? "FAIL: output differs from stock" : "OK", true));
        }
        CdcVariantReport.Row off = new CdcVariantReport(cells).rows().get(1);

        assertThat(off.throughput().againstControl().resolution()).isEqualTo(AaControl.Resolution.BELOW);
        assertThat(off.throughput().againstControl().resolved()).isTrue();
        assertThat(off.throughput().verdict(off.variant())).startsWith("**resolved**: every round below the A/A"
                + " spread (0.98–1.02)");
        assertThat(off.cpu().againstControl().resolution()).as("equal CPU: inside the band")
                .isEqualTo(AaControl.Resolution.INSIDE);
        assertThat(off.verdict()).startsWith("FAIL: 1 of 6 cells (cdc-agg-" + OFF + "-mb round 6: FAIL: output");
        assertThat(new CdcReport(cells, setup(true, JvmWarmUp.OFF)).variantsCsv()).contains(",BELOW,true,");
    }

    /** Without extra variants the report is as before: no section, no JSON key, no variants CSV. */
    @Test
    void withoutExtraVariantsTheReportHasNoVariantPart() {
        CdcReport report = report(List.of(cell(CdcQuery.CDC_AGG, CdcVariant.STOCK, 1, 10, 10, "OK"),
                cell(CdcQuery.CDC_AGG, CdcVariant.COLUMNAR, 1, 5, 5, "OK")));

        assertThat(report.markdown()).doesNotContain("Extra variants");
        assertThat(report.json()).doesNotContain("extraVariants");
        assertThat(report.variantsCsv()).isEmpty();
    }

    private static CdcReport report(List<CdcResult> cells) {
        return report(cells, JvmWarmUp.OFF);
    }

    private static CdcReport report(List<CdcResult> cells, JvmWarmUp jvmWarmUp) {
        return new CdcReport(cells, setup(false, jvmWarmUp));
    }

    private static CdcReport.Setup setup(boolean miniBatch, JvmWarmUp jvmWarmUp) {
        return new CdcReport.Setup("20261207-000000", "", RECORDS, "update 1", 1, 1, 3, 2, 2, 1000, 42, miniBatch,
                jvmWarmUp, "0.50 0.40 0.30 1/100 1", "1.50 0.40 0.30 1/100 1");
    }

    private static CdcResult warmed(CdcVariant variant, int round, int jobs, double lastJitShare, double jitSeconds) {
        Properties measured = measured(variant, 5, 5);
        measured.setProperty("jvmWarmUpJobs", Integer.toString(jobs));
        measured.setProperty("jvmWarmUpLastJitShare", Double.toString(lastJitShare));
        measured.setProperty("jitSeconds", Double.toString(jitSeconds));
        return CdcResult.of(new CdcCell(CdcQuery.CDC_CALC, variant, round, RECORDS, 2, 1000, false, "b", "in", "out",
                "run", "ck", "res", JvmWarmUp.SETTLED), measured, new OutputDigest(7, "abc"), "OK");
    }

    private static CdcResult cell(CdcQuery query, CdcVariant variant, int round, double jobSeconds, double cpuSeconds,
                                  String verdict) {
        return cell(query, variant, round, jobSeconds, cpuSeconds, verdict, false);
    }

    private static CdcResult cell(CdcQuery query, CdcVariant variant, int round, double jobSeconds, double cpuSeconds,
                                  String verdict, boolean miniBatch) {
        return CdcResult.of(new CdcCell(query, variant, round, RECORDS, 2, 1000, miniBatch, "b", "in", "out", "run",
                "ck", "res", JvmWarmUp.OFF), measured(variant, jobSeconds, cpuSeconds), new OutputDigest(7, "abc"),
                verdict);
    }

    private static Properties measured(CdcVariant variant, double jobSeconds, double cpuSeconds) {
        Properties measured = new Properties();
        measured.setProperty("jobSeconds", Double.toString(jobSeconds));
        measured.setProperty("cpuSeconds", Double.toString(cpuSeconds));
        measured.setProperty("planPath", variant.columnar() ? "plan: ColumnarScan+ColumnarCalc+ColumnarSink"
                : "plan: no columnar node");
        measured.setProperty("columnarNodes", variant.columnar() ? "3" : "0");
        if (!variant.plannerOptions().isEmpty()) {
            measured.setProperty("plannerOptionsInPlan", OFF_IN_PLAN);
        }
        measured.setProperty("edges", "0");
        return measured;
    }
}
