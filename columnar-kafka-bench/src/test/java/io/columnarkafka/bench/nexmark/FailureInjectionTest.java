package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Where a recovery cell counts its restarted sources caught up: from a filled topic the failure position; at a fixed
 * input rate the failure position plus the events the live fill writes after the kill (rate × time), never past the
 * input's end.
 */
class FailureInjectionTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void fromAFilledTopicTheFailurePositionWhateverTheTime() {
        assertThat(FailureInjection.caughtUpPosition(500_000, 0, 0, 1_000_000)).isEqualTo(500_000);
        assertThat(FailureInjection.caughtUpPosition(500_000, 7 * SECOND, 0, 1_000_000)).isEqualTo(500_000);
    }

    @Test
    void atAFixedRateTheInputWrittenSinceTheKillIsAddedToIt() {
        assertThat(FailureInjection.caughtUpPosition(500_000, 0, 50_000, 1_000_000)).isEqualTo(500_000);
        assertThat(FailureInjection.caughtUpPosition(500_000, SECOND / 2, 50_000, 1_000_000)).isEqualTo(525_000);
        assertThat(FailureInjection.caughtUpPosition(500_000, 4 * SECOND, 50_000, 1_000_000)).isEqualTo(700_000);
    }

    @Test
    void atAFixedRateNeverPastTheInputsEnd() {
        assertThat(FailureInjection.caughtUpPosition(500_000, 60 * SECOND, 50_000, 1_000_000)).isEqualTo(1_000_000);
    }
}
