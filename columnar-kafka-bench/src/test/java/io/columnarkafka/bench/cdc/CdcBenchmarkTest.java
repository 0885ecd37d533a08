package io.columnarkafka.bench.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.bench.JvmWarmUp;
import org.junit.jupiter.api.Test;

/** The command line: what each option sets in every cell. */
class CdcBenchmarkTest {
    @Test
    void theJvmWarmUpIsOffByDefaultAsBenchNexmarksAndSetInEveryCell() {
        CdcCell plain = CdcBenchmark.parse(new String[0])
                .cell("b:9092", "in", CdcQuery.CDC_CALC, CdcVariant.STOCK, 1, "7");
        assertThat(plain.jvmWarmUp()).isEqualTo(JvmWarmUp.OFF);

        CdcCell settled = CdcBenchmark.parse(new String[] {"--jvm-warm-up", "settled"})
                .cell("b:9092", "in", CdcQuery.CDC_CALC, CdcVariant.COLUMNAR, 0, "7");
        assertThat(settled.jvmWarmUp()).isEqualTo(JvmWarmUp.SETTLED);
        assertThat(CdcBenchmark.parse(new String[] {"--jvm-warm-up", "on"})
                .cell("b:9092", "in", CdcQuery.CDC_CALC, CdcVariant.COLUMNAR, 0, "7").jvmWarmUp())
                .isEqualTo(JvmWarmUp.ONCE);
        assertThatThrownBy(() -> CdcBenchmark.parse(new String[] {"--jvm-warm-up", "twice"}))
                .hasMessageContaining("off, on (once) or settled");
    }

    @Test
    void miniBatchIsOffByDefaultAndOnInEveryCellWhenAsked() {
        assertThat(CdcBenchmark.parse(new String[0]).cell("b:9092", "in", CdcQuery.CDC_AGG, CdcVariant.COLUMNAR, 1, "7")
                .miniBatch()).isFalse();
        CdcCell on = CdcBenchmark.parse(new String[] {"--mini-batch", "on"})
                .cell("b:9092", "in", CdcQuery.CDC_AGG, CdcVariant.STOCK, 1, "7");
        assertThat(on.miniBatch()).isTrue();
        assertThat(on.label()).isEqualTo("cdc-agg-stock-mb");
        assertThat(on.warmUpRun().miniBatch()).as("the JVM warm-up runs the measured job's plan").isTrue();
        assertThat(CdcBenchmark.parse(new String[] {"--mini-batch", "off"})
                .cell("b:9092", "in", CdcQuery.CDC_AGG, CdcVariant.STOCK, 1, "7").miniBatch()).isFalse();
        assertThatThrownBy(() -> CdcBenchmark.parse(new String[] {"--mini-batch", "both"}))
                .hasMessage("--mini-batch is off or on");
    }

    /** The warm-up job writes, commits and checkpoints apart: the measured output check sees none of it. */
    @Test
    void theWarmUpJobHasItsOwnTopicTransactionalIdsGroupAndCheckpoints() {
        CdcCell cell = CdcBenchmark.parse(new String[] {"--jvm-warm-up", "on", "--mini-batch", "on"})
                .cell("b:9092", "in", CdcQuery.CDC_UPSERT, CdcVariant.COLUMNAR, 2, "7");
        CdcCell warmUp = cell.warmUpRun();

        assertThat(warmUp.inputTopic()).isEqualTo(cell.inputTopic());
        assertThat(warmUp.query()).isEqualTo(cell.query());
        assertThat(warmUp.variant()).isEqualTo(cell.variant());
        assertThat(warmUp.outputTopic()).isNotEqualTo(cell.outputTopic()).startsWith(cell.outputTopic());
        assertThat(warmUp.runId()).isNotEqualTo(cell.runId());
        assertThat(warmUp.checkpointDir()).isNotEqualTo(cell.checkpointDir());
        assertThat(warmUp.jvmWarmUp()).as("the warm-up job does not warm up again").isEqualTo(JvmWarmUp.OFF);
        assertThat(CdcCell.fromArgs(cell.toArgs().toArray(String[]::new))).isEqualTo(cell);
    }
}
