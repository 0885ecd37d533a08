package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --variants}: the forms a variant takes, its planner options validated against the planner's own
 * ConfigOptions (an unknown key or a value the option does not take fails, naming what is known), the checks on the
 * list, and the order each round runs the variants in.
 */
class VariantTest {
    @Test
    void anExtraVariantSetsItsPlannerOptionsUnderTheirFullKeys() {
        Variant variant = Variant.parse("columnar:local-window-agg.vectorised=false+edge-rows=VIEWS");

        assertThat(variant.columnar()).isTrue();
        assertThat(variant.extra()).isTrue();
        assertThat(variant.id()).as("options sorted by key")
                .isEqualTo("columnar:edge-rows=VIEWS+local-window-agg.vectorised=false");
        assertThat(variant.sessionOptions()).containsExactly(
                Map.entry("columnar-kafka.planner.edge-rows", "VIEWS"),
                Map.entry("columnar-kafka.planner.local-window-agg.vectorised", "false"));
        assertThat(Variant.parse(variant.id())).isEqualTo(variant);
        assertThat(variant.sink(NexmarkQuery.Q0)).isEqualTo("kafka-columnar");
        assertThat(Variant.parse("stock")).isSameAs(Variant.STOCK);
        assertThat(Variant.parse("columnar")).isSameAs(Variant.COLUMNAR);
        assertThat(Variant.COLUMNAR.extra()).isFalse();
    }

    @Test
    void aVariantRoundTripsThroughTheCellsArguments() {
        Variant variant = Variant.parse("columnar:edge-rows=VIEWS");
        CellSpec spec = new CellSpec(NexmarkQuery.Q4, variant, false, 1000, 2, 1000, "b:9092", "in", "out", "run", 0,
                0, true, ClientSettings.DEFAULTS, "/tmp/c", "/tmp/r");

        assertThat(CellSpec.fromArgs(spec.toArgs().toArray(String[]::new))).isEqualTo(spec);
        assertThat(spec.label()).isEqualTo("q4-c:edge-rows=VIEWS");
    }

