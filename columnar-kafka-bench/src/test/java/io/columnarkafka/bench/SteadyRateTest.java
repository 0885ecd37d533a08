package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The steady-state rate from synthetic progress curves whose answer is known by construction: a job that starts
 * late, runs at a constant rate and then waits for its final checkpoint; the crossing times interpolated between
 * samples; an output that is a share of the input stated in input events; unknown crossings as NaN; and the cell's
 * figure, the slower of read and written, with the fixed seconds it leaves of the job time.
 */
class SteadyRateTest {
    /**
     * 1 s of start-up with nothing read, then 100 events/ms for 1 s (100,000 events), then 1.5 s of waiting: the
     * steady rate is 100,000 events/s (10 % at 1.1 s, 90 % at 1.9 s), the job-time rate 100,000 / 3.5 s.
     */
    @Test
    void rateBetweenTenAndNinetyPercentLeavesOutStartAndEnd() {
        List<double[]> curve = new ArrayList<>();
        for (int t = 0; t <= 3500; t += 20) {
            curve.add(new double[] {t, Math.min(100_000, Math.max(0, (t - 1000) * 100L))});
        }
        SteadyRate rate = SteadyRate.of(millis(curve), progress(curve), 100_000, 100_000);

        assertThat(rate.eventsPerSecond()).isCloseTo(100_000, within(1e-6));
        assertThat(rate.fromMillis()).isCloseTo(1100, within(1e-9));
        assertThat(rate.toMillis()).isCloseTo(1900, within(1e-9));
        assertThat(100_000 / 3.5).as("what job time would report").isLessThan(rate.eventsPerSecond() / 3);
    }

    /** Samples at irregular moments (a loaded machine's scheduler) of the same curve give the same rate. */
    @Test
    void irregularSamplesOfALinearStretchGiveTheExactRate() {
        SplittableRandom random = new SplittableRandom(7);
        List<double[]> curve = new ArrayList<>();
        double t = 0;
        while (t < 6000) {
            // 5,000 events/s from 2 s to 4 s (10,000 events), flat before and after.
            curve.add(new double[] {t, Math.floor(Math.min(10_000, Math.max(0, (t - 2000) * 5)))});
            t += 5 + random.nextDouble() * 60;
        }
        SteadyRate rate = SteadyRate.of(millis(curve), progress(curve), 10_000, 10_000);

        // The curve is floored to whole records: within a record of the line, 1 ms at 5 events/ms (0.15 %).
        assertThat(rate.eventsPerSecond()).isCloseTo(5_000, within(5_000 * 0.0015));
        assertThat(curve).as("samples compared").hasSizeGreaterThan(150);
    }

    @Test
    void crossingIsInterpolatedBetweenTheSamplesAroundIt() {
        double[] millis = {0, 100, 200};
        long[] progress = {0, 50, 150};

        assertThat(SteadyRate.crossing(millis, progress, 100)).isEqualTo(150.0);
        assertThat(SteadyRate.crossing(millis, progress, 50)).as("reached exactly at a sample").isEqualTo(100.0);
        assertThat(SteadyRate.crossing(millis, progress, 151)).as("never reached").isNaN();
        assertThat(SteadyRate.crossing(new double[] {0, 10}, new long[] {20, 30}, 10))
                .as("already above at the first sample: when is unknown").isNaN();
    }

    /**
     * An output of 46,000 records for 50,000 input events, written at 23,000 records/s: 80 % of the output in 1.6 s
     * stands for 80 % of the input, 25,000 events/s.
     */
    @Test
    void outputShareStandsForTheSameShareOfTheInput() {
        List<double[]> curve = new ArrayList<>();
        for (int t = 0; t <= 3000; t += 10) {
            curve.add(new double[] {t, Math.min(46_000, Math.max(0, (t - 500) * 23L))});
        }
        SteadyRate rate = SteadyRate.of(millis(curve), progress(curve), 46_000, 50_000);

        assertThat(rate.eventsPerSecond()).isCloseTo(25_000, within(1e-6));
    }

    @Test
    void noProgressOrNoCrossingIsNaN() {
        double[] millis = {0, 20, 40};
        assertThat(SteadyRate.of(millis, new long[] {0, 0, 0}, 0, 1000).eventsPerSecond()).isNaN();
        assertThat(SteadyRate.of(millis, new long[] {0, 50, 100}, 1000, 1000).eventsPerSecond())
                .as("10 % crossed, 90 % not").isNaN();
        assertThatThrownBy(() -> SteadyRate.of(millis, new long[] {0, 1}, 1, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** The cell's steady rate is the slower side; the fixed seconds are job time − events / that rate. */
    @Test
    void cellFigureIsTheSlowerSideAndLeavesTheFixedSeconds() {
        SteadyFigures writtenSlower = new SteadyFigures(100_000, 80_000, 1.1, 1.9, 1.2, 2.2);
        assertThat(writtenSlower.eventsPerSecond()).isEqualTo(80_000);
        assertThat(writtenSlower.limitedBy()).isEqualTo("written");
        assertThat(writtenSlower.fixedSeconds(3.5, 100_000)).isCloseTo(3.5 - 1.25, within(1e-12));

        SteadyFigures readSlower = new SteadyFigures(90_000, 120_000, 1.1, 1.9, 1.2, 2.2);
        assertThat(readSlower.eventsPerSecond()).isEqualTo(90_000);
        assertThat(readSlower.limitedBy()).isEqualTo("read");

        SteadyFigures writtenUnknown = new SteadyFigures(90_000, Double.NaN, 1.1, 1.9, Double.NaN, Double.NaN);
        assertThat(writtenUnknown.eventsPerSecond()).as("an unknown side is not skipped").isNaN();
        assertThat(writtenUnknown.limitedBy()).isEqualTo("–");
    }

    /** The figures survive the cell's result file; a cell without them (recovery) loads as none. */
    @Test
    void figuresRoundTripThroughTheResultFile() {
        SteadyFigures figures = new SteadyFigures(100_000, 80_000, 1.1, 1.9, 1.2, 2.2);
        java.util.Properties p = new java.util.Properties();
        figures.store(p);

        assertThat(SteadyFigures.load(p)).isEqualTo(figures);
        assertThat(SteadyFigures.load(new java.util.Properties())).isEqualTo(SteadyFigures.NONE);
    }

    private static double[] millis(List<double[]> curve) {
        return curve.stream().mapToDouble(p -> p[0]).toArray();
    }

    private static long[] progress(List<double[]> curve) {
        return curve.stream().mapToLong(p -> (long) p[1]).toArray();
    }
}
