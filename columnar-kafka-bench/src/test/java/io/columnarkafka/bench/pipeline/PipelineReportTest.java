package io.columnarkafka.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.bench.SteadyFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The report's three paired comparisons from made-up runs (no cluster, no broker): each ratio taken the right
 * way round per counted round (the warm-up left out), the codec CPU over the floor, a run whose read_committed
 * check failed leaving its round out of the comparisons it is in and making a FAIL row (never a missing one),
 * the floor's per-thread CPU table, and JSON that parses.
 */
class PipelineReportTest {
    private static final int BIDS = 1_000_000;
    private static final double EPS = 1e-9;

    @Test
    void pairsEachComparisonPerCountedRoundTheRightWayRound() {
        PipelineReport report = report(2, runs(2));

        // records/s over ÷ under is under's wall time over over's; CPU under ÷ over is under's CPU over over's.
        assertThat(report.throughputRatios(PipelineReport.COLUMNAR_VS_STOCK)).containsExactly(10.0 / 8, 12.0 / 6);
        assertThat(report.cpuRatios(PipelineReport.COLUMNAR_VS_STOCK)).containsExactly(20.0 / 14, 24.0 / 12);
        assertThat(report.throughputRatios(PipelineReport.FLOOR_VS_STOCK)).containsExactly(10.0 / 5, 12.0 / 4);
        assertThat(report.cpuRatios(PipelineReport.FLOOR_VS_STOCK)).containsExactly(20.0 / 8, 24.0 / 8);
        assertThat(report.throughputRatios(PipelineReport.COLUMNAR_VS_FLOOR)).containsExactly(5.0 / 8, 4.0 / 6);
        assertThat(report.cpuRatios(PipelineReport.COLUMNAR_VS_FLOOR)).containsExactly(8.0 / 14, 8.0 / 12);
        // 1,000,000 bids: 1 s of CPU is 1 µs per record.
        assertThat(report.codecMicrosPerRecord(PipelineVariant.STOCK)).containsExactly(12.0, 16.0);
        assertThat(report.codecMicrosPerRecord(PipelineVariant.COLUMNAR))
                .satisfies(us -> assertThat(us[0]).isCloseTo(4.0, within(EPS)))
                .satisfies(us -> assertThat(us[1]).isCloseTo(6.0, within(EPS)));
        assertThat(report.codecCpuRatios()).as("12 / 6 and 16 / 4").containsExactly(2.0, 4.0);
        assertThat(report.allPassed()).isTrue();

        String md = report.markdown();
        assertThat(md)
                .contains("| columnar vs stock: the issue's measure | records/s, columnar ÷ stock | 1.63 (1.25 – 2.00, 2 rounds)"
                        + " | ≥ 2.0 **not met** |")
                .contains("| floor vs stock: the ceiling: the most any codec can gain over stock's in this job"
                        + " | records/s, floor ÷ stock | 2.50 (2.00 – 3.00, 2 rounds) | ≥ 2.0: reachable by a codec |")
                .contains("| | CPU per record, floor ÷ columnar | 0.62 (0.57 – 0.67, 2 rounds) | |")
                .contains("| codec CPU: a run's µs per record minus the floor's | stock | 14.00 (12.00 – 16.00, 2 rounds) | |")
                .contains("| | columnar | 5.00 (4.00 – 6.00, 2 rounds) | |")
                .contains("| | codec CPU, stock ÷ columnar (rounds where columnar costs more than the floor)"
                        + " | 3.00 (2.00 – 4.00, 2 rounds) | |")
                .contains("| verification | read_committed, every run | all runs OK | |")
                .contains("| 0 (warm-up) | floor | 1.00 |")
                .doesNotContain("by thread group");
    }