    @Test
    void unknownKeysAndValuesFailNamingWhatIsKnown() {
        assertThatThrownBy(() -> Variant.parse("columnar:edge-row=VIEWS"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown planner option 'edge-row' (known, relative to columnar-kafka.planner.:"
                        + " edge-rows, local-window-agg.vectorised, local-group-agg.vectorised, watermark.columnar,"
                        + " calc.split)");
        assertThatThrownBy(() -> Variant.parse("columnar:edge-rows=SIDEWAYS"))
                .hasMessageStartingWith("planner option edge-rows does not take 'SIDEWAYS'");
        assertThatThrownBy(() -> Variant.parse("columnar:local-window-agg.vectorised=maybe"))
                .hasMessageStartingWith("planner option local-window-agg.vectorised does not take 'maybe'");
        assertThatThrownBy(() -> Variant.parse("columnar:enabled=false"))
                .as("an option of the stage that is no path choice").hasMessageStartingWith("unknown planner option");
        assertThatThrownBy(() -> Variant.parse("columnar:edge-rows")).hasMessageContaining("is not KEY=VALUE");
        assertThatThrownBy(() -> Variant.parse("columnar:"))
                .hasMessageContaining("is not stock, columnar, columnar#2 (the A/A control) or");
        assertThatThrownBy(() -> Variant.parse("stock:edge-rows=VIEWS")).hasMessageContaining("is not stock, columnar");
        assertThatThrownBy(() -> Variant.parse("columnar:edge-rows=VIEWS+edge-rows=BINARY"))
                .hasMessageContaining("sets edge-rows twice");
    }

    @Test
    void theListNeedsStockAndColumnarOnceEachAndRunsStockFirst() {
        assertThat(NexmarkBenchmark.variants("stock,columnar")).containsExactly(Variant.STOCK, Variant.COLUMNAR);
        assertThat(NexmarkBenchmark.variants("columnar:edge-rows=VIEWS, columnar,stock"))
                .extracting(Variant::id).containsExactly("stock", "columnar", "columnar:edge-rows=VIEWS");
        assertThatThrownBy(() -> NexmarkBenchmark.variants("stock,columnar:edge-rows=VIEWS"))
                .hasMessageStartingWith("--variants needs stock and columnar");
        assertThatThrownBy(() -> NexmarkBenchmark.variants("columnar,columnar:edge-rows=VIEWS"))
                .hasMessageStartingWith("--variants needs stock and columnar");
        assertThatThrownBy(() -> NexmarkBenchmark.variants("stock,columnar,stock"))
                .hasMessageStartingWith("--variants names a variant twice");
    }

    @Test
    void plannerOptionsNeedThePlannerStageAndEveryModeTakesExtraVariants() {
        assertThatThrownBy(() -> NexmarkBenchmark.parse(new String[] {"--columnar-planner", "off",
            "--variants", "stock,columnar,columnar:edge-rows=VIEWS"}))
                .hasMessage("--variants with planner options needs --columnar-planner on");
        NexmarkBenchmark.parse(new String[] {"--columnar-planner", "off", "--variants", "stock,columnar,columnar#2"});
        NexmarkBenchmark.parse(new String[] {"--rate", "1000", "--seconds", "2",
            "--variants", "stock,columnar,columnar:edge-rows=VIEWS,columnar#2"});
    }

    /**
     * The A/A control: the default columnar configuration (the same connectors, no session option) under a label of
     * its own, so its cells are an extra variant's, kept out of the stock/columnar pair, and sorted before the
     * variants with options.
     */
    @Test
    void theAaControlIsTheDefaultColumnarVariantUnderItsOwnLabel() {
        Variant control = Variant.parse("columnar#2");

        assertThat(control).isSameAs(Variant.CONTROL).isNotEqualTo(Variant.COLUMNAR);
        assertThat(control.control()).isTrue();
        assertThat(control.extra()).isTrue();
        assertThat(control.columnar()).isTrue();
        assertThat(control.sessionOptions()).as("the default configuration").isEmpty();
        assertThat(control.sink(NexmarkQuery.Q4)).isEqualTo(Variant.COLUMNAR.sink(NexmarkQuery.Q4));
        assertThat(control.source()).isEqualTo(Variant.COLUMNAR.source());
        assertThat(control.id()).isEqualTo("columnar#2");
        assertThat(control.letter()).isEqualTo("c#2");
        assertThat(NexmarkBenchmark.variants("columnar:edge-rows=VIEWS,columnar#2,stock,columnar"))
                .containsExactly(Variant.STOCK, Variant.COLUMNAR, control, Variant.parse("columnar:edge-rows=VIEWS"));
        CellSpec spec = new CellSpec(NexmarkQuery.Q4, control, false, 1000, 2, 1000, "b:9092", "in", "out", "run", 0,
                0, true, ClientSettings.DEFAULTS, "/tmp/c", "/tmp/r");
        assertThat(CellSpec.fromArgs(spec.toArgs().toArray(String[]::new)).variant()).isSameAs(Variant.CONTROL);
        assertThatThrownBy(() -> Variant.parse("columnar#3")).hasMessageContaining("is not stock, columnar, columnar#2");
    }

    @Test
    void eachRoundRotatesTheOrderSoEveryVariantTakesEveryPlace() {
        Variant s = Variant.STOCK;
        Variant c = Variant.COLUMNAR;
        Variant v = Variant.parse("columnar:edge-rows=VIEWS");
        List<Variant> variants = List.of(s, c, v);

        assertThat(NexmarkBenchmark.roundOrder(variants, 0)).containsExactly(s, c, v);
        assertThat(NexmarkBenchmark.roundOrder(variants, 1)).containsExactly(c, v, s);
        assertThat(NexmarkBenchmark.roundOrder(variants, 2)).containsExactly(v, s, c);
        assertThat(NexmarkBenchmark.roundOrder(variants, 3)).containsExactly(s, c, v);
        assertThat(NexmarkBenchmark.roundOrder(List.of(s, c), 1)).as("the pair as before: columnar first in odd rounds")
                .containsExactly(c, s);
        assertThat(NexmarkBenchmark.roundOrder(List.of(s, c), 2)).containsExactly(s, c);
    }
}
