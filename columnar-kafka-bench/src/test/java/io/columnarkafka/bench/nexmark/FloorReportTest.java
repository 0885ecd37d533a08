package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
 * The floor part of the report from made-up cells of 1,000 events, every expected figure worked by hand: the three
 * paired ratios per round (floor ÷ stock, columnar ÷ stock, columnar ÷ floor) by job time and steady state, the
 * warm-up round and a round without a steady rate left out, the medians of CPU and of each job phase with columnar's
 * minus the floor's; and the round order that runs the floor beside stock and columnar.
 */
class FloorReportTest {
    private static final OutputDigest DIGEST = new OutputDigest(920, "abc");

    @Test
    void ratiosArePairedPerRoundOverTheCountedRounds() throws Exception {
        List<CellResult> cells = new ArrayList<>();
        // Warm-up: a floor this fast would move every ratio; it is not counted.
        cells.add(cell(Variant.STOCK, 0, 10, 1, steady(1, 1), phases(100, 0)));
        cells.add(cell(Variant.FLOOR, 0, 1, 1, steady(1, 1), phases(100, 0)));
        // Round 1: 100 / 200 / 250 events/s; steady 100k / 250k (written the slower) / 400k (read the slower).
        cells.add(cell(Variant.STOCK, 1, 10, 2, steady(100_000, 100_000), phases(9000, 100)));
        cells.add(cell(Variant.COLUMNAR, 1, 5, 1, steady(300_000, 250_000), phases(4000, 100)));
        cells.add(cell(Variant.FLOOR, 1, 4, 1, steady(400_000, 500_000), phases(3000, 100)));
        // Round 2: 125 / 166.7 / 250 events/s; columnar's steady rate unknown: no steady pair with it this round.
        cells.add(cell(Variant.FLOOR, 2, 4, 0.5, steady(300_000, 300_000), phases(3000, 100)));
        cells.add(cell(Variant.STOCK, 2, 8, 3, steady(200_000, 200_000), phases(7000, 100)));
        cells.add(cell(Variant.COLUMNAR, 2, 6, 1.5, SteadyFigures.NONE, phases(5000, 300)));

        FloorReport.Row row = new FloorReport(cells).rows().get(0);
        assertThat(row.floorVsStock().rounds()).isEqualTo(2);
        // 250/100 = 2.5 and 250/125 = 2.0.
        assertThat(row.floorVsStock().median()).isCloseTo(2.25, within(1e-9));
        assertThat(row.floorVsStock().min()).isCloseTo(2.0, within(1e-9));
        assertThat(row.floorVsStock().max()).isCloseTo(2.5, within(1e-9));
        // 200/100 = 2.0 and 166.67/125 = 1.333.
        assertThat(row.columnarVsStock().median()).isCloseTo((2.0 + 4.0 / 3) / 2, within(1e-9));
        // 200/250 = 0.8 and 166.67/250 = 0.667.
        assertThat(row.columnarVsFloor().median()).isCloseTo((0.8 + 2.0 / 3) / 2, within(1e-9));
        assertThat(row.columnarVsFloor().min()).isCloseTo(2.0 / 3, within(1e-9));
        // Steady: 400k/100k = 4.0 and 300k/200k = 1.5; columnar only in round 1: 250k/100k, 250k/400k.
        assertThat(row.steadyFloorVsStock().median()).isCloseTo(2.75, within(1e-9));
        assertThat(row.steadyColumnarVsStock().rounds()).isEqualTo(1);
        assertThat(row.steadyColumnarVsStock().median()).isCloseTo(2.5, within(1e-9));
        assertThat(row.steadyColumnarVsFloor().median()).isCloseTo(0.625, within(1e-9));
        // Medians of events/s (100, 125), (200, 166.7), (250, 250) and of CPU s per million events.
        assertThat(row.eventsPerSecond()).containsExactly(new double[] {112.5, (200 + 1000.0 / 6) / 2, 250}, within(1e-9));
        assertThat(row.cpuPerMillion()).containsExactly(new double[] {2500, 1250, 750}, within(1e-9));
        // Read phase medians 8000 / 4500 / 3000; drain 100 / 200 / 100.
        assertThat(row.phases()[0][3]).isEqualTo(8000);
        assertThat(row.phases()[1][3]).isEqualTo(4500);
        assertThat(row.phases()[2][3]).isEqualTo(3000);
        assertThat(row.phases()[1][4]).isEqualTo(200);

        StringBuilder md = new StringBuilder();
        new FloorReport(cells).appendMarkdown(md);
        assertThat(md.toString())
                .contains("| q0 | off | **2.25** (2.00–2.50) | **1.67** (1.33–2.00) | **0.73** (0.67–0.80) |"
                        + " **2.75** (1.50–4.00) | **2.50** (2.50–2.50) | **0.63** (0.63–0.63) | 113 / 183 / 250 |"
                        + " 2500.0 / 1250.0 / 750.0 |")
                // Columnar − floor: read 4500 − 3000, drain 200 − 100; every other phase 0 apart.
                .contains("| q0 | off | **columnar − floor** | 0 | 0 | 0 | 1500 | 100 | 0 | 0 | 0 | 1600 |");
        JsonNode json = new ObjectMapper().readTree(new NexmarkReport(cells, "t", "", "0.1 0 0", "0.2 0 0", 1000, 1, 2,
                2, 1000, 2, 42, ClientSettings.DEFAULTS).json());
        assertThat(json.get("floor").get(0).get("columnarVsFloor").get("median").asDouble())
                .isCloseTo((0.8 + 2.0 / 3) / 2, within(1e-4));
        assertThat(json.get("floor").get(0).get("phasesMs").get("floor").get("read").asDouble()).isEqualTo(3000);
    }

