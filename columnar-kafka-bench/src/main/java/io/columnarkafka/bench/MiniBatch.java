package io.columnarkafka.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Mini-batch as the end-to-end benchmarks set it when on ({@code --mini-batch on} of {@code bin/bench-nexmark} and
 * {@code bin/bench-cdc}), in both variants alike: Nexmark's config.yaml's latency and size, so that a mini-batch
 * figure of one harness means the same configuration as the other's.
 */
public final class MiniBatch {
    private MiniBatch() {}

    /** The table options of a cell with mini-batch on. */
    public static Map<String, String> tableOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("table.exec.mini-batch.enabled", "true");
        options.put("table.exec.mini-batch.allow-latency", "2 s");
        options.put("table.exec.mini-batch.size", "50000");
        return options;
    }
}
