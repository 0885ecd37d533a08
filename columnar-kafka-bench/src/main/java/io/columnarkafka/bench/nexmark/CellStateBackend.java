package io.columnarkafka.bench.nexmark;

import java.util.List;
import java.util.Locale;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;

/**
 * {@code --state heap|rocksdb}: the state backend of every cell, the same for every variant (the cells' MiniClusters
 * and the recovery runs' clusters). Heap state is the matrix's default, as issue #11 names it; RocksDB is set up as
 * the Nexmark suite's own {@code config.yaml} sets it ({@code state.backend: rocksdb}, {@code
 * state.backend.incremental: true}), the backend of production jobs whose state outgrows the heap. Only Flink's keyed
 * operators hold keyed state, in both variants alike; the columnar operators keep none.
 */
enum CellStateBackend {
    HEAP("hashmap", false, "HashMapStateBackend", "heap state"),
    ROCKSDB("rocksdb", true, "EmbeddedRocksDBStateBackend", "RocksDB state with incremental checkpoints");

    private final String type;
    private final boolean incremental;
    private final String backendName;
    private final String phrase;

    CellStateBackend(String type, boolean incremental, String backendName, String phrase) {
        this.type = type;
        this.incremental = incremental;
        this.backendName = backendName;
        this.phrase = phrase;
    }

    static CellStateBackend parse(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "heap" -> HEAP;
            case "rocksdb" -> ROCKSDB;
            default -> throw new IllegalArgumentException("--state is heap or rocksdb, not '" + value + "'");
        };
    }

    /** Sets the backend and whether its checkpoints are incremental. */
    void apply(Configuration conf) {
        conf.set(StateBackendOptions.STATE_BACKEND, type);
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, incremental);
    }

    /** The name Flink gives the backend ({@code StateBackend#getName}), as a job's checkpoint configuration shows it. */
    String backendName() {
        return backendName;
    }

    /**
     * Fails the cell unless its job ran with this backend ({@code ranWith}: the job's, null if it showed none): a
     * cell reported as run on RocksDB state ran on it.
     */
    void check(String ranWith) {
        if (!backendName.equals(ranWith)) {
            throw new IllegalStateException("the job ran with state backend " + ranWith + ", not " + backendName
                    + " (--state " + flag() + ")");
        }
    }

    /** The flag's value, as the reports' JSON names it. */
    String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The reports' words for it, e.g. "heap state". */
    String phrase() {
        return phrase;
    }

    /** The backend the cells ran with: a run sets one for all of them (heap when there are none). */
    static CellStateBackend of(List<CellResult> cells) {
        return cells.stream().map(c -> c.spec().state()).findFirst().orElse(HEAP);
    }
}
