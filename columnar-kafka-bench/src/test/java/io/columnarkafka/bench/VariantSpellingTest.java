package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The spelling both A/B benchmarks share: {@code columnar:KEY=VALUE[+KEY=VALUE...]} read into planner options checked
 * against the planner's own (an unknown key or a value the option does not take fails, naming what is known), their
 * session keys and the id they give back, and the checks on a {@code --variants} list.
 */
class VariantSpellingTest {
    @Test
    void plannerOptionsAreReadSortedByKeyAndGiveBackTheirIdAndSessionKeys() {
        Map<String, String> options =
                VariantSpelling.plannerOptions("columnar:local-group-agg.vectorised=false+edge-rows=VIEWS");

        assertThat(options).containsExactly(Map.entry("edge-rows", "VIEWS"),
                Map.entry("local-group-agg.vectorised", "false"));
        assertThat(VariantSpelling.id(VariantSpelling.items(options)))
                .isEqualTo("columnar:edge-rows=VIEWS+local-group-agg.vectorised=false");
        assertThat(VariantSpelling.id(List.of())).isEqualTo("columnar");
        assertThat(VariantSpelling.sessionOptions(options)).containsExactly(
                Map.entry("columnar-kafka.planner.edge-rows", "VIEWS"),
                Map.entry("columnar-kafka.planner.local-group-agg.vectorised", "false"));
    }

    @Test
    void aMalformedOrUnknownOptionFailsNamingIt() {
        assertThatThrownBy(() -> VariantSpelling.plannerOptions("columnar:local-group-agg.vectorized=false"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown planner option 'local-group-agg.vectorized' (known, relative to"
                        + " columnar-kafka.planner.: edge-rows, local-window-agg.vectorised,"
                        + " local-group-agg.vectorised");
        assertThatThrownBy(() -> VariantSpelling.plannerOptions("columnar:local-group-agg.vectorised=no"))
                .hasMessageStartingWith("planner option local-group-agg.vectorised does not take 'no'");
        assertThatThrownBy(() -> VariantSpelling.plannerOptions("columnar:edge-rows"))
                .hasMessage("variant 'columnar:edge-rows': 'edge-rows' is not KEY=VALUE");
        assertThatThrownBy(() -> VariantSpelling.plannerOptions("columnar:edge-rows=VIEWS+"))
                .hasMessage("variant 'columnar:edge-rows=VIEWS+': '' is not KEY=VALUE");
        assertThatThrownBy(() -> VariantSpelling.plannerOptions("columnar:"))
                .hasMessage("variant 'columnar:' is not stock, columnar, columnar#2 (the A/A control) or"
                        + " columnar:KEY=VALUE[+KEY=VALUE...], each a planner option");
        assertThatThrownBy(() -> VariantSpelling.plannerOptions("colmunar:edge-rows=VIEWS"))
                .hasMessageStartingWith("variant 'colmunar:edge-rows=VIEWS' is not stock, columnar");
        assertThatThrownBy(() -> VariantSpelling.plannerOptions("columnar:edge-rows=VIEWS+edge-rows=BINARY"))
                .hasMessage("variant 'columnar:edge-rows=VIEWS+edge-rows=BINARY' sets edge-rows twice");
    }

    @Test
    void theListIsSortedAndNeedsStockAndColumnarOnceEach() {
        assertThat(VariantSpelling.list("columnar, b,stock", String::valueOf, "columnar", "stock"))
                .as("natural order, spaces trimmed").containsExactly("b", "columnar", "stock");
        assertThatThrownBy(() -> VariantSpelling.list("stock,b", String::valueOf, "stock", "columnar"))
                .hasMessage("--variants needs stock and columnar (every output is compared with stock's, every extra"
                        + " variant measured against both): stock,b");
        assertThatThrownBy(() -> VariantSpelling.list("stock,columnar,stock", String::valueOf, "stock", "columnar"))
                .hasMessage("--variants names a variant twice: stock,columnar,stock");
    }
}
