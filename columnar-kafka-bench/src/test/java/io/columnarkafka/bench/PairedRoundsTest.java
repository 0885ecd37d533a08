package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Ratios paired by round, and the order each round runs the variants in. */
class PairedRoundsTest {
    /** A cell of a variant: its round and its figure. */
    private record Cell(int round, double figure) {}

    @Test
    void aRatioPairsTheCellsOfOneRoundAndARoundWithoutBothGivesNone() {
        List<Cell> stock = List.of(new Cell(1, 100), new Cell(2, 50), new Cell(3, 80));
        List<Cell> columnar = List.of(new Cell(1, 200), new Cell(3, 40), new Cell(4, 10));

        assertThat(PairedRounds.ratios(stock, columnar, Cell::round, Cell::figure)).containsExactly(2.0, 0.5);
    }

    @Test
    void eachRoundRotatesTheOrderSoEveryVariantTakesEveryPlace() {
        List<String> variants = List.of("s", "c", "v");

        assertThat(PairedRounds.roundOrder(variants, 0)).containsExactly("s", "c", "v");
        assertThat(PairedRounds.roundOrder(variants, 1)).containsExactly("c", "v", "s");
        assertThat(PairedRounds.roundOrder(variants, 2)).containsExactly("v", "s", "c");
        assertThat(PairedRounds.roundOrder(variants, 3)).containsExactly("s", "c", "v");
        assertThat(PairedRounds.roundOrder(List.of("s", "c"), 1)).as("the pair: columnar first in odd rounds")
                .containsExactly("c", "s");
        assertThat(PairedRounds.roundOrder(List.of("s", "c"), 2)).containsExactly("s", "c");
        assertThat(variants).as("the list itself unchanged").containsExactly("s", "c", "v");
    }
}
