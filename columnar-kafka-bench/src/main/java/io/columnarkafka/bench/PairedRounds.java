package io.columnarkafka.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * Paired per-round ratios of two variants' cells: in each round that has a cell of both, the numerator's figure over
 * the denominator's. Pairing by round keeps a slow phase of a shared machine out of the ratio, which a ratio of two
 * medians (taken from different rounds) does not; rotating the variants' order from round to round ({@link
 * #roundOrder}) keeps a place in the round (first, right after another JVM's job) from favouring one of them.
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

    /**
     * The order a round runs its variants in: the list rotated by the round, so the first variant (stock, whose first
     * output is what the others are compared with) runs first in round 0 and each variant takes each place in turn;
     * for stock and columnar, stock first in even rounds and columnar first in odd ones.
     */
    public static <V> List<V> roundOrder(List<V> variants, int round) {
        List<V> order = new ArrayList<>(variants);
        Collections.rotate(order, -round);
        return order;
    }
}
