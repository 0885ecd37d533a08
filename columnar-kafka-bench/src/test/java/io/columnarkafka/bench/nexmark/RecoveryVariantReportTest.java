package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.JvmWarmUp;
import java.util.List;
import java.util.Properties;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The recovery report's extra variants from made-up cells (no cluster): a variant's caught-up ratios to stock and to
 * columnar paired per round, the A/A control's beside them with the verdict, its rows labelled by its id, and an
 * extra variant's failure its own row's (stock's and columnar's row stays OK), worked by hand.
 */
class RecoveryVariantReportTest {
    private static final OutputDigest DIGEST = new OutputDigest(920, "abc");
    private static final Variant WARM_UP_OFF = Variant.parse("columnar:-Dcolumnarkafka.arrow.warm-up=false");
    private static final Variant VIEWS = Variant.parse("columnar:edge-rows=VIEWS");

    @Test
    void pairsAnExtraVariantsCaughtUpTimeWithStocksColumnarsAndTheControlsPerRound() throws Exception {
        List<CellResult> cells = List.of(
                // round 1: warm-up off 10 / columnar 8 = 1.25, control 9 / 8 = 1.125, against stock 10 / 10 = 1.0
                recovery(Variant.STOCK, 1, 10), recovery(Variant.COLUMNAR, 1, 8), recovery(Variant.CONTROL, 1, 9),
                recovery(WARM_UP_OFF, 1, 10),
                // round 2: 12.5 / 10 = 1.25, control 9 / 10 = 0.9, against stock 12.5 / 10 = 1.25
                recovery(WARM_UP_OFF, 2, 12.5), recovery(Variant.CONTROL, 2, 9), recovery(Variant.COLUMNAR, 2, 10),
                recovery(Variant.STOCK, 2, 10),
                CellResult.failed(spec(VIEWS), 1, "q5-c:edge-rows=VIEWS-fail failed (exit 1)"));

        List<RecoveryVariantReport.Row> rows = new RecoveryVariantReport(cells).rows();

        assertThat(rows).extracting(r -> r.variant().id()).as("the A/A control first, then by id")
                .containsExactly("columnar#2", "columnar:-Dcolumnarkafka.arrow.warm-up=false", "columnar:edge-rows=VIEWS");
        RecoveryVariantReport.Row off = rows.get(1);
        assertThat(off.ok()).isTrue();
        assertThat(off.caughtUp()).isEqualTo(11.25);
        assertThat(off.againstStock().median()).as("median of 1.0 and 1.25").isEqualTo(1.125);
        assertThat(off.againstControl().ratios()).containsExactly(1.25, 1.25);
        assertThat(off.againstControl().control()).containsExactly(1.125, 0.9);
        assertThat(off.againstControl().resolution()).isEqualTo(AaControl.Resolution.APART_TOO_FEW_ROUNDS);
        assertThat(rows.get(0).verdict()).isEqualTo("the A/A control");
        assertThat(rows.get(2).ok()).isFalse();
        assertThat(rows.get(2).output()).isEqualTo("FAIL: q5-c:edge-rows=VIEWS-fail failed (exit 1)");

        NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 2, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);
        assertThat(report.recoveryRows()).singleElement().satisfies(row -> {
            assertThat(row.ok()).as("an extra variant's failure is its own row's").isTrue();
            assertThat(row.ratio()).as("columnar / stock: median of 0.8 and 1.0").isCloseTo(0.9, within(1e-12));
        });
        assertThat(report.markdown()).contains("### Extra variants in recovery")
                .contains("| q5 | `columnar:-Dcolumnarkafka.arrow.warm-up=false` | 0.50 | 11.25 | **1.13** (1.00–1.25)"
                        + " | **1.25** (1.25–1.25) | **1.01** (0.90–1.13) | not resolved: every round above the A/A"
                        + " spread (0.90–1.13), but a no-change variant is apart in up to 1 of 2 runs of 2 rounds"
                        + " (resolving takes 6) | 2 of 2 above 1, 0 below | exactly once, equal to stock |")
                .contains("| q5 | 1 | columnar:-Dcolumnarkafka.arrow.warm-up=false | 0.25 | 0.50 | 10.00 |");
        JsonNode json = new ObjectMapper().readTree(report.json());
        JsonNode summary = json.path("recoveryVariantSummary");
        assertThat(summary).hasSize(3);
        assertThat(summary.get(0).path("againstAa").asText()).isEqualTo("CONTROL");
        assertThat(summary.get(1).path("variant").asText()).isEqualTo(WARM_UP_OFF.id());
        assertThat(summary.get(1).path("ratioToColumnar").asDouble()).isEqualTo(1.25);
        assertThat(summary.get(1).path("againstAa").asText()).isEqualTo("APART_TOO_FEW_ROUNDS");
        assertThat(summary.get(2).path("ok").asBoolean()).isFalse();
    }

    @Test
    void aRunWithoutExtraVariantsInItsRecoveryCellsHasNoSuchSection() {
        List<CellResult> cells = List.of(recovery(Variant.STOCK, 1, 10), recovery(Variant.COLUMNAR, 1, 8));

        assertThat(new RecoveryVariantReport(cells).rows()).isEmpty();
        StringBuilder md = new StringBuilder();
        new RecoveryVariantReport(cells).appendMarkdown(md);
        assertThat(md).isEmpty();
    }

    private static CellResult recovery(Variant variant, int round, double recoverySeconds) {
        Properties p = new Properties();
        p.setProperty("jobSeconds", "20");
        p.setProperty("cpuSeconds", "1.0");
        p.setProperty("sinkPath", "plan: ColumnarScan+ColumnarCalc+ColumnarSink");
        p.setProperty("sourceConnector", "kafka-columnar");
        p.setProperty("noticedSeconds", "0.25");
        p.setProperty("restartSeconds", "0.5");
        p.setProperty("recoverySeconds", Double.toString(recoverySeconds));
        p.setProperty("recordsReplayed", "1000");
        p.setProperty("restoredCheckpoint", "7");
        p.setProperty("checkpointAtFailure", "7");
        new CheckpointFigures(10, 0, 30, 90, 120, 2048, 4096).store(p);
        return CellResult.of(spec(variant), round, p, DIGEST, "OK");
    }

    private static CellSpec spec(Variant variant) {
        return new CellSpec(NexmarkQuery.Q5, variant, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "localhost:9092", "in", "out",
                "run", 0.5, 0, true, ClientSettings.DEFAULTS, "/tmp/checkpoints", "/tmp/result", JvmWarmUp.OFF);
    }
}
