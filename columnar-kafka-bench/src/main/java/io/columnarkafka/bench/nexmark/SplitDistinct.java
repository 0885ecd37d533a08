package io.columnarkafka.bench.nexmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.table.api.config.OptimizerConfigOptions;

/**
 * {@code --split-distinct}: whether a cell's table config splits distinct aggregates ({@link #OPTION}), the same for
 * every variant of the cell. Nexmark's own configuration ({@code nexmark-flink/src/main/resources/conf/config.yaml}
 * in nexmark/nexmark) sets it beside mini-batch on and has no mini-batch-off setting, so {@link #NEXMARK}, the
 * default, splits them in the mini-batch-on cells only.
 */
enum SplitDistinct {
    ON, OFF, NEXMARK;

    static final String OPTION = OptimizerConfigOptions.TABLE_OPTIMIZER_DISTINCT_AGG_SPLIT_ENABLED.key();

    static SplitDistinct parse(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "on" -> ON;
            case "off" -> OFF;
            case "nexmark" -> NEXMARK;
            default -> throw new IllegalArgumentException("--split-distinct is on, off or nexmark");
        };
    }

    /** Whether a cell with mini-batch on or off splits distinct aggregates. */
    boolean enabled(boolean miniBatch) {
        return this == ON || this == NEXMARK && miniBatch;
    }

    /**
     * The report's sentence on which cells split distinct aggregates, read off the cells (mini-batch-off and
     * mini-batch-on cells, recovery cells apart), so it holds for the cells the report shows.
     */
    static String describe(List<CellResult> cells) {
        List<String> on = new ArrayList<>();
        List<String> off = new ArrayList<>();
        for (String kind : List.of("mini-batch-off cells", "mini-batch-on cells", "recovery cells")) {
            List<CellSpec> specs = cells.stream().map(CellResult::spec).filter(s -> kind(s).equals(kind)).toList();
            if (specs.stream().anyMatch(CellSpec::splitDistinct)) {
                on.add(kind);
            }
            if (specs.stream().anyMatch(s -> !s.splitDistinct())) {
                off.add(kind);
            }
        }
        List<String> parts = new ArrayList<>();
        if (!on.isEmpty()) {
            parts.add("on in " + list(on));
        }
        if (!off.isEmpty()) {
            parts.add("off in " + list(off));
        }
        return parts.isEmpty() ? "" : "**Split distinct aggregates** (`" + OPTION + "`, `--split-distinct`, both"
                + " variants): " + String.join("; ", parts) + ".\n\n";
    }

    /** "the a", "the a and the b", "the a, the b and the c". */
    private static String list(List<String> kinds) {
        String last = "the " + kinds.get(kinds.size() - 1);
        return kinds.size() == 1 ? last : "the " + String.join(", the ", kinds.subList(0, kinds.size() - 1)) + " and "
                + last;
    }

    private static String kind(CellSpec spec) {
        return spec.failAtFraction() > 0 ? "recovery cells" : spec.miniBatch() ? "mini-batch-on cells"
                : "mini-batch-off cells";
    }
}
