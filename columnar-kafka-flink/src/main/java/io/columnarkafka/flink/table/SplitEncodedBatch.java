package io.columnarkafka.flink.table;

import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Turns one encoded batch into its records, in order, for the {@code KafkaSink} writer chained behind:
 * the writer's serializer takes one element per Kafka record, and here each record gets the {@code
 * byte[]}s Kafka's producer keeps. Stateless: a batch the encode operator sent before a checkpoint
 * barrier is split before the barrier reaches the writer.
 */
final class SplitEncodedBatch<B, R> implements FlatMapFunction<B, R> {
    private static final long serialVersionUID = 1L;

    private final EncodedRecords<B, R> elements;

    SplitEncodedBatch(EncodedRecords<B, R> elements) {
        this.elements = elements;
    }

    @Override
    public void flatMap(B batch, Collector<R> out) {
        int size = elements.encoded(batch).size();
        for (int i = 0; i < size; i++) {
            out.collect(elements.recordOf(batch, i));
        }
    }
}
