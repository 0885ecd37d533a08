package io.columnarkafka.flink.sink;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

/**
 * A flat-map that hands records to the chained {@code KafkaSink} writer under a {@link SendWindow}: it opens the
 * window and its metrics (none for a queue delay of 0) and tells the window when a checkpoint barrier passes. It
 * keeps no state; the checkpoint hook is only the barrier's clock.
 */
public abstract class WindowedSendFunction<IN, OUT> extends RichFlatMapFunction<IN, OUT>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    private final long maxQueueDelayNanos;

    private transient SendWindow window;

    /**
     * @param maxQueueDelayNanos the send window's queue delay, 0 for none (the {@code KafkaSink}'s producer then
     *     needs no {@link SendWindowInterceptor})
     */
    protected WindowedSendFunction(long maxQueueDelayNanos) {
        this.maxQueueDelayNanos = maxQueueDelayNanos;
    }

    @Override
    public void open(OpenContext openContext) {
        if (maxQueueDelayNanos > 0) {
            window = new SendWindow(maxQueueDelayNanos);
            SendWindowMetrics.register(getRuntimeContext().getMetricGroup(), window);
        }
    }

    /** The subtask's send window, or null for none. */
    protected final SendWindow window() {
        return window;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        if (window != null) {
            window.barrier();
        }
    }
}
