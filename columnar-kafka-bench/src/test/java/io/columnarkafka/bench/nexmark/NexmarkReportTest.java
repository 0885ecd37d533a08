package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.Spread;
import io.columnarkafka.bench.SteadyFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The report's recovery section from made-up cells (no cluster): per query the medians and the per-round paired
 * ratio of recovery time (a replay count that is unknown left out), a FAIL row when any recovery cell of the
 * query failed, every recovery cell listed, the recovery cells kept out of the throughput rows, and JSON the chart
 * script can read (a failed cell's multi-line verdict escaped).
 */
class NexmarkReportTest {
    private static final OutputDigest DIGEST = new OutputDigest(920, "abc");

    @Test
    void recoveryRowsPairStockAndColumnarPerRoundAndFailLoudly() throws Exception {
        List<CellResult> cells = new ArrayList<>();
        cells.add(plain(NexmarkQuery.Q0, Variant.STOCK, 1, 10.0));
        cells.add(plain(NexmarkQuery.Q0, Variant.COLUMNAR, 1, 8.0));
        cells.add(recovery(NexmarkQuery.Q0, Variant.STOCK, 1, 4.0, 1000));
        cells.add(recovery(NexmarkQuery.Q0, Variant.COLUMNAR, 1, 2.0, 1200));
        cells.add(recovery(NexmarkQuery.Q0, Variant.STOCK, 2, 5.0, 1400));
        // Restored a checkpoint that completed during the termination: replay unknown, left out of the median.
        cells.add(recovery(NexmarkQuery.Q0, Variant.COLUMNAR, 2, 6.0, -1));
        cells.add(recovery(NexmarkQuery.Q5, Variant.STOCK, 1, 7.0, 900));
        cells.add(CellResult.failed(spec(NexmarkQuery.Q5, Variant.COLUMNAR, 0.5), 1,
                "q5-c-fail failed (exit 1); log cell.log:\nException in thread \"main\" boom"));
        NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 2, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);

        assertThat(report.rows()).singleElement().satisfies(row -> {
            assertThat(row.query()).isEqualTo(NexmarkQuery.Q0);
            assertThat(row.ratio()).as("the plain cells only: 10 s / 8 s").isEqualTo(1.25);
        });
        List<NexmarkReport.RecoveryRow> rows = report.recoveryRows();
        assertThat(rows).extracting(NexmarkReport.RecoveryRow::query).containsExactly(NexmarkQuery.Q0, NexmarkQuery.Q5);
        NexmarkReport.RecoveryRow q0 = rows.get(0);
        assertThat(q0.ok()).isTrue();
        assertThat(q0.pairs()).isEqualTo(2);
        assertThat(q0.stockRecovery()).isEqualTo(4.5);
        assertThat(q0.columnarRecovery()).isEqualTo(4.0);
        assertThat(q0.ratioMin()).isEqualTo(0.5);
        assertThat(q0.ratioMax()).isEqualTo(1.2);
        assertThat(q0.ratio()).isEqualTo((0.5 + 1.2) / 2);
        assertThat(q0.columnarReplayed()).isEqualTo(1200);
        NexmarkReport.RecoveryRow q5 = rows.get(1);
        assertThat(q5.ok()).isFalse();
        assertThat(q5.pairs()).isZero();
        assertThat(q5.output()).startsWith("FAIL: q5-c-fail failed (exit 1)").doesNotContain("\n");

        String markdown = report.markdown();
        assertThat(markdown).contains("## Recovery: one TaskManager process killed mid-run")
                .contains("| q0 | 2 | 0.50 / 0.50 | 4.50 / 4.00 | **0.85** (0.50–1.20) | 1,200 / 1,200 |")
                .contains("| q5 | 0 | 0.50 / – | 7.00 / – | – | 900 / – | FAIL: q5-c-fail failed (exit 1); log cell.log: |")
                .contains("| q5 | 1 | columnar | – | – | – | – | – | – | – | – | FAIL: q5-c-fail failed (exit 1); log cell.log: |")
                .contains("| q0 | 2 | columnar | 0.25 | 0.50 | 6.00 | – | 8 (7) |");

        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("recovery")).hasSize(2);
        assertThat(json.path("recovery").get(0).path("columnarRecoverySeconds").asDouble()).isEqualTo(4.0);
        assertThat(json.path("recovery").get(1).path("ok").asBoolean()).isFalse();
        assertThat(json.path("recovery").get(1).path("columnarRecoverySeconds").isNull()).isTrue();
        assertThat(json.path("cells")).hasSize(cells.size());
        assertThat(json.path("cells").get(7).path("verdict").asText()).contains("\nException in thread");
    }

    /** A run of stateless queries only has no stateful geomean: the report prints –, not NaN. */
    @Test
    void geomeanOverNoQueryOfAKindIsADash() {
        List<CellResult> cells = List.of(plain(NexmarkQuery.Q0, Variant.STOCK, 1, 10.0),
                plain(NexmarkQuery.Q0, Variant.COLUMNAR, 1, 8.0));
        String markdown = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 1, 2, 1000, 2, 42,
                new ClientSettings(8192, 524288, 20, -1, 0, -1)).markdown();
        assertThat(markdown)
                .contains("Geomean throughput ratio (columnar / stock) by job time, the metric issue #11's targets"
                        + " name: stateless **1.25**, stateful **–**, all **1.25**. By steady-state rate: stateless **–**,"
                        + " stateful **–**, all **–**.")
                .doesNotContain("NaN")
                .contains("`properties.max.poll.records` = 8192")
                .contains("The result table's producer sets `properties.batch.size` = 524288 and `properties.linger.ms`"
                        + " = 20 in both variants");
    }

    /**
     * A settled JVM warm-up is said with how many runs each variant's cells took, how many stopped at the cap, and the
     * JIT's compile time left in the measured jobs; the JSON carries the mode and every cell's figures.
     */
    @Test
    void aSettledWarmUpSaysItsRunsAndTheJitLeftInTheMeasuredJob() throws Exception {
        List<CellResult> cells = List.of(
                warmed(Variant.STOCK, 1, 3, 0.12, 1.5), warmed(Variant.COLUMNAR, 1, 5, 0.14, 0.75),
                warmed(Variant.STOCK, 2, 2, 0.10, 2.5), warmed(Variant.COLUMNAR, 2, 8, 0.40, 1.25));
        NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 1, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);
        assertThat(report.markdown())
                .contains("**JVM warm-up** (`--jvm-warm-up settled`)")
                .contains("at most 15 % of its wall time compiling (at most 8 runs)")
                .contains("Warm-up runs per cell: stock 2–3, columnar 5–8; 1 cell(s) stopped at 8 runs with the JIT"
                        + " still busier.")
                .contains("JIT compile time in the measured job (all compiler threads, elapsed; median over cells):"
                        + " stock 2.00 s, columnar 1.00 s.");
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("jvmWarmUpMode").asText()).isEqualTo("settled");
        assertThat(json.path("cells").get(3).path("jvmWarmUpJobs").asInt()).isEqualTo(8);
        assertThat(json.path("cells").get(3).path("jitSeconds").asDouble()).isEqualTo(1.25);
    }

    @Test
    void noWarmUpSaysNothingOfIt() {
        String markdown = new NexmarkReport(List.of(plain(NexmarkQuery.Q0, Variant.STOCK, 1, 10.0),
                plain(NexmarkQuery.Q0, Variant.COLUMNAR, 1, 8.0)), "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 1, 2,
                1000, 2, 42, ClientSettings.DEFAULTS).markdown();
        assertThat(markdown).doesNotContain("JVM warm-up");
    }

    /** The checkpoints by task: every counted cell's tasks, a query's stock and columnar cells together. */
    @Test
    void checkpointsByTaskListEveryCountedCellsTasks() {
        List<CellResult> cells = new ArrayList<>();
        for (Variant variant : List.of(Variant.COLUMNAR, Variant.STOCK)) {
            Properties p = measured(10);
            p.setProperty("checkpointByVertex", CheckpointByVertex.describe(List.of(
                    new CheckpointByVertex("Source: nexmark[1] -> Calc[2]", 594, 600, 61, 7, 18, 126, 0),
                    new CheckpointByVertex("GlobalWindowAggregate[3] | x", variant.equals(Variant.STOCK) ? 383_978 : 502_684,
                            917_936, 92, 0, 89, 292, 3))));
            cells.add(CellResult.of(spec(NexmarkQuery.Q5, variant, 0), 1, p, DIGEST, "OK"));
        }
        cells.add(CellResult.of(spec(NexmarkQuery.Q5, Variant.STOCK, 0), 0, measured(10), DIGEST, "OK"));
        String markdown = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 1, 2, 1000, 2, 42,
                new ClientSettings(100, -1, -1, -1, 0, -1))
                .markdown();
        assertThat(markdown).contains("## Checkpoints by task")
                .contains("`properties.max.poll.records` = 100")
                .contains("| q5 | off | 1 | stock | `Source: nexmark[1] -> Calc[2]` | 594 | 600 | 61 | 7 | 18 | 126 |")
                .contains("| q5 | off | 1 | stock | `GlobalWindowAggregate[3] / x` | 383,978 | 917,936 | 92 | 0 | 89 | 292 |")
                .contains("| q5 | off | 1 | columnar | `GlobalWindowAggregate[3] / x` | 502,684 | 917,936 | 92 | 0 | 89 | 292 |");
        String table = markdown.substring(markdown.indexOf("## Checkpoints by task"));
        assertThat(table.indexOf("| stock |")).as("stock before columnar").isLessThan(table.indexOf("| columnar |"));
    }

    /**
     * Job time and steady state side by side: per pair the paired ratio of both, each variant's fixed seconds, the
     * side that limited the steady rate, the checkpoints' p50 in the steady window (median over the cells that had
     * any there), and both geomeans in the headline, JSON and CSV.
     */
    @Test
    void steadyStateStandsNextToJobTime() throws Exception {
        List<CellResult> cells = new ArrayList<>();
        // 1,000 events. Round 1: stock 10 s at a steady 200 events/s (fixed 5 s), columnar 8 s at 400 (fixed 5.5 s).
        // Steady-window checkpoints: stock 3 at a p50 of 40 ms, columnar 1 of 20 ms.
        cells.add(steady(Variant.STOCK, 1, 10.0, 200, 250, 3, 40));
        cells.add(steady(Variant.COLUMNAR, 1, 8.0, 500, 400, 1, 20));
        // Round 2: stock 10 s at 250 (fixed 6 s), columnar 5 s at 1,000 (fixed 4 s); stock 2 checkpoints at 60 ms,
        // columnar none in its steady window (its p50 stays out of the median).
        cells.add(steady(Variant.STOCK, 2, 10.0, 250, 300, 2, 60));
        cells.add(steady(Variant.COLUMNAR, 2, 5.0, 1000, 1100, 0, 0));
        NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 2, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);

        SteadyStateReport.Row row = new SteadyStateReport(report.rows(), cells).rows().get(0);
        assertThat(row.ratioMin()).isEqualTo(2.0);
        assertThat(row.ratioMax()).isEqualTo(4.0);
        assertThat(row.ratio()).isEqualTo(3.0);
        assertThat(row.jobRatio()).as("10/8 and 10/5").isEqualTo((1.25 + 2.0) / 2);
        assertThat(row.stockFixed()).isEqualTo(5.5);
        assertThat(row.columnarFixed()).isEqualTo(4.75);
        assertThat(row.stockLimitedBy()).isEqualTo("read");
        assertThat(row.columnarLimitedBy()).isEqualTo("read 1, written 1");
        assertThat(row.stockSteadyCheckpointP50Ms()).as("median of 40 and 60").isEqualTo(50);
        assertThat(row.columnarSteadyCheckpointP50Ms()).as("the one cell with a steady checkpoint").isEqualTo(20);
        assertThat(row.stockSteadyCheckpoints()).isEqualTo(5);
        assertThat(row.columnarSteadyCheckpoints()).isEqualTo(1);

        assertThat(report.markdown())
                .contains("stateless **1.63**, stateful **–**, all **1.63**. By steady-state rate: stateless **3.00**,"
                        + " stateful **–**, all **3.00**.")
                .contains("| q0 | **1.63** (1.25–2.00) | 225 | 700 | **3.00** (2.00–4.00) | 10.00 / 6.50 | 5.50 / 4.75"
                        + " | read / read 1, written 1 | 50 / 20 (5 / 1) |");
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("steady").get(0).path("steadyRatio").asDouble()).isEqualTo(3.0);
        assertThat(json.path("steady").get(0).path("columnarFixedSeconds").asDouble()).isEqualTo(4.75);
        assertThat(json.path("cells").get(1).path("steadyEventsPerSecond").asDouble()).isEqualTo(400);
        assertThat(json.path("cells").get(1).path("steadyWrittenEventsPerSecond").asDouble()).isEqualTo(400);
        assertThat(json.path("steady").get(0).path("stockSteadyCheckpointP50Ms").asDouble()).isEqualTo(50);
        assertThat(json.path("cells").get(1).path("steadyCheckpointP50Ms").asLong()).isEqualTo(20);
        assertThat(json.path("cells").get(3).path("steadyCheckpointP50Ms").isNull()).as("none in its window").isTrue();
        assertThat(report.csv().lines().skip(2).findFirst().orElseThrow())
                .endsWith(",400.0000,500.0000,400.0000,5.5000,\"\",1,20,false");
    }

    /**
     * A bounded run's q12: its output checked against the input (a bidder counted more often than it bid FAILs) but
     * not compared with stock's, so its row says why and where it is measured, and stays out of the geomeans.
     */
    @Test
    void boundedQ12IsNotComparedAndStaysOutOfTheGeomeans() {
        String notCompared = CellResult.NOT_COMPARED + NexmarkBenchmark.Q12_BOUNDED + " (0 of the input's 920 bids in"
                + " closed windows)";
        List<CellResult> cells = new ArrayList<>();
        cells.add(plain(NexmarkQuery.Q0, Variant.STOCK, 1, 10.0));
        cells.add(plain(NexmarkQuery.Q0, Variant.COLUMNAR, 1, 8.0));
        cells.add(CellResult.of(spec(NexmarkQuery.Q12, Variant.STOCK, 0), 1, measured(10), new OutputDigest(0, ""),
                notCompared));
        cells.add(CellResult.of(spec(NexmarkQuery.Q12, Variant.COLUMNAR, 0), 1, measured(2), new OutputDigest(0, ""),
                notCompared));
        NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 1, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);

        NexmarkReport.Row q12 = report.rows().get(1);
        assertThat(q12.query()).isEqualTo(NexmarkQuery.Q12);
        assertThat(q12.ok()).isTrue();
        assertThat(q12.compared()).isFalse();
        assertThat(q12.ratio()).as("its throughput is still measured").isEqualTo(5.0);
        assertThat(q12.output()).startsWith("not compared: its 10 s processing-time windows do not fire")
                .contains("bin/bench-nexmark --rate");
        String markdown = report.markdown();
        assertThat(markdown).contains("stateless **1.25**, stateful **–**, all **1.25**")
                .contains("Not in the geomeans: **q12**, not compared: its 10 s processing-time windows")
                .contains("None: every cell's read_committed output equals the stock result.");

        cells.set(3, CellResult.of(spec(NexmarkQuery.Q12, Variant.COLUMNAR, 0), 1, measured(2), DIGEST,
                "FAIL: bidder 1002 counted 3 times, 2 bids in the input"));
        NexmarkReport failing = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 1, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);
        assertThat(failing.rows().get(1).ok()).isFalse();
        assertThat(failing.rows().get(1).output()).startsWith("FAIL");
        assertThat(failing.markdown()).contains("- **q12-c round 1**: FAIL: bidder 1002 counted 3 times");
    }

    /**
     * The fixed-rate report: per query the medians of checkpoint p50 and CPU cores, their ratios paired per round
     * (median, min, max), the warm-up round left out, a failed cell a FAIL row, and JSON and CSV of every cell.
     */
    @Test
    void fixedRateRowsPairCheckpointsAndCoresPerRound() throws Exception {
        List<CellResult> cells = new ArrayList<>();
        cells.add(atRate(Variant.STOCK, 0, 900, 9.0));
        cells.add(atRate(Variant.COLUMNAR, 0, 900, 9.0));
        cells.add(atRate(Variant.STOCK, 1, 100, 1.0));
        cells.add(atRate(Variant.COLUMNAR, 1, 50, 0.8));
        cells.add(atRate(Variant.COLUMNAR, 2, 90, 0.5));
        cells.add(atRate(Variant.STOCK, 2, 60, 1.0));
        cells.add(CellResult.failed(spec(NexmarkQuery.Q12, Variant.STOCK, 0), 1, "boom"));
        cells.add(CellResult.of(spec(NexmarkQuery.Q12, Variant.COLUMNAR, 0), 1, measured(5), DIGEST, "OK"));
        FixedRateReport report = new FixedRateReport(new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0",
                400_000, 1, 2, 2, 1000, 2, 42, ClientSettings.DEFAULTS), 10_000, 40);

        List<FixedRateReport.Row> rows = report.rows();
        assertThat(rows).extracting(FixedRateReport.Row::query).containsExactly(NexmarkQuery.Q0, NexmarkQuery.Q12);
        FixedRateReport.Row q0 = rows.get(0);
        assertThat(q0.ok()).isTrue();
        assertThat(q0.pairs()).isEqualTo(2);
        assertThat(q0.checkpointP50().stock()).as("rounds 1 and 2, not the warm-up").isEqualTo(80);
        assertThat(q0.checkpointP50().columnar()).isEqualTo(70);
        assertThat(q0.checkpointP50().ratioMin()).isEqualTo(0.5);
        assertThat(q0.checkpointP50().ratioMax()).isEqualTo(1.5);
        assertThat(q0.checkpointP50().ratio()).isEqualTo(1.0);
        assertThat(q0.cores().ratio()).isEqualTo((0.8 + 0.5) / 2);
        assertThat(rows.get(1).ok()).isFalse();
        assertThat(rows.get(1).output()).startsWith("FAIL: boom");

        assertThat(report.markdown())
                .contains("at a fixed event rate").contains("**10,000 events/s** for 40 s")
                .contains("| q0 | off | 2 | 80 / 70 | **1.00** (0.50–1.50) |")
                .contains("| 1.00 / 0.65 | **0.65** (0.50–0.80) |")
                .contains("Checkpoint p50 no worse than stock's (paired median ratio ≤ 1) in 1 of 1 compared rows.")
                .contains("| q0 | off | warm-up | stock |");
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("summary").get(0).path("checkpointP50Ms").path("ratioMax").asDouble()).isEqualTo(1.5);
        assertThat(json.path("cells")).hasSize(cells.size());
        assertThat(json.path("cells").get(3).path("steadyCores").asDouble()).isEqualTo(0.8);
        assertThat(report.csv().lines().count()).isEqualTo(cells.size() + 1);
    }

    /**
     * A fixed-rate run's recovery cells stay out of its checkpoint rows and "every cell" table and get the bounded
     * matrix's recovery section, whose caught up is defined at the live input; the JSON keeps them apart, the CSV has
     * every cell with its recovery time.
     */
    @Test
    void fixedRateRecoveryCellsHaveTheirOwnSection() throws Exception {
        List<CellResult> cells = new ArrayList<>();
        cells.add(atRate(Variant.STOCK, 1, 100, 1.0));
        cells.add(atRate(Variant.COLUMNAR, 1, 50, 0.8));
        cells.add(recoveryAtRate(Variant.STOCK, 8.0, 12_000));
        cells.add(recoveryAtRate(Variant.COLUMNAR, 6.0, 11_000));
        FixedRateReport report = new FixedRateReport(new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0",
                400_000, 0, 1, 2, 1000, 2, 42, ClientSettings.DEFAULTS), 10_000, 40);

        assertThat(report.rows()).hasSize(1);
        assertThat(report.rows().get(0).checkpointP50().stock()).as("the plain cell's, not the recovery cell's")
                .isEqualTo(100);
        String markdown = report.markdown();
        assertThat(markdown)
                .contains("## Recovery: one TaskManager process killed mid-run (mini-batch off, at the fixed input rate)")
                .contains("back at the live input")
                .contains("| q0 | 1 | 0.50 / 0.50 | 8.00 / 6.00 | **0.75** (0.75–0.75) |");
        String everyCell = markdown.substring(markdown.indexOf("## Every cell"), markdown.indexOf("## Recovery"));
        assertThat(everyCell.lines().filter(line -> line.startsWith("| q0 |"))).hasSize(2);
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("recovery").get(0).path("ratio").asDouble()).isEqualTo(0.75);
        assertThat(json.path("recoveryCells")).hasSize(2);
        assertThat(json.path("cells")).hasSize(2);
        List<String> csv = report.csv().lines().toList();
        assertThat(csv).hasSize(cells.size() + 1);
        assertThat(csv.get(3)).contains(",8.0000,12000,");
    }

    private static CellResult recoveryAtRate(Variant variant, double recoverySeconds, long replayed) {
        Properties p = measured(20);
        p.setProperty("noticedSeconds", "0.25");
        p.setProperty("restartSeconds", "0.5");
        p.setProperty("recoverySeconds", Double.toString(recoverySeconds));
        p.setProperty("recordsReplayed", Long.toString(replayed));
        p.setProperty("restoredCheckpoint", "7");
        p.setProperty("checkpointAtFailure", "7");
        CellSpec spec = new CellSpec(NexmarkQuery.Q0, variant, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 400_000, 2, 1000,
                "localhost:9092", "in", "out", "run", 0.5, 10_000, true, ClientSettings.DEFAULTS, "/tmp/checkpoints",
                "/tmp/result", JvmWarmUp.OFF);
        return CellResult.of(spec, 1, p, DIGEST, "OK");
    }

    /**
     * Where the checkpoint time goes: per query the parts of the last acknowledgement, stock / columnar medians
     * over the counted rounds with the paired difference per round, then per vertex position each phase; the
     * warm-up round left out; a vertex line of an older result (no alignment) still reads.
     */
    @Test
    void fixedRateReportBreaksCheckpointTimeDownByPartAndVertex() throws Exception {
        List<CellResult> cells = new ArrayList<>();
        cells.add(withPath(atRate(Variant.STOCK, 0, 900, 9.0), new CheckpointPath(20, 0, 1.0, 900, 800, 0, 50, 20, 30)));
        cells.add(withPath(atRate(Variant.COLUMNAR, 0, 900, 9.0), new CheckpointPath(20, 0, 1.0, 900, 800, 0, 50, 20, 30)));
        cells.add(withPath(atRate(Variant.STOCK, 1, 20, 1.0), new CheckpointPath(20, 1, 0.75, 20, 4, 1, 5, 3, 7)));
        cells.add(withPath(atRate(Variant.COLUMNAR, 1, 30, 1.0), new CheckpointPath(20, 1, 0.85, 30, 4, 1, 13, 3, 9)));
        cells.add(withPath(atRate(Variant.COLUMNAR, 2, 26, 1.0), new CheckpointPath(19, 1, 0.95, 26, 6, 1, 11, 3, 5)));
        cells.add(withPath(atRate(Variant.STOCK, 2, 22, 1.0), new CheckpointPath(21, 1, 0.65, 22, 6, 1, 7, 3, 5)));
        String markdown = new FixedRateReport(new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0",
                400_000, 1, 2, 2, 1000, 2, 42, ClientSettings.DEFAULTS), 10_000, 40).markdown();

        assertThat(markdown).contains("## Where the checkpoint time goes")
                .contains("| q0 | off | 1 (70 %) / 1 (90 %) | 21 / 28 (+7, +4–+10) | 5 / 5 (+0, +0–+0) |"
                        + " 1 / 1 (+0, +0–+0) | 6 / 12 (+6, +4–+8) | 3 / 3 (+0, +0–+0) | 6 / 7 (+1, +0–+2) |")
                .contains("pre-barrier + rest stock / col.")
                .contains("| q0 | off | 1 | `Join[3] / x` / `Join[5] / x` | 5 / 5 | 0 / 2 | 0 / 0 | 50 / 60 | 60 / 70 |");
        JsonNode json = new ObjectMapper().readTree(new FixedRateReport(new NexmarkReport(cells, "test", "",
                "0.1 0 0", "0.2 0 0", 400_000, 1, 2, 2, 1000, 2, 42, ClientSettings.DEFAULTS), 10_000, 40).json());
        assertThat(json.path("cells").get(3).path("checkpointPath").path("syncP50Ms").asLong()).isEqualTo(13);
    }

    private static CellResult withPath(CellResult cell, CheckpointPath path) {
        boolean stock = cell.spec().variant().equals(Variant.STOCK);
        String byVertex = CheckpointByVertex.describe(List.of(
                new CheckpointByVertex(stock ? "Source: nexmark[1]" : "Source: ColumnarScanExecNode[1]", 600, 600, 3,
                        0, 2, 10, 0),
                new CheckpointByVertex(stock ? "Join[3] | x" : "Join[5] | x", 4_000_000, 9_000_000, 5, 0,
                        stock ? 50 : 60, stock ? 60 : 70, stock ? 0 : 2)));
        if (stock) {
            // An older result's line: no alignment field.
            byVertex = byVertex.replace(" | alignment 0 ms", "");
        }
        Properties p = measured(45);
        cell.checkpoints().store(p);
        p.setProperty("steadyCores", Double.toString(cell.steadyCores()));
        p.setProperty("fillSeconds", "40.0");
        cell.steady().store(p);
        p.setProperty("checkpointByVertex", byVertex);
        path.store(p);
        return CellResult.of(cell.spec(), cell.round(), p, DIGEST, "OK");
    }

    private static CellResult atRate(Variant variant, int round, long checkpointP50, double cores) {
        Properties p = measured(45);
        new CheckpointFigures(40, 0, checkpointP50, 2 * checkpointP50, 3 * checkpointP50, 4096, 8192).store(p);
        p.setProperty("steadyCores", Double.toString(cores));
        p.setProperty("fillSeconds", "40.0");
        new SteadyFigures(10_000, 10_000, 5, 37, 5, 37).store(p);
        return CellResult.of(spec(NexmarkQuery.Q0, variant, 0), round, p, DIGEST, "OK");
    }

    /**
     * An A/B run's extra variants: each variant's throughput over stock's and over columnar's in the same round,
     * median (min–max) over the rounds (the warm-up left out), CPU beside it, what the plans showed of the option,
     * and a variant whose cell failed a FAIL row of its own that leaves the stock/columnar row alone. Expected values
     * worked by hand: 1,000 events per cell, so events/s = 1000 / job s and CPU s/M events = 1000 × CPU s.
     */
    @Test
    void extraVariantsArePairedPerRoundWithStockAndWithColumnar() throws Exception {
        Variant views = Variant.parse("columnar:edge-rows=VIEWS");
        Variant rowView = Variant.parse("columnar:local-window-agg.vectorised=false");
        String viewsInPlan = "edge-rows=VIEWS: rows=[views] on 1 of 1 edge(s)";
        List<CellResult> cells = new ArrayList<>();
        cells.add(abCell(Variant.STOCK, 0, 1.0, 1.0, ""));
        cells.add(abCell(Variant.COLUMNAR, 0, 1.0, 1.0, ""));
        cells.add(abCell(views, 0, 1.0, 1.0, viewsInPlan));
        cells.add(abCell(rowView, 0, 1.0, 1.0, "x"));
        // Round 1: 100, 125, 200 and 100 events/s; round 2: 50, 100, 250, FAIL; round 3: 100, 100, 125, 50.
        double[][] jobAndCpu = {{10, 1.0}, {8, 0.8}, {5, 0.5}, {10, 0.9}, {20, 1.0}, {10, 0.8}, {4, 0.7}, {0, 0},
            {10, 1.0}, {10, 0.8}, {8, 0.6}, {20, 1.1}};
        for (int round = 1; round <= 3; round++) {
            Variant[] order = {Variant.STOCK, Variant.COLUMNAR, views, rowView};
            for (int v = 0; v < 4; v++) {
                double[] figures = jobAndCpu[(round - 1) * 4 + v];
                cells.add(figures[0] == 0
                        ? CellResult.failed(spec(NexmarkQuery.Q4, rowView, 0), round, "the plan contradicts it")
                        : abCell(order[v], round, figures[0], figures[1], v == 2 ? viewsInPlan : v == 3 ? "x" : ""));
            }
        }
        NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 1, 3, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);

        assertThat(report.rows()).singleElement().satisfies(row -> {
            assertThat(row.ratio()).as("columnar / stock: 1.25, 2.0, 1.0").isEqualTo(1.25);
            assertThat(row.ok()).as("the extra variant's failure is its own row's").isTrue();
        });
        List<VariantReport.Row> rows = new VariantReport(cells).rows();
        assertThat(rows).extracting(VariantReport.Row::variant).containsExactly(views, rowView);
        VariantReport.Row v = rows.get(0);
        assertThat(v.eventsPerSecond()).as("200, 250, 125").isEqualTo(200.0);
        assertThat(v.againstStock()).as("200/100, 250/50, 125/100")
                .isEqualTo(new Spread(3, 2.0, 1.25, 5.0));
        assertThat(v.againstColumnar()).as("200/125, 250/100, 125/100")
                .isEqualTo(new Spread(3, 1.6, 1.25, 2.5));
        assertThat(v.cpu()).as("500, 700, 600").isEqualTo(600.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(v.stockCpu()).isEqualTo(1000.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(v.columnarCpu()).isEqualTo(800.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(v.inPlan()).isEqualTo(viewsInPlan);
        assertThat(v.ok()).isTrue();
        VariantReport.Row r = rows.get(1);
        assertThat(r.ok()).isFalse();
        assertThat(r.output()).isEqualTo("FAIL: the plan contradicts it");
        assertThat(r.againstStock()).as("rounds 1 and 3 only: 100/100, 50/100")
                .isEqualTo(new Spread(2, 0.75, 0.5, 1.0));
        assertThat(r.againstColumnar()).as("100/125, 50/100")
                .isEqualTo(new Spread(2, 0.65, 0.5, 0.8));

        String markdown = report.markdown();
        assertThat(markdown).contains("- `columnar:edge-rows=VIEWS`: geomean ratio against stock **2.00**, against"
                        + " columnar **1.60**")
                .contains("| q4 | `columnar:edge-rows=VIEWS` | 200 | **2.00** (1.25–5.00) | **1.60** (1.25–2.50) | – |"
                        + " not resolved: no A/A control (add columnar#2 to --variants) | 3 of 3 above 1, 0 below |"
                        + " 1000.0 / 800.0 / 600.0 | edge-rows=VIEWS: rows=[views] on 1 of 1 edge(s) | equal to stock |")
                .contains("| q4 | `columnar:local-window-agg.vectorised=false` | 75 | **0.75** (0.50–1.00) |"
                        + " **0.65** (0.50–0.80) |");
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("summary")).hasSize(1);
        assertThat(json.path("summary").get(0).path("ratio").asDouble()).isEqualTo(1.25);
        assertThat(json.path("variants")).extracting(JsonNode::asText).containsExactly("stock", "columnar",
                "columnar:edge-rows=VIEWS", "columnar:local-window-agg.vectorised=false");
        JsonNode first = json.path("variantSummary").get(0);
        assertThat(first.path("variant").asText()).isEqualTo("columnar:edge-rows=VIEWS");
        assertThat(first.path("ratioToStock").asDouble()).isEqualTo(2.0);
        assertThat(first.path("ratioToStockMax").asDouble()).isEqualTo(5.0);
        assertThat(first.path("ratioToColumnar").asDouble()).isEqualTo(1.6);
        assertThat(first.path("pairsWithColumnar").asInt()).isEqualTo(3);
        assertThat(first.path("cpuSecondsPerMillion").asDouble()).isEqualTo(600.0);
        assertThat(json.path("variantSummary").get(1).path("ok").asBoolean()).isFalse();
        assertThat(report.csv()).contains("q4,columnar:edge-rows=VIEWS,false,1,");
    }

    /**
     * The A/A control in a bounded A/B: its throughput ratio to columnar, paired per round, is the noise each extra
     * variant's ratio to columnar is judged against, with the paired signs; the warm-up round is left out. Worked by
     * hand, 1,000 events per cell (events/s = 1000 / job s). Columnar 125, 100, 125 events/s; the control 125, 125,
     * 100 (ratios 1.0, 1.25, 0.8: not against stock, whose 100 each round would give 1.25, 1.25, 1.0); views 200,
     * 200, 250 (1.6, 2.0, 2.0: all above 1.25, but in 3 rounds only, not resolved); the row view 125, 50, 200 (1.0, 0.5, 1.6: median 1.0
     * inside 0.8–1.25, not resolved).
     */
    @Test
    void theAaControlsRatiosAreTheSpreadEachExtraVariantIsJudgedAgainst() throws Exception {
        Variant views = Variant.parse("columnar:edge-rows=VIEWS");
        Variant rowView = Variant.parse("columnar:local-window-agg.vectorised=false");
        Variant[] order = {Variant.STOCK, Variant.COLUMNAR, Variant.CONTROL, views, rowView};
        double[][] jobSeconds = {{10, 8, 1, 8, 8}, {10, 8, 8, 5, 8}, {10, 10, 8, 5, 20}, {10, 8, 10, 4, 5}};
        List<CellResult> cells = new ArrayList<>();
        for (int round = 0; round <= 3; round++) {
            for (int v = 0; v < order.length; v++) {
                cells.add(abCell(order[v], round, jobSeconds[round][v], 1.0, ""));
            }
        }
        NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 1, 3, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);

        assertThat(report.rows()).singleElement().satisfies(row -> assertThat(row.ratio())
                .as("columnar / stock, the control's cells not among columnar's: 1.25, 1.0, 1.25").isEqualTo(1.25));
        List<VariantReport.Row> rows = new VariantReport(cells).rows();
        assertThat(rows).extracting(VariantReport.Row::variant).containsExactly(Variant.CONTROL, views, rowView);
        Spread aa = new Spread(3, 1.0, 0.8, 1.25);
        VariantReport.Row control = rows.get(0);
        assertThat(control.againstColumnar()).as("125/125, 125/100, 100/125; not the warm-up's 1000/125").isEqualTo(aa);
        assertThat(control.againstControl().controlSpread()).isEqualTo(aa);
        assertThat(control.verdict()).isEqualTo("the A/A control");
        assertThat(control.inPlan()).isEqualTo("default options (A/A)");
        VariantReport.Row v = rows.get(1);
        assertThat(v.againstColumnar()).isEqualTo(new Spread(3, 2.0, 1.6, 2.0));
        assertThat(v.againstControl().controlSpread()).isEqualTo(aa);
        assertThat(v.againstControl().resolution()).isEqualTo(AaControl.Resolution.APART_TOO_FEW_ROUNDS);
        VariantReport.Row r = rows.get(2);
        assertThat(r.againstColumnar()).isEqualTo(new Spread(3, 1.0, 0.5, 1.6));
        assertThat(r.againstControl().resolution()).isEqualTo(AaControl.Resolution.INSIDE);

        assertThat(report.markdown())
                .contains("| q4 | `columnar#2` | 125 | **1.25** (1.00–1.25) | **1.00** (0.80–1.25) | **1.00** (0.80–1.25)"
                        + " | the A/A control | 1 of 3 above 1, 1 below |")
                .contains("| q4 | `columnar:edge-rows=VIEWS` | 200 | **2.00** (2.00–2.50) | **2.00** (1.60–2.00) |"
                        + " **1.00** (0.80–1.25) | not resolved: every round above the A/A spread (0.80–1.25), but a"
                        + " no-change variant is apart in up to 1 of 4 runs of 3 rounds (resolving takes 6) |"
                        + " 3 of 3 above 1, 0 below |")
                .contains("| q4 | `columnar:local-window-agg.vectorised=false` | 125 | **1.25** (0.50–2.00) |"
                        + " **1.00** (0.50–1.60) | **1.00** (0.80–1.25) | not resolved: inside the A/A spread"
                        + " (0.80–1.25) | 1 of 3 above 1, 1 below |");
        JsonNode summary = new ObjectMapper().readTree(report.json()).path("variantSummary");
        assertThat(summary.get(0).path("control").asBoolean()).isTrue();
        assertThat(summary.get(1).path("aaToColumnarMin").asDouble()).isEqualTo(0.8);
        assertThat(summary.get(1).path("aaToColumnarMax").asDouble()).isEqualTo(1.25);
        assertThat(summary.get(1).path("againstAa").asText()).isEqualTo("APART_TOO_FEW_ROUNDS");
        assertThat(summary.get(1).path("roundsAboveColumnar").asInt()).isEqualTo(3);
        assertThat(summary.get(2).path("againstAa").asText()).isEqualTo("INSIDE");
    }

    /**
     * Extra variants at a fixed rate: per variant the paired ratios to columnar of checkpoint p50 and of CPU cores,
     * each judged against the A/A control's, its last-ack breakdown against columnar's, the stock/columnar row left
     * to stock and columnar (an extra variant's failure is its own row's). By hand: columnar's checkpoint p50 50 and
     * 40 ms, the control's 55 and 36 (1.1, 0.9), views' 60 and 48 (1.2, 1.2: above, in 2 rounds only); CPU cores columnar
     * 0.5 and 0.4, the control 0.5 and 0.5 (1.0, 1.25), views 0.45 and 0.5 (0.9, 1.25: median 1.075 inside).
     */
    @Test
    void fixedRateExtraVariantsPairCheckpointsAndCoresWithColumnarAndTheAaControl() throws Exception {
        Variant views = Variant.parse("columnar:edge-rows=VIEWS");
        Variant rowView = Variant.parse("columnar:local-window-agg.vectorised=false");
        List<CellResult> cells = new ArrayList<>();
        cells.add(withPath(atRate(Variant.CONTROL, 0, 900, 9.0), new CheckpointPath(20, 1, 0.5, 900, 4, 1, 10, 800, 5)));
        cells.add(withPath(atRate(Variant.STOCK, 1, 40, 0.5), new CheckpointPath(20, 1, 0.9, 40, 4, 1, 10, 20, 5)));
        cells.add(withPath(atRate(Variant.COLUMNAR, 1, 50, 0.5), new CheckpointPath(20, 1, 0.9, 50, 4, 1, 10, 30, 5)));
        cells.add(withPath(atRate(Variant.CONTROL, 1, 55, 0.5), new CheckpointPath(20, 1, 0.9, 55, 4, 1, 10, 35, 5)));
        cells.add(withPath(atRate(views, 1, 60, 0.45), new CheckpointPath(20, 1, 0.8, 60, 4, 1, 10, 40, 5)));
        cells.add(CellResult.failed(spec(NexmarkQuery.Q0, rowView, 0), 1, "the plan contradicts it"));
        cells.add(withPath(atRate(Variant.COLUMNAR, 2, 40, 0.4), new CheckpointPath(20, 1, 0.9, 40, 4, 1, 10, 20, 5)));
        cells.add(withPath(atRate(Variant.CONTROL, 2, 36, 0.5), new CheckpointPath(20, 1, 0.9, 36, 4, 1, 10, 16, 5)));
        cells.add(withPath(atRate(views, 2, 48, 0.5), new CheckpointPath(20, 1, 0.8, 48, 4, 1, 10, 28, 5)));
        cells.add(withPath(atRate(rowView, 2, 40, 0.4), new CheckpointPath(20, 1, 0.9, 40, 4, 1, 10, 20, 5)));
        cells.add(withPath(atRate(Variant.STOCK, 2, 40, 0.5), new CheckpointPath(20, 1, 0.9, 40, 4, 1, 10, 20, 5)));
        FixedRateReport report = new FixedRateReport(new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0",
                400_000, 1, 2, 2, 1000, 2, 42, ClientSettings.DEFAULTS), 10_000, 40);

        assertThat(report.rows()).singleElement().satisfies(row -> {
            assertThat(row.ok()).as("the row view's failure is its own row's").isTrue();
            assertThat(row.checkpointP50().ratio()).as("columnar / stock: 50/40, 40/40").isEqualTo(1.125);
        });
        List<FixedRateVariants.Row> rows = new FixedRateVariants(cells).rows();
        assertThat(rows).extracting(FixedRateVariants.Row::variant).containsExactly(Variant.CONTROL, views, rowView);
        FixedRateVariants.Row v = rows.get(1);
        assertThat(v.checkpointP50()).isEqualTo(54);
        assertThat(v.columnarCheckpointP50()).isEqualTo(45);
        assertThat(v.checkpointAgainstControl().variantSpread()).isEqualTo(new Spread(2, 1.2, 1.2, 1.2));
        assertThat(v.checkpointAgainstControl().controlSpread().min()).isCloseTo(0.9, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(v.checkpointAgainstControl().controlSpread().max()).isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(v.checkpointAgainstControl().resolution()).isEqualTo(AaControl.Resolution.APART_TOO_FEW_ROUNDS);
        assertThat(v.coresAgainstControl().variantSpread().median()).isCloseTo(1.075, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(v.coresAgainstControl().controlSpread().min()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(v.coresAgainstControl().resolution()).isEqualTo(AaControl.Resolution.INSIDE);
        assertThat(v.ok()).isTrue();
        assertThat(rows.get(2).ok()).isFalse();
        assertThat(rows.get(2).output()).isEqualTo("FAIL: the plan contradicts it");

        String markdown = report.markdown();
        assertThat(markdown).contains("## Extra variants")
                .contains("| q0 | off | `columnar:edge-rows=VIEWS` | 45 / 54 | **1.20** (1.20–1.20) | **1.00** (0.90–1.10)"
                        + " | not resolved: every round above the A/A spread (0.90–1.10), but a no-change variant is"
                        + " apart in up to 1 of 2 runs of 2 rounds (resolving takes 6) | 2 of 2 above 1, 0 below"
                        + " | 90 / 108 | 0.45 / 0.48 | **1.08** (0.90–1.25) | **1.13** (1.00–1.25)"
                        + " | not resolved: inside the A/A spread (1.00–1.25) | 1 of 2 above 1, 1 below |")
                .contains("| q0 | off | `columnar:edge-rows=VIEWS` | 1 (90 %) / 1 (80 %) | 45 / 54 (+9, +8–+10) |"
                        + " 4 / 4 (+0, +0–+0) | 1 / 1 (+0, +0–+0) | 10 / 10 (+0, +0–+0) | 25 / 34 (+9, +8–+10) |"
                        + " 5 / 5 (+0, +0–+0) |")
                .contains("| q0 | off | `columnar#2` | 1 (90 %) / 1 (90 %) | 45 / 46 (+1, -4–+5) |")
                .contains("| q0 | off | warm-up | columnar#2 |");
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("variants")).extracting(JsonNode::asText).containsExactly("stock", "columnar",
                "columnar#2", "columnar:edge-rows=VIEWS", "columnar:local-window-agg.vectorised=false");
        JsonNode viewsJson = json.path("variantSummary").get(1);
        assertThat(viewsJson.path("checkpointP50").path("againstAa").asText()).isEqualTo("APART_TOO_FEW_ROUNDS");
        assertThat(viewsJson.path("cpuCoresRatio").path("againstAa").asText()).isEqualTo("INSIDE");
        assertThat(json.path("variantSummary").get(0).path("checkpointP50").path("againstAa").asText())
                .isEqualTo("CONTROL");
    }

    private static CellResult abCell(Variant variant, int round, double jobSeconds, double cpuSeconds, String inPlan) {
        Properties p = measured(jobSeconds);
        p.setProperty("cpuSeconds", Double.toString(cpuSeconds));
        p.setProperty("plannerOptionsInPlan", inPlan);
        return CellResult.of(spec(NexmarkQuery.Q4, variant, 0), round, p, DIGEST, "OK");
    }

    private static CellResult steady(Variant variant, int round, double jobSeconds, double read, double written,
                                     int steadyCheckpoints, long steadyCheckpointP50Ms) {
        Properties p = measured(jobSeconds);
        new SteadyFigures(read, written, 1, 2, 1, 2).store(p);
        new CheckpointFigures(steadyCheckpoints, 0, steadyCheckpointP50Ms, steadyCheckpointP50Ms,
                steadyCheckpointP50Ms, 2048, 2048).store(p, "steady");
        return CellResult.of(spec(NexmarkQuery.Q0, variant, 0), round, p, DIGEST, "OK");
    }

    private static CellResult warmed(Variant variant, int round, int jobs, double lastJitShare, double jitSeconds) {
        Properties p = measured(10);
        p.setProperty("jvmWarmUpJobs", Integer.toString(jobs));
        p.setProperty("jvmWarmUpLastJitShare", Double.toString(lastJitShare));
        p.setProperty("jitSeconds", Double.toString(jitSeconds));
        CellSpec spec = new CellSpec(NexmarkQuery.Q0, variant, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000,
                "localhost:9092", "in", "out", "run", 0, 0, true, ClientSettings.DEFAULTS, "/tmp/checkpoints",
                "/tmp/result", JvmWarmUp.SETTLED);
        return CellResult.of(spec, round, p, DIGEST, "OK");
    }

    private static CellResult plain(NexmarkQuery query, Variant variant, int round, double jobSeconds) {
        Properties p = measured(jobSeconds);
        return CellResult.of(spec(query, variant, 0), round, p, DIGEST, "OK");
    }

    private static CellResult recovery(NexmarkQuery query, Variant variant, int round, double recoverySeconds,
                                       long replayed) {
        Properties p = measured(20);
        p.setProperty("noticedSeconds", "0.25");
        p.setProperty("restartSeconds", "0.5");
        p.setProperty("recoverySeconds", Double.toString(recoverySeconds));
        p.setProperty("recordsReplayed", Long.toString(replayed));
        p.setProperty("restoredCheckpoint", replayed < 0 ? "8" : "7");
        p.setProperty("checkpointAtFailure", "7");
        return CellResult.of(spec(query, variant, 0.5), round, p, DIGEST, "OK");
    }

    private static Properties measured(double jobSeconds) {
        Properties p = new Properties();
        p.setProperty("jobSeconds", Double.toString(jobSeconds));
        p.setProperty("cpuSeconds", "1.0");
        p.setProperty("sinkPath", "plan: ColumnarScan+ColumnarCalc+ColumnarSink");
        p.setProperty("sourceConnector", "kafka-columnar");
        new CheckpointFigures(10, 0, 30, 90, 120, 2048, 4096).store(p);
        return p;
    }

    private static CellSpec spec(NexmarkQuery query, Variant variant, double failAt) {
        return new CellSpec(query, variant, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "localhost:9092", "in", "out", "run", failAt,
                0, true, ClientSettings.DEFAULTS,
                "/tmp/checkpoints", "/tmp/result", JvmWarmUp.OFF);
    }
}
