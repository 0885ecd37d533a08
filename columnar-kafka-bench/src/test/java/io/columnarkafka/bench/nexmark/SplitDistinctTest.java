package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.Test;

/**
 * {@code --split-distinct}: parsed, resolved per cell (Nexmark's config.yaml by default: on with mini-batch on, off
 * with it off, recovery cells too), the same in both variants' table config, planned by Flink (q15's split shape),
 * and recorded in the report's header, JSON and CSV per cell.
 */
class SplitDistinctTest {
    private static final List<Variant> BOTH = List.of(Variant.STOCK, Variant.COLUMNAR);

    @Test
    void theOptionParsesAndNexmarkFollowsMiniBatch() {
        assertThat(SplitDistinct.parse("on")).isEqualTo(SplitDistinct.ON);
        assertThat(SplitDistinct.parse("OFF")).isEqualTo(SplitDistinct.OFF);
        assertThat(SplitDistinct.parse("nexmark")).isEqualTo(SplitDistinct.NEXMARK);
        assertThatThrownBy(() -> SplitDistinct.parse("true")).hasMessage("--split-distinct is on, off or nexmark");
        assertThatThrownBy(() -> NexmarkBenchmark.parse(new String[] {"--split-distinct", "yes"}))
                .hasMessageContaining("--split-distinct");
        for (boolean miniBatch : new boolean[] {false, true}) {
            assertThat(SplitDistinct.ON.enabled(miniBatch)).isTrue();
            assertThat(SplitDistinct.OFF.enabled(miniBatch)).isFalse();
            assertThat(SplitDistinct.NEXMARK.enabled(miniBatch)).isEqualTo(miniBatch);
        }
        assertThat(SplitDistinct.OPTION).isEqualTo("table.optimizer.distinct-agg.split.enabled");
        assertThat(NexmarkBenchmark.USAGE).contains("[--split-distinct on|off|nexmark]", "--split-distinct       "
                + SplitDistinct.OPTION);
    }

    @Test
    void everyVariantsCellGetsTheSettingInItsTableConfigRecoveryAndFixedRateToo() {
        NexmarkBenchmark byDefault = NexmarkBenchmark.parse(new String[0]);
        NexmarkBenchmark on = NexmarkBenchmark.parse(new String[] {"--split-distinct", "on"});
        NexmarkBenchmark off = NexmarkBenchmark.parse(new String[] {"--split-distinct", "off", "--mini-batch", "on"});
        NexmarkBenchmark fixedRate = NexmarkBenchmark.parse(new String[] {"--rate", "1000", "--seconds", "2"});
        for (Variant variant : BOTH) {
            assertThat(split(byDefault, variant, true, 0)).as(variant.id()).isTrue();
            assertThat(split(byDefault, variant, false, 0)).as(variant.id()).isFalse();
            assertThat(split(byDefault, variant, false, 0.5)).as("recovery, " + variant.id()).isFalse();
            assertThat(split(on, variant, false, 0)).as(variant.id()).isTrue();
            assertThat(split(on, variant, false, 0.5)).as("recovery, " + variant.id()).isTrue();
            assertThat(split(off, variant, true, 0)).as(variant.id()).isFalse();
            assertThat(split(fixedRate, variant, true, 0)).as("fixed rate, " + variant.id()).isTrue();
            assertThat(split(fixedRate, variant, false, 0)).as("fixed rate, " + variant.id()).isFalse();

            CellSpec spec = byDefault.cellSpec("b:9092", "in", NexmarkQuery.Q15, variant, true, 0, "1");
            assertThat(CellSpec.fromArgs(spec.toArgs().toArray(String[]::new))).isEqualTo(spec);
            assertThat(CellRunner.tableOptions(spec)).containsEntry("table.exec.mini-batch.enabled", "true")
                    .containsEntry("table.exec.mini-batch.allow-latency", "2 s")
                    .containsEntry("table.exec.mini-batch.size", "50000")
                    .containsEntry(SplitDistinct.OPTION, "true");
            assertThat(CellRunner.tableOptions(off.cellSpec("b:9092", "in", NexmarkQuery.Q15, variant, true, 0, "2")))
                    .containsEntry(SplitDistinct.OPTION, "false");
        }
    }

