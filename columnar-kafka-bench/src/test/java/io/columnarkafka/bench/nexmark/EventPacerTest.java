package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The fixed-rate fill's pacing arithmetic: event i is due i / rate seconds after the start (so a sender behind
 * schedule sends at once and catches up rather than drifting), with a slack of one millisecond; the run's events are
 * rate × seconds.
 */
class EventPacerTest {
    private static final long START = 5_000_000_000L;

    @Test
    void eventIIsDueIOverRateSecondsAfterTheStart() {
        EventPacer pacer = new EventPacer(10_000, START);

        assertThat(pacer.dueNanos(0)).isEqualTo(START);
        assertThat(pacer.dueNanos(1)).isEqualTo(START + 100_000);
        assertThat(pacer.dueNanos(10_000)).isEqualTo(START + 1_000_000_000L);
        assertThat(pacer.dueNanos(400_000)).as("40 s of input at 10,000 events/s").isEqualTo(START + 40_000_000_000L);
        assertThat(new EventPacer(3, START).dueNanos(1)).as("a rate that does not divide a second")
                .isEqualTo(START + 333_333_333L);
    }

    @Test
    void aSenderWaitsOnlyWhenMoreThanTheSlackAhead() {
        EventPacer pacer = new EventPacer(1_000, START);

        assertThat(pacer.waitNanos(10, START)).as("10 ms early").isEqualTo(10_000_000);
        assertThat(pacer.waitNanos(10, START + 9_500_000)).as("0.5 ms early: within the slack").isZero();
        assertThat(pacer.waitNanos(10, START + 50_000_000)).as("behind schedule: send at once").isZero();
        assertThat(pacer.waitNanos(0, START)).isZero();
    }

    @Test
    void theRunsEventsAreRateTimesSeconds() {
        assertThat(EventPacer.events(10_000, 40)).isEqualTo(400_000);
        assertThat(EventPacer.events(2_500, 0.5)).isEqualTo(1_250);
        assertThatThrownBy(() -> new EventPacer(0, START)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void awaitDueReturnsNoEarlierThanTheDueTimeLessTheSlack() {
        long start = System.nanoTime();
        EventPacer pacer = new EventPacer(1_000, start);

        pacer.awaitDue(20);

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(20_000_000 - EventPacer.SLACK_NANOS);
    }
}
