package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.SendWindow;
import io.columnarkafka.flink.sink.SendWindowMetrics;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.util.Collector;

/**
 * Turns one encoded batch into its records, in order, for the {@code KafkaSink} writer chained behind:
 * the writer's serializer takes one element per Kafka record, and here each record gets the {@code
 * byte[]}s Kafka's producer keeps. Stateless: a batch the encode operator sent before a checkpoint
 * barrier is split before the barrier reaches the writer. With a {@link SendWindow} it holds each record
 * back while the producer has too much unacknowledged, and tells the window when barriers pass.
 */
final class SplitEncodedBatch<B, R> extends RichFlatMapFunction<B, R>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    private final EncodedRecords<B, R> elements;
    private final long maxQueueDelayNanos;

    private transient SendWindow window;

    /** @param maxQueueDelayNanos the send window's queue delay, 0 for none */
    SplitEncodedBatch(EncodedRecords<B, R> elements, long maxQueueDelayNanos) {
        this.elements = elements;
        this.maxQueueDelayNanos = maxQueueDelayNanos;
    }

    @Override
    public void open(OpenContext openContext) {
        if (maxQueueDelayNanos > 0) {
            window = new SendWindow(maxQueueDelayNanos);
            SendWindowMetrics.register(getRuntimeContext().getMetricGroup(), window);
        }
    }

    /** Keeps no state: a checkpoint only tells the send window when a barrier passed. */
    @Override
    public void initializeState(FunctionInitializationContext context) {}

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        if (window != null) {
            window.barrier();
        }
    }

    @Override
    public void flatMap(B batch, Collector<R> out) {
        int size = elements.encoded(batch).size();
        if (window == null) {
            for (int i = 0; i < size; i++) {
                out.collect(elements.recordOf(batch, i));
            }
            return;
        }
        window.beginSending();
        try {
            for (int i = 0; i < size; i++) {
                window.awaitRoom();
                out.collect(elements.recordOf(batch, i));
            }
        } finally {
            window.endSending();
        }
    }
}
