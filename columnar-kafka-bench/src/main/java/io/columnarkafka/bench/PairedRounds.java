package io.columnarkafka.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * Paired per-round ratios of two variants' cells: in each round that has a cell of both, the numerator's figure over
 * the denominator's. Pairing by round keeps a slow phase of a shared machine out of the ratio, which a ratio of two
 * medians (taken from different rounds) does not.
 */
public final class PairedRounds {
    private PairedRounds() {}

    /** The ratios, in the numerator cells' order; a round without both cells gives none. */
    public static <C> List<Double> ratios(List<C> denominator, List<C> numerator, ToIntFunction<C> round,
                                          ToDoubleFunction<C> figure) {
        List<Double> ratios = new ArrayList<>();
        for (C n : numerator) {
            denominator.stream().filter(d -> round.applyAsInt(d) == round.applyAsInt(n)).findFirst()
                    .ifPresent(d -> ratios.add(figure.applyAsDouble(n) / figure.applyAsDouble(d)));
        }
        return ratios;
    }
}
