package io.columnarkafka.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * An extra variant's paired per-round ratios to the default columnar variant of a same-run A/B ({@code --variants} of
 * {@code bin/bench-nexmark} and {@code bin/bench-cdc}), judged against the A/A control's ({@value #CONTROL_ID}: the
 * same default configuration again, so its ratios to columnar are what the run's noise
 * alone makes of "no change"). A variant is apart from the control when every one of its ratios lies beyond every one
 * of the control's, on one side: its min above the control's max, or its max below the control's min. The control's
 * spread need not straddle 1 (when the default columnar cells of a run happened to be slow, every A/A ratio is above
 * 1), so the line is drawn against the control's ratios, not against 1.
 *
 * <p>Apart is not yet resolved: a variant that changes nothing is apart by chance. In each round the variant and the
 * control are then two draws of the same thing, either one as likely the larger, and being apart needs the variant
 * the larger (or the smaller) in every one of the n rounds: a chance of at most 2 / 2^n (1 in 2 at 2 rounds, 1 in 4 at
 * 3). Resolved = apart with that chance at most 5 %, which takes {@value #ROUNDS_TO_RESOLVE} rounds.
 *
 * @param ratios the variant's ratios to columnar, one per round in which both cells passed
 * @param control the A/A control's ratios to columnar, likewise; empty when the run had no control
 */
public record AaControl(double[] ratios, double[] control) {
    /** The A/A control's id in {@code --variants}: columnar, a second time. */
    public static final String CONTROL_ID = "columnar#2";
    /** The fewest paired rounds in which being apart is a chance of at most 5 % for a variant that changes nothing. */
    public static final int ROUNDS_TO_RESOLVE = 6;
    /** What a report says of the control and the rule, before the table of ratios to columnar it explains. */
    public static final String RULE = "The A/A control `" + CONTROL_ID + "` is the default columnar configuration"
            + " again: its ratio to columnar is this run's noise. A variant is **resolved** only when every one of its"
            + " ratios to columnar lies beyond every one of the A/A control's (on one side) in at least "
            + ROUNDS_TO_RESOLVE + " rounds (a variant that changes nothing is that far apart in up to 2 / 2^n of runs"
            + " of n rounds)";

    /** Where the variant's ratios lie against the control's. */
    public enum Resolution {
        /** Every ratio of the variant above every ratio of the control, in enough rounds to resolve. */
        ABOVE,
        /** Every ratio of the variant below every ratio of the control, in enough rounds to resolve. */
        BELOW,
        /** Apart (above or below), but in fewer rounds than {@link #ROUNDS_TO_RESOLVE}. */
        APART_TOO_FEW_ROUNDS,
        /** The two ranges overlap, the variant's median outside the control's range. */
        MEDIAN_OUTSIDE,
        /** The variant's median within the control's range. */
        INSIDE,
        /** No ratio of the variant or of the control (no A/A control in the run, or no counted pair). */
        NO_CONTROL
    }

    /**
     * The ratios {@code figure(variant) / figure(columnar)} and {@code figure(control) / figure(columnar)}, paired by
     * {@code round} ({@link PairedRounds}).
     */
    public static <C> AaControl of(List<C> columnar, List<C> variant, List<C> control, ToIntFunction<C> round,
                                   ToDoubleFunction<C> figure) {
        return new AaControl(array(PairedRounds.ratios(columnar, variant, round, figure)),
                array(PairedRounds.ratios(columnar, control, round, figure)));
    }

    private static double[] array(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    public Spread variantSpread() {
        return spread(ratios);
    }

    public Spread controlSpread() {
        return spread(control);
    }

    public Resolution resolution() {
        if (ratios.length == 0 || control.length == 0) {
            return Resolution.NO_CONTROL;
        }
        Spread v = variantSpread();
        Spread aa = controlSpread();
        boolean enough = rounds() >= ROUNDS_TO_RESOLVE;
        if (v.min() > aa.max()) {
            return enough ? Resolution.ABOVE : Resolution.APART_TOO_FEW_ROUNDS;
        }
        if (v.max() < aa.min()) {
            return enough ? Resolution.BELOW : Resolution.APART_TOO_FEW_ROUNDS;
        }
        return v.median() > aa.max() || v.median() < aa.min() ? Resolution.MEDIAN_OUTSIDE : Resolution.INSIDE;
    }

    /** Every ratio of the variant beyond every one of the control's, on one side, in enough rounds. */
    public boolean resolved() {
        Resolution resolution = resolution();
        return resolution == Resolution.ABOVE || resolution == Resolution.BELOW;
    }

    /** Paired rounds: those with a ratio of the variant's and one of the control's (fewer if a cell failed). */
    public int rounds() {
        return Math.min(ratios.length, control.length);
    }

    /** The report's line, e.g. {@code resolved: every round above the A/A spread (0.95–1.05), ...}. */
    public String verdict() {
        Spread aa = controlSpread();
        String range = String.format(Locale.ROOT, "%.2f–%.2f", aa.min(), aa.max());
        String chance = String.format(Locale.ROOT, "a no-change variant is apart in up to 1 of %d runs of %d rounds",
                1 << (rounds() - 1), rounds());
        return switch (resolution()) {
            case ABOVE -> "**resolved**: every round above the A/A spread (" + range + "); " + chance;
            case BELOW -> "**resolved**: every round below the A/A spread (" + range + "); " + chance;
            case APART_TOO_FEW_ROUNDS -> "not resolved: every round " + (variantSpread().min() > aa.max() ? "above"
                    : "below") + " the A/A spread (" + range + "), but " + chance + " (resolving takes "
                    + ROUNDS_TO_RESOLVE + ")";
            case MEDIAN_OUTSIDE -> "not resolved: median outside the A/A spread (" + range + "), rounds overlap it";
            case INSIDE -> "not resolved: inside the A/A spread (" + range + ")";
            case NO_CONTROL -> "not resolved: no A/A control (add " + CONTROL_ID + " to --variants)";
        };
    }

    /** Paired signs of the variant's ratios, e.g. {@code 2 of 3 above 1, 1 below}. */
    public static String signs(double[] ratios) {
        long above = Arrays.stream(ratios).filter(r -> r > 1).count();
        long below = Arrays.stream(ratios).filter(r -> r < 1).count();
        return ratios.length == 0 ? "–" : String.format(Locale.ROOT, "%d of %d above 1, %d below", above,
                ratios.length, below);
    }

    private static Spread spread(double[] values) {
        return Spread.of(Arrays.stream(values).boxed().toList());
    }
}
