package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.Spread;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * An extra variant's paired per-round ratios to the default columnar variant, judged against the A/A control's
 * ({@link Variant#CONTROL}: the same default configuration again, so its ratios to columnar are what the run's noise
 * alone makes of "no change"). A variant is resolved only when every one of its ratios lies beyond every one of the
 * control's, on one side: its min above the control's max, or its max below the control's min. The control's spread
 * need not straddle 1 (when the default columnar cells of a run happened to be slow, every A/A ratio is above 1), so
 * the line is drawn against the control's ratios, not against 1.
 *
 * @param ratios the variant's ratios to columnar, one per round in which both cells passed
 * @param control the A/A control's ratios to columnar, likewise; empty when the run had no control
 */
record AaControl(double[] ratios, double[] control) {
    /** Where the variant's ratios lie against the control's. */
    enum Resolution {
        /** Every ratio of the variant above every ratio of the control. */
        ABOVE,
        /** Every ratio of the variant below every ratio of the control. */
        BELOW,
        /** The two ranges overlap, the variant's median outside the control's range. */
        MEDIAN_OUTSIDE,
        /** The variant's median within the control's range. */
        INSIDE,
        /** No ratio of the variant or of the control (no A/A control in the run, or no counted pair). */
        NO_CONTROL
    }

    /** The ratios {@code figure(variant) / figure(columnar)} and {@code figure(control) / figure(columnar)}. */
    static AaControl of(List<CellResult> columnar, List<CellResult> variant, List<CellResult> control,
                        ToDoubleFunction<CellResult> figure) {
        return new AaControl(NexmarkReport.pairedRatios(columnar, variant, figure),
                NexmarkReport.pairedRatios(columnar, control, figure));
    }

    Spread variantSpread() {
        return spread(ratios);
    }

    Spread controlSpread() {
        return spread(control);
    }

    Resolution resolution() {
        if (ratios.length == 0 || control.length == 0) {
            return Resolution.NO_CONTROL;
        }
        Spread v = variantSpread();
        Spread aa = controlSpread();
        if (v.min() > aa.max()) {
            return Resolution.ABOVE;
        }
        if (v.max() < aa.min()) {
            return Resolution.BELOW;
        }
        return v.median() > aa.max() || v.median() < aa.min() ? Resolution.MEDIAN_OUTSIDE : Resolution.INSIDE;
    }

    /** The report's line, e.g. {@code resolved: above the A/A spread (0.95–1.05)}. */
    String verdict() {
        Spread aa = controlSpread();
        String range = String.format(Locale.ROOT, "%.2f–%.2f", aa.min(), aa.max());
        return switch (resolution()) {
            case ABOVE -> "**resolved**: every round above the A/A spread (" + range + ")";
            case BELOW -> "**resolved**: every round below the A/A spread (" + range + ")";
            case MEDIAN_OUTSIDE -> "not resolved: median outside the A/A spread (" + range + "), rounds overlap it";
            case INSIDE -> "not resolved: inside the A/A spread (" + range + ")";
            case NO_CONTROL -> "not resolved: no A/A control (add " + Variant.CONTROL_ID + " to --variants)";
        };
    }

    /** Paired signs of the variant's ratios, e.g. {@code 2 of 3 above 1, 1 below}. */
    static String signs(double[] ratios) {
        long above = Arrays.stream(ratios).filter(r -> r > 1).count();
        long below = Arrays.stream(ratios).filter(r -> r < 1).count();
        return ratios.length == 0 ? "–" : String.format(Locale.ROOT, "%d of %d above 1, %d below", above,
                ratios.length, below);
    }

    private static Spread spread(double[] values) {
        return Spread.of(Arrays.stream(values).boxed().toList());
    }
}
