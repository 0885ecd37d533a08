package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** When a cell's JVM runs another warm-up job: never, once, or until one run compiled for at most 15 % of its time. */
class JvmWarmUpTest {
    @Test
    void theFlagNamesEachMode() {
        assertThat(JvmWarmUp.parse("off")).isEqualTo(JvmWarmUp.OFF);
        assertThat(JvmWarmUp.parse("on")).isEqualTo(JvmWarmUp.ONCE);
        assertThat(JvmWarmUp.parse("once")).isEqualTo(JvmWarmUp.ONCE);
        assertThat(JvmWarmUp.parse("settled")).isEqualTo(JvmWarmUp.SETTLED);
        assertThatThrownBy(() -> JvmWarmUp.parse("twice")).hasMessageContaining("off, on (once) or settled");
        for (JvmWarmUp mode : JvmWarmUp.values()) {
            assertThat(JvmWarmUp.parse(mode.flag())).isEqualTo(mode);
        }
    }

    @Test
    void offAndOnceRunNoneAndOneWhateverTheJit() {
        assertThat(JvmWarmUp.OFF.another(0, Double.NaN)).isFalse();
        assertThat(JvmWarmUp.ONCE.another(0, Double.NaN)).isTrue();
        assertThat(JvmWarmUp.ONCE.another(1, 0.9)).isFalse();
    }

    @Test
    void settledRunsUntilARunCompiledForAtMostFifteenPercentOrEightRuns() {
        assertThat(JvmWarmUp.SETTLED.another(0, Double.NaN)).as("always a first run").isTrue();
        assertThat(JvmWarmUp.SETTLED.another(1, 0.16)).isTrue();
        assertThat(JvmWarmUp.SETTLED.another(1, 0.15)).isFalse();
        assertThat(JvmWarmUp.SETTLED.another(3, 0.02)).isFalse();
        assertThat(JvmWarmUp.SETTLED.another(7, 0.9)).isTrue();
        assertThat(JvmWarmUp.SETTLED.another(8, 0.9)).as("at most eight runs").isFalse();
    }

    @Test
    void runRunsTheJobAsOftenAsTheModeSaysAndRecordsIt() throws Exception {
        int[] runs = {0};
        Properties once = new Properties();
        JvmWarmUp.ONCE.run(() -> runs[0]++, once);
        assertThat(runs[0]).isEqualTo(1);
        assertThat(once.getProperty("jvmWarmUpJobs")).isEqualTo("1");
        assertThat(Double.parseDouble(once.getProperty("jvmWarmUpSeconds"))).isNotNegative();
        assertThat(once.getProperty("jvmWarmUpLastJitShare")).isNotNull();

        Properties off = new Properties();
        JvmWarmUp.OFF.run(() -> runs[0]++, off);
        assertThat(runs[0]).isEqualTo(1);
        assertThat(off).isEmpty();

        Properties settled = new Properties();
        JvmWarmUp.SETTLED.run(() -> runs[0]++, settled);
        assertThat(Integer.parseInt(settled.getProperty("jvmWarmUpJobs")))
                .isEqualTo(runs[0] - 1).isBetween(1, JvmWarmUp.SETTLED_MAX_JOBS);
    }

    @Test
    void theCompileTimeIsThisJvmsAndGrows() {
        double before = JvmWarmUp.compileSeconds();
        long sink = 0;
        for (int i = 0; i < 200_000; i++) {
            sink += Long.toString(i * 31L).hashCode();
        }
        assertThat(sink).isNotZero();
        assertThat(before).isNotNaN().isPositive();
        assertThat(JvmWarmUp.compileSeconds()).isGreaterThanOrEqualTo(before);
    }
}
