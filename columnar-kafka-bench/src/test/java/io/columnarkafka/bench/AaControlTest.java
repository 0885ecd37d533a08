package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The A/A line: a variant's paired ratios to columnar are apart from the A/A control's when all of them lie beyond
 * all of the control's, on one side, wherever the control's range lies (not against 1), and resolved when apart in
 * six rounds or more (a no-change variant is apart in up to 2 / 2^n of runs of n rounds); otherwise whether the median
 * alone is outside; and the paired signs.
 */
class AaControlTest {
    @Test
    void aVariantIsResolvedOnlyWhenEveryRatioLiesBeyondEveryControlRatioInSixRounds() {
        double[] control = {1.10, 1.18, 1.12, 1.15, 1.11, 1.16};

        assertThat(new AaControl(new double[] {1.19, 1.30, 1.25, 1.21, 1.40, 1.20}, control).resolution())
                .isEqualTo(AaControl.Resolution.ABOVE);
        assertThat(new AaControl(new double[] {1.05, 1.09, 1.02, 1.08, 1.07, 1.01}, control).resolution())
                .as("below 1.10 although above 1: the control's range is the line, not 1")
                .isEqualTo(AaControl.Resolution.BELOW);
        assertThat(new AaControl(new double[] {1.19, 1.30, 1.25, 1.21, 1.40}, control).resolution())
                .as("apart in 5 rounds: a chance of 1 in 16").isEqualTo(AaControl.Resolution.APART_TOO_FEW_ROUNDS);
        assertThat(new AaControl(new double[] {1.19, 1.30}, new double[] {1.10, 1.18}).resolution())
                .isEqualTo(AaControl.Resolution.APART_TOO_FEW_ROUNDS);
        assertThat(new AaControl(new double[] {1.05, 1.30, 1.25}, control).resolution())
                .as("median 1.25 above 1.18, but 1.05 is below it").isEqualTo(AaControl.Resolution.MEDIAN_OUTSIDE);
        assertThat(new AaControl(new double[] {1.18, 1.30, 1.25, 1.21, 1.40, 1.20}, control).resolution())
                .as("touching the control's max is not beyond it").isEqualTo(AaControl.Resolution.MEDIAN_OUTSIDE);
        assertThat(new AaControl(new double[] {1.03, 1.30}, control).resolution())
                .as("median 1.165").isEqualTo(AaControl.Resolution.INSIDE);
        assertThat(new AaControl(new double[] {1.5}, new double[0]).resolution())
                .isEqualTo(AaControl.Resolution.NO_CONTROL);
        assertThat(new AaControl(new double[0], control).resolution()).isEqualTo(AaControl.Resolution.NO_CONTROL);
        assertThat(new AaControl(new double[] {1.05, 1.09, 1.02, 1.08, 1.07, 1.01}, control).resolved()).isTrue();
        assertThat(new AaControl(new double[] {1.19, 1.30, 1.25, 1.21, 1.40}, control).resolved())
                .as("apart, too few rounds").isFalse();
        assertThat(new AaControl(new double[] {1.03, 1.30}, control).resolved()).isFalse();
    }

    @Test
    void theVerdictNamesTheControlsRangeAndTheChanceOfBeingApartAndTheSpreadsAreMedianMinMax() {
        AaControl apart = new AaControl(new double[] {0.70, 0.80, 0.75}, new double[] {0.95, 1.05});

        assertThat(apart.variantSpread()).isEqualTo(new Spread(3, 0.75, 0.70, 0.80));
        assertThat(apart.controlSpread()).isEqualTo(new Spread(2, 1.0, 0.95, 1.05));
        assertThat(apart.rounds()).isEqualTo(2);
        assertThat(apart.verdict()).isEqualTo("not resolved: every round below the A/A spread (0.95–1.05), but a"
                + " no-change variant is apart in up to 1 of 2 runs of 2 rounds (resolving takes 6)");
        assertThat(new AaControl(new double[] {0.7, 0.8, 0.75, 0.7, 0.8, 0.75},
                new double[] {0.95, 1.05, 1.0, 0.95, 1.05, 1.0}).verdict())
                .isEqualTo("**resolved**: every round below the A/A spread (0.95–1.05); a no-change variant is apart"
                        + " in up to 1 of 32 runs of 6 rounds");
        assertThat(new AaControl(new double[] {1.0}, new double[] {0.95, 1.05}).verdict())
                .isEqualTo("not resolved: inside the A/A spread (0.95–1.05)");
        assertThat(new AaControl(new double[] {1.0}, new double[0]).verdict())
                .isEqualTo("not resolved: no A/A control (add columnar#2 to --variants)");
    }

    @Test
    void signsCountTheRoundsAboveAndBelowOne() {
        assertThat(AaControl.signs(new double[] {1.2, 0.9, 1.0, 1.01})).isEqualTo("2 of 4 above 1, 1 below");
        assertThat(AaControl.signs(new double[0])).isEqualTo("–");
    }
}