    /**
     * The cell's own planning with the loader's planner (the columnar variant's connectors, its planner stage left
     * out: that needs Flink's planner jar, the cell JVM's classpath; NexmarkColumnarParityITCase plans q15 with it):
     * with the nexmark default and mini-batch on, Flink splits q15's distinct counts in both variants.
     */
    @Test
    void q15PlansFlinksSplitDistinctShapeInBothVariantsWithMiniBatchOn() {
        NexmarkBenchmark byDefault = NexmarkBenchmark.parse(new String[] {"--columnar-planner", "off"});
        NexmarkBenchmark off = NexmarkBenchmark.parse(new String[] {"--columnar-planner", "off", "--split-distinct",
                "off"});
        for (Variant variant : BOTH) {
            assertThat(explain(byDefault.cellSpec("b:9092", "in", NexmarkQuery.Q15, variant, true, 0, "1")))
                    .as(variant.id()).contains("Expand(", "partialFinalType=[PARTIAL]", "partialFinalType=[FINAL]");
            assertThat(explain(off.cellSpec("b:9092", "in", NexmarkQuery.Q15, variant, true, 0, "1")))
                    .as(variant.id()).contains("LocalGroupAggregate(").doesNotContain("Expand(", "partialFinalType");
        }
    }

    @Test
    void theReportSaysWhichCellsSplitAndEachCellRecordsIt() throws Exception {
        NexmarkBenchmark byDefault = NexmarkBenchmark.parse(new String[0]);
        List<CellResult> cells = new ArrayList<>();
        int id = 0;
        for (Variant variant : BOTH) {
            for (double failAt : new double[] {0, 0.5}) {
                for (boolean miniBatch : new boolean[] {false, true}) {
                    if (failAt == 0 || !miniBatch) {
                        cells.add(measured(byDefault.cellSpec("b:9092", "in", NexmarkQuery.Q15, variant, miniBatch,
                                failAt, Integer.toString(id++))));
                    }
                }
            }
        }
        NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 1, 2, 1000, 2, 42,
                ClientSettings.DEFAULTS);
        String sentence = "**Split distinct aggregates** (`table.optimizer.distinct-agg.split.enabled`,"
                + " `--split-distinct`, both variants): on in the mini-batch-on cells; off in the mini-batch-off cells"
                + " and the recovery cells.";
        assertThat(report.markdown()).contains(sentence);
        FixedRateReport fixed = new FixedRateReport(report, 1000, 2);
        assertThat(fixed.markdown()).contains(sentence);

        // The fixed-rate report's JSON keeps the recovery cells apart ("recoveryCells"), after the plain ones.
        List<CellResult> plainFirst = new ArrayList<>(cells.stream().filter(c -> !c.recovery()).toList());
        plainFirst.addAll(cells.stream().filter(CellResult::recovery).toList());
        for (String json : List.of(report.json(), fixed.json())) {
            JsonNode tree = new ObjectMapper().readTree(json);
            List<JsonNode> jsonCells = new ArrayList<>();
            tree.path("cells").forEach(jsonCells::add);
            tree.path("recoveryCells").forEach(jsonCells::add);
            List<CellResult> expected = tree.has("recoveryCells") ? plainFirst : cells;
            assertThat(jsonCells).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertThat(jsonCells.get(i).path("splitDistinct").asBoolean())
                        .isEqualTo(expected.get(i).spec().miniBatch()).isEqualTo(expected.get(i).spec().splitDistinct());
            }
        }
        for (String csv : List.of(report.csv(), fixed.csv())) {
            List<String> lines = csv.lines().toList();
            assertThat(lines.get(0)).endsWith(",split_distinct");
            for (int i = 0; i < cells.size(); i++) {
                assertThat(lines.get(i + 1)).endsWith("," + cells.get(i).spec().splitDistinct());
            }
        }
    }

    private static CellResult measured(CellSpec spec) {
        Properties p = new Properties();
        p.setProperty("jobSeconds", "2.0");
        p.setProperty("cpuSeconds", "1.0");
        p.setProperty("sinkPath", "plan: ColumnarScan+ColumnarCalc+ColumnarExpand+ColumnarLocalGroupAggregate");
        p.setProperty("sourceConnector", spec.variant().source());
        new CheckpointFigures(10, 0, 30, 90, 120, 2048, 4096).store(p);
        return CellResult.of(spec, 1, p, new OutputDigest(1, "abc"), "OK");
    }

    private static boolean split(NexmarkBenchmark bench, Variant variant, boolean miniBatch, double failAt) {
        return bench.cellSpec("b:9092", "in", NexmarkQuery.Q15, variant, miniBatch, failAt, "1").splitDistinct();
    }

    private static String explain(CellSpec spec) {
        StreamTableEnvironment tables = StreamTableEnvironment.create(
                StreamExecutionEnvironment.getExecutionEnvironment());
        return tables.explainSql(CellRunner.plan(spec, tables));
    }
}
