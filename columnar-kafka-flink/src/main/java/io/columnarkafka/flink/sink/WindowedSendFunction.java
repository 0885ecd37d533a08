package io.columnarkafka.flink.sink;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;

/**
 * A flat-map that hands records to the chained {@code KafkaSink} writer under a {@link SendWindow} (none for a queue
 * delay of 0), which it opens. It runs as a {@link WindowedSendOperator}, which tells the window when checkpoint
 * barriers pass and registers its metrics.
 */
public abstract class WindowedSendFunction<IN, OUT> extends RichFlatMapFunction<IN, OUT> {
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
        }
    }

    /** The subtask's send window, or null for none. */
    protected final SendWindow window() {
        return window;
    }
}
