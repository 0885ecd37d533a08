package io.columnarkafka.bench.nexmark;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code --flink-conf KEY=VALUE,...}: Flink configuration options set in every cell's configuration, the same for
 * every variant (the cells' MiniClusters and the recovery runs' clusters), over the harness's own state and
 * checkpoint settings. For settings a production job would choose that the matrix's defaults leave out, such as
 * buffer debloating ({@code taskmanager.network.memory.buffer-debloat.enabled}) or unaligned checkpoints, so their
 * effect on both variants is measured in one run.
 */
record FlinkOptions(Map<String, String> options) {
    static final FlinkOptions NONE = new FlinkOptions(Map.of());

    /** Separates the options in a cell's argument; no Flink option value the harness sets contains it. */
    private static final String SEPARATOR = ";";

    FlinkOptions {
        options = Map.copyOf(options);
    }

    /** Parses {@code KEY=VALUE,KEY=VALUE}; throws {@link IllegalArgumentException} on an item without a key. */
    static FlinkOptions parse(String value) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String item : value.split(",")) {
            String[] kv = item.trim().split("=", 2);
            if (kv.length != 2 || kv[0].isBlank() || kv[1].contains(SEPARATOR)) {
                throw new IllegalArgumentException("--flink-conf takes KEY=VALUE items separated by commas (a value"
                        + " without '" + SEPARATOR + "'), not '" + item + "'");
            }
            if (options.put(kv[0].trim(), kv[1].trim()) != null) {
                throw new IllegalArgumentException("--flink-conf names " + kv[0].trim() + " twice");
            }
        }
        return new FlinkOptions(options);
    }

    /** The cell argument's value; {@link #fromArg} reads it back. */
    String toArg() {
        return options.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .sorted().collect(Collectors.joining(SEPARATOR));
    }

    static FlinkOptions fromArg(String arg) {
        Map<String, String> options = new LinkedHashMap<>();
        if (arg != null && !arg.isEmpty()) {
            for (String item : arg.split(SEPARATOR)) {
                String[] kv = item.split("=", 2);
                options.put(kv[0], kv[1]);
            }
        }
        return new FlinkOptions(options);
    }

    /** The report's sentence naming the options the cells ran with; empty when none. */
    static String describe(List<CellResult> cells) {
        String set = cells.stream().map(c -> c.spec().flinkOptions().toArg()).filter(s -> !s.isEmpty()).distinct()
                .map(s -> "`" + s.replace(SEPARATOR, "`, `") + "`").collect(Collectors.joining("; "));
        return set.isEmpty() ? "" : "**Flink options** (`--flink-conf`, both variants, every cell): " + set + ".\n\n";
    }
}
