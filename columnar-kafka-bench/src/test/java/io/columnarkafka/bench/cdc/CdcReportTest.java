package io.columnarkafka.bench.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.nexmark.OutputDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The report's arithmetic: paired per-round ratios, CPU per event, the warm-up left out, a FAIL never dropped. */
class CdcReportTest {
    private static final long RECORDS = 1_000_000;

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
        measured.setProperty("planPath", variant == CdcVariant.STOCK ? "plan: no columnar node"
                : "plan: ColumnarScan+ColumnarCalc+ColumnarSink");
        measured.setProperty("columnarNodes", variant == CdcVariant.STOCK ? "0" : "3");
        measured.setProperty("edges", "0");
        return measured;
    }
}