    @Test
    void aFailedFloorRunIsAFailRowAndLeavesItsRoundOutOfTheFloorComparisonsOnly() {
        List<PipelineResult> runs = runs(3);
        PipelineResult floor3 = runs.stream()
                .filter(r -> r.variant == PipelineVariant.FLOOR && r.round == 3).findFirst().orElseThrow();
        floor3.verify(false, "999,998 of 1,000,000 values, 2 missing");
        runs.add(PipelineResult.failed(PipelineVariant.STOCK, 4, "run exited 1, see out-stock-4.log"));
        runs.add(result(PipelineVariant.COLUMNAR, 4, 3, 6, null));
        runs.add(result(PipelineVariant.FLOOR, 4, 2, 4, null));
        PipelineReport report = report(4, runs);

        assertThat(report.allPassed()).isFalse();
        assertThat(report.throughputRatios(PipelineReport.COLUMNAR_VS_STOCK)).hasSize(3);
        assertThat(report.throughputRatios(PipelineReport.FLOOR_VS_STOCK)).as("rounds 1 and 2").hasSize(2);
        assertThat(report.throughputRatios(PipelineReport.COLUMNAR_VS_FLOOR)).as("rounds 1, 2 and 4").hasSize(3);
        assertThat(report.codecMicrosPerRecord(PipelineVariant.STOCK)).hasSize(2);
        assertThat(report.codecMicrosPerRecord(PipelineVariant.COLUMNAR)).hasSize(3);
        assertThat(report.codecCpuRatios()).as("rounds 1 and 2 only").hasSize(2);
        assertThat(report.markdown())
                .contains("| verification | read_committed, every run | **FAIL** (see below) | |")
                .contains("| 3 | floor | 5.00 | 200,000 | – (–) | – | 8.00 | FAIL: read_committed: 999,998 of 1,000,000"
                        + " values, 2 missing |")
                .contains("| 4 | stock | NaN | NaN | – (–) | – | NaN | FAIL: run exited 1, see out-stock-4.log |");
    }

