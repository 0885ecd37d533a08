package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.bench.JvmWarmUp;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The recovery phases' section from made-up cells: per query and phase the medians of each variant and the median
 * of the paired (same round) differences, worked by hand; a cell without phases or with a failed check left out.
 */
class RecoveryPhasesReportTest {
    private static final OutputDigest DIGEST = new OutputDigest(920, "abc");

    @Test
    void pairsThePhasesPerRoundAndTakesMedians() {
        List<CellResult> cells = List.of(
                // round 1: columnar open 3,600 vs stock 3,000 (+600), catchUp 1,800 vs 2,000 (−200)
                cell(Variant.STOCK, 1, "detect=800 restartDelay=100 schedule=400 deploy=300 open=3000 firstRead=500"
                        + " catchUp=2000"),
                cell(Variant.COLUMNAR, 1, "detect=900 restartDelay=100 schedule=400 deploy=300 open=3600"
                        + " firstRead=400 catchUp=1800"),
                // round 2: open 3,500 vs 3,300 (+200), catchUp 2,400 vs 2,100 (+300)
                cell(Variant.COLUMNAR, 2, "detect=700 restartDelay=120 schedule=380 deploy=350 open=3500"
                        + " firstRead=600 catchUp=2400"),
                cell(Variant.STOCK, 2, "detect=600 restartDelay=100 schedule=420 deploy=250 open=3300 firstRead=-100"
                        + " catchUp=2100"),
                // round 3: stock only, no pair; and a columnar cell whose output failed: both out of the deltas
                cell(Variant.STOCK, 3, "detect=900 restartDelay=100 schedule=400 deploy=300 open=2700 firstRead=500"
                        + " catchUp=1700"),
                CellResult.failed(spec(Variant.COLUMNAR), 3, "boom"));

        List<RecoveryPhasesReport.PhaseRow> rows = new RecoveryPhasesReport(cells).rows();

        assertThat(rows).hasSize(RecoveryPhases.NAMES.length);
        RecoveryPhasesReport.PhaseRow open = rows.get(4);
        assertThat(open.phase()).isEqualTo("open");
        assertThat(open.baseline()).as("median of 3,000, 3,300, 2,700").isEqualTo(3_000);
        assertThat(open.median()).as("median of 3,600 and 3,500").isEqualTo(3_550);
        assertThat(open.difference()).as("median of +600 and +200").isEqualTo(400);
        assertThat(open.pairs()).isEqualTo(2);
        RecoveryPhasesReport.PhaseRow catchUp = rows.get(6);
        assertThat(catchUp.difference()).as("median of −200 and +300").isEqualTo(50);
        RecoveryPhasesReport.PhaseRow firstRead = rows.get(5);
        assertThat(firstRead.difference()).as("median of −100 and +700").isEqualTo(300);

        StringBuilder md = new StringBuilder();
        new RecoveryPhasesReport(cells).append(md);
        assertThat(md.toString()).contains("| q0 | open | 3,000 | 3,550 | +400 (2) |")
                .contains("| q0 | 2 | stock | connection-loss | 600 | 100 | 420 | 250 | 3,300 | -100 | 2,100 | 6,670 |")
                .contains("- q0 round 1 columnar: `Source: x[1] deploying 1.00 initializing 1.20 running 4.80`;"
                        + " open steps: `arrow=–");
    }

    /** An extra variant's phases against columnar's, paired per round, in a table of their own labelled by its id. */
    @Test
    void pairsAnExtraVariantsPhasesWithColumnarsPerRound() {
        Variant warmUpOff = Variant.parse("columnar:-Dcolumnarkafka.arrow.warm-up=false");
        List<CellResult> cells = List.of(
                cell(Variant.STOCK, 1, "detect=800 restartDelay=100 schedule=400 deploy=300 open=3000 firstRead=500"
                        + " catchUp=2000"),
                cell(Variant.COLUMNAR, 1, "detect=900 restartDelay=100 schedule=400 deploy=300 open=3600"
                        + " firstRead=400 catchUp=1800"),
                // open 4,000 vs columnar's 3,600 (+400) in round 1, 3,900 vs 3,500 (+400) in round 2
                cell(warmUpOff, 1, "detect=900 restartDelay=100 schedule=400 deploy=300 open=4000 firstRead=400"
                        + " catchUp=1800"),
                cell(Variant.COLUMNAR, 2, "detect=700 restartDelay=120 schedule=380 deploy=350 open=3500"
                        + " firstRead=600 catchUp=2400"),
                cell(warmUpOff, 2, "detect=700 restartDelay=120 schedule=380 deploy=350 open=3900 firstRead=600"
                        + " catchUp=2400"));

        RecoveryPhasesReport report = new RecoveryPhasesReport(cells);

        assertThat(report.rows()).as("columnar against stock, as before").hasSize(RecoveryPhases.NAMES.length)
                .allSatisfy(r -> assertThat(r.variant()).isEqualTo(Variant.COLUMNAR));
        List<RecoveryPhasesReport.PhaseRow> extra = report.extraRows();
        assertThat(extra).hasSize(RecoveryPhases.NAMES.length)
                .allSatisfy(r -> assertThat(r.variant()).isEqualTo(warmUpOff));
        RecoveryPhasesReport.PhaseRow open = extra.get(4);
        assertThat(open.baseline()).as("columnar: median of 3,600 and 3,500").isEqualTo(3_550);
        assertThat(open.median()).isEqualTo(3_950);
        assertThat(open.difference()).isEqualTo(400);
        assertThat(open.pairs()).isEqualTo(2);
        StringBuilder md = new StringBuilder();
        report.append(md);
        assertThat(md.toString()).contains("| q0 | `columnar:-Dcolumnarkafka.arrow.warm-up=false` | open | 3,550 | 3,950"
                + " | +400 (2) |");
    }

    private static CellResult cell(Variant variant, int round, String phases) {
        Properties p = new Properties();
        p.setProperty("jobSeconds", "20");
        p.setProperty("cpuSeconds", "1.0");
        p.setProperty("recoverySeconds", "7.0");
        p.setProperty("recoveryPhasesMs", "detection=connection-loss " + phases);
        p.setProperty("restartByTask", "Source: x[1] deploying 1.00 initializing 1.20 running 4.80");
        p.setProperty("openStepsMs", "arrow=– reader=2000 commitRestored=– abortLingering=3000 splits=3200 running=3600");
        new CheckpointFigures(10, 0, 30, 90, 120, 2048, 4096).store(p);
        return CellResult.of(spec(variant), round, p, DIGEST, "OK");
    }

    private static CellSpec spec(Variant variant) {
        return new CellSpec(NexmarkQuery.Q0, variant, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "localhost:9092", "in", "out",
                "run", 0.5, 0, true, ClientSettings.DEFAULTS, "/tmp/checkpoints", "/tmp/result", JvmWarmUp.OFF);
    }
}
