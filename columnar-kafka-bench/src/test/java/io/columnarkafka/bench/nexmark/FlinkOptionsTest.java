package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * {@code --flink-conf}: parsed, carried to the cell JVM, set in the configuration of every variant's cells (the
 * recovery cluster's too: both build on {@link CellRunner#stateAndCheckpoints}) over the harness's own settings, and
 * named in the report.
 */
class FlinkOptionsTest {
    private static final String DEBLOAT = "taskmanager.network.memory.buffer-debloat.enabled";

    @Test
    void parsesKeyValueItemsAndRejectsMalformedOnes() {
        assertThat(FlinkOptions.parse(DEBLOAT + "=true, execution.checkpointing.unaligned.enabled = true").options())
                .containsExactlyInAnyOrderEntriesOf(Map.of(DEBLOAT, "true",
                        "execution.checkpointing.unaligned.enabled", "true"));
        assertThatThrownBy(() -> FlinkOptions.parse("novalue")).hasMessageContaining("'novalue'");
        assertThatThrownBy(() -> FlinkOptions.parse("=x")).hasMessageContaining("KEY=VALUE");
        assertThatThrownBy(() -> FlinkOptions.parse("a=1;b=2")).hasMessageContaining("without ';'");
        assertThatThrownBy(() -> FlinkOptions.parse("a=1,a=2")).hasMessageContaining("names a twice");
        assertThat(NexmarkBenchmark.USAGE).contains("[--flink-conf KEY=VALUE,...]", "--flink-conf ");
    }

    @Test
    void everyVariantsCellCarriesTheOptionsIntoItsClusterConfiguration() {
        NexmarkBenchmark bench = NexmarkBenchmark.parse(new String[] {"--flink-conf",
                DEBLOAT + "=true,execution.checkpointing.interval=5 s"});
        NexmarkBenchmark none = NexmarkBenchmark.parse(new String[0]);
        for (Variant variant : List.of(Variant.STOCK, Variant.COLUMNAR)) {
            for (double failAt : new double[] {0, 0.5}) {
                CellSpec spec = bench.cellSpec("b:9092", "in", NexmarkQuery.Q11, variant, false, failAt, "1");
                CellSpec carried = CellSpec.fromArgs(spec.toArgs().toArray(String[]::new));
                assertThat(carried).isEqualTo(spec);
                Map<String, String> conf = CellRunner.stateAndCheckpoints(carried).toMap();
                assertThat(conf).as(variant.id()).containsEntry(DEBLOAT, "true")
                        // over the harness's own 1 s interval
                        .containsEntry("execution.checkpointing.interval", "5 s")
                        .containsEntry("state.backend.type", "hashmap");

                CellSpec plain = none.cellSpec("b:9092", "in", NexmarkQuery.Q11, variant, false, failAt, "1");
                assertThat(CellSpec.fromArgs(plain.toArgs().toArray(String[]::new))).isEqualTo(plain);
                Configuration defaults = CellRunner.stateAndCheckpoints(plain);
                assertThat(defaults.toMap()).doesNotContainKey(DEBLOAT)
                        .containsEntry("execution.checkpointing.interval", "1 s");
            }
        }
    }

    @Test
    void theReportNamesTheOptions() {
        NexmarkBenchmark bench = NexmarkBenchmark.parse(new String[] {"--flink-conf", DEBLOAT + "=true"});
        List<CellResult> cells = List.of(
                measured(bench.cellSpec("b:9092", "in", NexmarkQuery.Q11, Variant.STOCK, false, 0, "1")),
                measured(bench.cellSpec("b:9092", "in", NexmarkQuery.Q11, Variant.COLUMNAR, false, 0, "2")));
        NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 1, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);
        String sentence = "**Flink options** (`--flink-conf`, both variants, every cell): `" + DEBLOAT + "=true`.";
        assertThat(report.markdown()).contains(sentence);
        assertThat(new FixedRateReport(report, 1000, 2).markdown()).contains(sentence);
        assertThat(FlinkOptions.describe(List.of())).isEmpty();
    }

    /** A counted cell of {@code spec} with made-up figures, for the reports' wording. */
    static CellResult measured(CellSpec spec) {
        Properties p = new Properties();
        p.setProperty("jobSeconds", "2.0");
        p.setProperty("cpuSeconds", "1.0");
        p.setProperty("sinkPath", spec.variant().columnar() ? "plan: ColumnarScan+ColumnarCalc" : "stock");
        p.setProperty("sourceConnector", spec.variant().source());
        new CheckpointFigures(10, 0, 30, 90, 120, 2048, 4096).store(p);
        return CellResult.of(spec, 1, p, new OutputDigest(1, "abc"), "OK");
    }
}
