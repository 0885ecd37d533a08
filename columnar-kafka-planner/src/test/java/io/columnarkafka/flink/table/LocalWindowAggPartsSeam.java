package io.columnarkafka.flink.table;

import org.apache.flink.table.runtime.operators.aggregate.window.LocalSlicingWindowAggOperator;

/**
 * Tests' access to {@link ArrowLocalWindowAggOperator}'s package-private probe seam: plans as on a Flink whose local
 * window aggregate operator keeps its parts elsewhere (no mock of Flink: the probe looks at another class).
 */
public final class LocalWindowAggPartsSeam implements AutoCloseable {
    private LocalWindowAggPartsSeam() {}

    /** Probes {@code holder} for the operator's parts until {@link #close}, which probes Flink's operator again. */
    public static LocalWindowAggPartsSeam probing(Class<?> holder) {
        ArrowLocalWindowAggOperator.probePartsOf(holder);
        return new LocalWindowAggPartsSeam();
    }

    @Override
    public void close() {
        ArrowLocalWindowAggOperator.probePartsOf(LocalSlicingWindowAggOperator.class);
    }
}