    /**
     * The steady-state rate next to wall time: per comparison the paired ratio of the runs' steady rates (each the
     * slower of read and written), per run the rate, the side that limited it and the fixed seconds; a run without
     * steady figures (a failed one) leaves its round out of the steady ratios only.
     */
    @Test
    void steadyStateRatiosStandNextToWallTime() throws Exception {
        List<PipelineResult> runs = new ArrayList<>();
        // Round 1: stock 10 s at a steady 125,000/s (read), columnar 8 s at 250,000/s (written, read 300,000).
        runs.add(steady(result(PipelineVariant.STOCK, 1, 10, 20, null), 125_000, 150_000));
        runs.add(steady(result(PipelineVariant.COLUMNAR, 1, 8, 14, null), 300_000, 250_000));
        runs.add(steady(result(PipelineVariant.FLOOR, 1, 5, 8, null), 400_000, 400_000));
        // Round 2: the columnar run has no steady figures; wall time still pairs.
        runs.add(steady(result(PipelineVariant.STOCK, 2, 12, 24, null), 100_000, 100_000));
        runs.add(result(PipelineVariant.COLUMNAR, 2, 6, 12, null));
        runs.add(steady(result(PipelineVariant.FLOOR, 2, 4, 8, null), 500_000, 400_000));
        PipelineReport report = report(2, runs);

        assertThat(report.throughputRatios(PipelineReport.COLUMNAR_VS_STOCK)).hasSize(2);
        assertThat(report.steadyThroughputRatios(PipelineReport.COLUMNAR_VS_STOCK)).containsExactly(2.0);
        assertThat(report.steadyThroughputRatios(PipelineReport.FLOOR_VS_STOCK))
                .satisfies(r -> assertThat(r[0]).as("400,000 / 125,000").isCloseTo(3.2, within(EPS)))
                .satisfies(r -> assertThat(r[1]).as("the slower side, 400,000 / 100,000").isEqualTo(4.0))
                .hasSize(2);
        assertThat(report.markdown())
                .contains("| | steady-state records/s, columnar ÷ stock | 2.00 (2.00 – 2.00, 1 rounds) | |")
                .contains("| 1 | columnar | 8.00 | 125,000 | 250,000 (written) | 4.00 | 14.00 | OK |")
                .contains("| 1 | stock | 10.00 | 100,000 | 125,000 (read) | 2.00 | 20.00 | OK |");
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("comparisons").get(1).path("steadyThroughputRatios").get(1).asDouble()).isEqualTo(4.0);
        assertThat(json.path("runs").get(1).path("steadyRecordsPerSecond").asDouble()).isEqualTo(250_000);
        assertThat(json.path("runs").get(4).path("steadyRecordsPerSecond").isNull()).isTrue();
    }

    private static PipelineResult steady(PipelineResult run, double read, double written) {
        Properties measured = new Properties();
        measured.setProperty("wallSeconds", Double.toString(run.wallSeconds));
        measured.setProperty("cpuSeconds", Double.toString(run.cpuSeconds));
        new SteadyFigures(read, written, 1, 2, 1, 2).store(measured);
        return PipelineResult.of(run.variant, run.round, measured);
    }

    @Test
    void noCodecRatioInARoundWhereColumnarCostsNoMoreThanTheFloor() {
        List<PipelineResult> runs = runs(1);
        runs.add(result(PipelineVariant.STOCK, 2, 10, 20, null));
        runs.add(result(PipelineVariant.COLUMNAR, 2, 5, 7.5, null));
        runs.add(result(PipelineVariant.FLOOR, 2, 5, 8, null));
        PipelineReport report = report(2, runs);

        assertThat(report.codecMicrosPerRecord(PipelineVariant.COLUMNAR)).containsExactly(-0.5, 6.0);
        assertThat(report.codecCpuRatios()).as("round 1 only: 12 / 6").containsExactly(2.0);
    }

    @Test
    void aFloorBelowTheTargetSaysNoCodecReachesIt() {
        List<PipelineResult> runs = new ArrayList<>();
        for (int round = 0; round <= 1; round++) {
            runs.add(result(PipelineVariant.STOCK, round, 10, 20, null));
            runs.add(result(PipelineVariant.COLUMNAR, round, 8, 15, null));
            runs.add(result(PipelineVariant.FLOOR, round, 7, 13, null));
        }
        assertThat(report(1, runs).markdown())
                .contains("| records/s, floor ÷ stock | 1.43 (1.43 – 1.43, 1 rounds) | **< 2.0: no codec reaches 2.0 here** |");
    }

    @Test
    void threadCpuBecomesPerRecordColumnsAndTheJsonParses() throws Exception {
        List<PipelineResult> runs = runs(1);
        runs.set(runs.size() - 1, result(PipelineVariant.FLOOR, 1, 5, 8,
                "Flink task threads=3.00;Kafka consumer (source fetcher threads)=2.00;Kafka producer I/O threads=1.50;"
                        + "JIT compiler=1.00;GC=0.25;other: Checkpoint Timer=0.25"));
        PipelineReport report = report(1, runs);

        assertThat(report.markdown()).contains("## CPU µs per record by thread group (BENCH_THREAD_CPU=1)")
                .contains("| 1 | floor | 3.00 | 2.00 | 1.50 | 1.00 | 0.50 | 8.00 |");
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("comparisons")).hasSize(3);
        assertThat(json.path("comparisons").get(1).path("over").asText()).isEqualTo("FLOOR");
        assertThat(json.path("comparisons").get(1).path("throughputRatios").get(0).asDouble()).isEqualTo(2.0);
        assertThat(json.path("codecMicrosPerRecord").path("STOCK").get(0).asDouble()).isEqualTo(12.0);
        assertThat(json.path("codecCpuRatios").get(0).asDouble()).isEqualTo(2.0);
        assertThat(json.path("runs")).hasSize(runs.size());
        assertThat(json.path("runs").get(runs.size() - 1).path("cpuByThread").asText()).startsWith("Flink task threads=3.00;");
        assertThat(json.path("runs").get(0).path("cpuByThread").isNull()).isTrue();
    }

    /**
     * A warm-up round whose figures would upset every ratio, then counted rounds: odd rounds stock 10 s and
     * 20 s CPU, columnar 8 s and 14 s, floor 5 s and 8 s; even rounds stock 12/24, columnar 6/12, floor 4/8.
     */
    private static List<PipelineResult> runs(int rounds) {
        List<PipelineResult> runs = new ArrayList<>();
        runs.add(result(PipelineVariant.COLUMNAR, 0, 100, 100, null));
        runs.add(result(PipelineVariant.STOCK, 0, 1, 1, null));
        runs.add(result(PipelineVariant.FLOOR, 0, 1, 50, null));
        for (int round = 1; round <= rounds; round++) {
            boolean odd = round % 2 == 1;
            runs.add(result(PipelineVariant.STOCK, round, odd ? 10 : 12, odd ? 20 : 24, null));
            runs.add(result(PipelineVariant.COLUMNAR, round, odd ? 8 : 6, odd ? 14 : 12, null));
            runs.add(result(PipelineVariant.FLOOR, round, odd ? 5 : 4, 8, null));
        }
        return runs;
    }

    private static PipelineResult result(PipelineVariant variant, int round, double wallSeconds, double cpuSeconds,
                                         String cpuByThread) {
        Properties measured = new Properties();
        measured.setProperty("wallSeconds", Double.toString(wallSeconds));
        measured.setProperty("cpuSeconds", Double.toString(cpuSeconds));
        if (cpuByThread != null) {
            measured.setProperty("cpuByThread", cpuByThread);
        }
        return PipelineResult.of(variant, round, measured);
    }

    @Test
    void aJvmWarmUpIsSaidInTheReportAndTheJson() throws Exception {
        PipelineReport warm = new PipelineReport(BIDS, 1, 2, 2, 1000, JvmWarmUp.ONCE, "", 0.5, 0.5, runs(1));
        assertThat(warm.markdown()).contains("JVM warm-up on: each run's JVM first ran its job");
        assertThat(new ObjectMapper().readTree(warm.json()).path("jvmWarmUp").asBoolean()).isTrue();
        assertThat(new ObjectMapper().readTree(warm.json()).path("jvmWarmUpMode").asText()).isEqualTo("on");
        assertThat(report(1, runs(1)).markdown()).doesNotContain("JVM warm-up");
        assertThat(new ObjectMapper().readTree(report(1, runs(1)).json()).path("jvmWarmUp").asBoolean(true)).isFalse();
    }

    /** A settled warm-up is said, and each run gives its warm-up runs and the JIT left in its measured job. */
    @Test
    void aSettledWarmUpGivesEachRunsWarmUpRunsAndJit() throws Exception {
        Properties measured = new Properties();
        measured.setProperty("wallSeconds", "4.0");
        measured.setProperty("cpuSeconds", "6.0");
        measured.setProperty("jvmWarmUpJobs", "5");
        measured.setProperty("jitSeconds", "0.75");
        List<PipelineResult> runs = new ArrayList<>(runs(1));
        runs.removeIf(r -> r.variant == PipelineVariant.COLUMNAR && r.round == 1);
        runs.add(PipelineResult.of(PipelineVariant.COLUMNAR, 1, measured));
        PipelineReport settled = new PipelineReport(BIDS, 1, 2, 2, 1000, JvmWarmUp.SETTLED, "", 0.5, 0.5, runs);
        assertThat(settled.markdown())
                .contains("JVM warm-up settled: each run's JVM ran its job over the same input into a topic of its"
                        + " own, unmeasured, again until one run spent at most 15 % of its wall time compiling (at most"
                        + " 8 runs)")
                .contains("| warm-up runs | JIT s in the job |")
                .contains("| 1 | columnar | 4.00 | 250,000 | – (–) | – | 6.00 | 5 | 0.75 | OK |");
        JsonNode json = new ObjectMapper().readTree(settled.json());
        assertThat(json.path("jvmWarmUpMode").asText()).isEqualTo("settled");
        JsonNode last = json.path("runs").get(json.path("runs").size() - 1);
        assertThat(last.path("warmUpJobs").asInt()).isEqualTo(5);
        assertThat(last.path("jitSeconds").asDouble()).isEqualTo(0.75);
    }

    private static PipelineReport report(int rounds, List<PipelineResult> runs) {
        return new PipelineReport(BIDS, rounds, 2, 2, 1000, JvmWarmUp.OFF, "", 0.5, 0.5, runs);
    }
}
