package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.SendWindow;
import io.columnarkafka.flink.sink.WindowedSendFunction;
import org.apache.flink.util.Collector;

/**
 * Turns one encoded batch into its records, in order, for the {@code KafkaSink} writer chained behind:
 * the writer's serializer takes one element per Kafka record, and here each record gets the {@code
 * byte[]}s Kafka's producer keeps. Stateless: a batch the encode operator sent before a checkpoint
 * barrier is split before the barrier reaches the writer. With a {@link SendWindow} it holds each record
 * back while the producer has too much unacknowledged, and tells the window when barriers pass.
 */
final class SplitEncodedBatch<B, R> extends WindowedSendFunction<B, R> {
    private static final long serialVersionUID = 1L;

    private final EncodedRecords<B, R> elements;

    /** @param maxQueueDelayNanos the send window's queue delay, 0 for none */
    SplitEncodedBatch(EncodedRecords<B, R> elements, long maxQueueDelayNanos) {
        super(maxQueueDelayNanos);
        this.elements = elements;
    }

    @Override
    public void flatMap(B batch, Collector<R> out) {
        int size = elements.encoded(batch).size();
        SendWindow window = window();
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