    @Test
    void aFloorCellThatFailedItsCheckPairsWithNothing() {
        List<CellResult> cells = new ArrayList<>();
        cells.add(cell(Variant.STOCK, 1, 10, 1, steady(1, 1), phases(100, 0)));
        cells.add(cell(Variant.COLUMNAR, 1, 5, 1, steady(1, 1), phases(100, 0)));
        Properties p = measured(4, 1, steady(1, 1), phases(100, 0));
        cells.add(CellResult.of(spec(Variant.FLOOR), 1, p, DIGEST, "FAIL: output differs from stock"));
        FloorReport.Row row = new FloorReport(cells).rows().get(0);
        assertThat(row.floorVsStock().rounds()).isZero();
        assertThat(row.columnarVsFloor().rounds()).isZero();
        assertThat(row.columnarVsStock().median()).isEqualTo(2.0);
        StringBuilder md = new StringBuilder();
        new FloorReport(cells).appendMarkdown(md);
        assertThat(md.toString()).contains("| q0 | off | – | **2.00** (2.00–2.00) | – |");
    }

    @Test
    void noFloorCellsNoFloorSection() {
        List<CellResult> cells = List.of(cell(Variant.STOCK, 1, 10, 1, steady(1, 1), phases(100, 0)));
        StringBuilder md = new StringBuilder();
        new FloorReport(cells).appendMarkdown(md);
        assertThat(md.toString()).isEmpty();
    }

    @Test
    void phasesReadBackAsWrittenAndUnavailableOnesAreNone() {
        JobPhases phases = new JobPhases(1, 2, 3, 4, -5, 6, 7, 8);
        assertThat(JobPhases.parse(phases.toString())).isEqualTo(phases);
        assertThat(JobPhases.parse("unavailable: no completed checkpoint")).isNull();
        assertThat(JobPhases.parse(null)).isNull();
    }

    @Test
    void theFloorRotatesWithStockAndColumnarForStatelessQueriesOnly() {
        NexmarkBenchmark floor = NexmarkBenchmark.parse(new String[] {"--floor", "on"});
        assertThat(floor.variants(NexmarkQuery.Q0, 0)).containsExactly(Variant.STOCK, Variant.COLUMNAR, Variant.FLOOR);
        assertThat(floor.variants(NexmarkQuery.Q0, 1)).containsExactly(Variant.COLUMNAR, Variant.FLOOR, Variant.STOCK);
        assertThat(floor.variants(NexmarkQuery.Q0, 2)).containsExactly(Variant.FLOOR, Variant.STOCK, Variant.COLUMNAR);
        assertThat(floor.variants(NexmarkQuery.Q5, 1)).containsExactly(Variant.COLUMNAR, Variant.STOCK);
        NexmarkBenchmark plain = NexmarkBenchmark.parse(new String[0]);
        assertThat(plain.variants(NexmarkQuery.Q0, 1)).containsExactly(Variant.COLUMNAR, Variant.STOCK);
        assertThatThrownBy(() -> NexmarkBenchmark.parse(new String[] {"--floor", "on", "--rate", "10", "--seconds", "1"}))
                .hasMessageContaining("--floor");
    }

    private static CellResult cell(Variant variant, int round, double jobSeconds, double cpuSeconds,
                                   SteadyFigures steady, String phases) {
        return CellResult.of(spec(variant), round, measured(jobSeconds, cpuSeconds, steady, phases), DIGEST, "OK");
    }

    private static Properties measured(double jobSeconds, double cpuSeconds, SteadyFigures steady, String phases) {
        Properties p = new Properties();
        p.setProperty("jobSeconds", Double.toString(jobSeconds));
        p.setProperty("cpuSeconds", Double.toString(cpuSeconds));
        p.setProperty("sinkPath", "x");
        p.setProperty("sourceConnector", "kafka");
        p.setProperty("phasesMs", phases);
        new CheckpointFigures(10, 0, 30, 90, 120, 2048, 4096).store(p);
        if (steady != SteadyFigures.NONE) {
            steady.store(p);
        }
        return p;
    }

    private static SteadyFigures steady(double read, double written) {
        return new SteadyFigures(read, written, 1, 2, 1, 2);
    }

    /** Phases whose read and drain are given, the rest 0. */
    private static String phases(long read, long drain) {
        return new JobPhases(0, 0, 0, read, drain, 0, 0, 0).toString();
    }

    private static CellSpec spec(Variant variant) {
        return new CellSpec(NexmarkQuery.Q0, variant, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "localhost:9092", "in", "out",
                "run", 0, 0, true, ClientSettings.DEFAULTS, "/tmp/checkpoints", "/tmp/result", JvmWarmUp.OFF);
    }
}
