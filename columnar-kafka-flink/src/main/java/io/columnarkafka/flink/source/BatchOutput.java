package io.columnarkafka.flink.source;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.connector.source.SourceOutput;

/**
 * What a reader emits for each decoded batch: the strategy that turns the batch's rows into stream
 * elements. {@link ArrowBatchOutput} emits the batch itself; a SQL scan can emit row views of it.
 *
 * <p>The reader calls it on the task thread, after decoding a chunk of one split's records and before
 * it moves that split's offset past them: whatever the output emits is in the stream before a
 * checkpoint can record the new offset.
 */
public interface BatchOutput<T> {

    /**
     * Emits the rows of one batch to the split's output.
     *
     * @param rows the decoded rows, laid out as the source's row type; ownership passes to the output,
     *     which must close them, or hand them on, before it returns, also when it fails
     * @param timestamp the batch's event time: the largest value of the source's timestamp column, or
     *     else the largest Kafka record timestamp of the batch
     * @param splitId the id of the split the rows were read from
     * @param output the split-local output, which drives the split's watermark
     */
    void emit(VectorSchemaRoot rows, long timestamp, String splitId, SourceOutput<T> output);

    /**
     * As {@link #emit}, but an output that only lends the rows for the hand-over returns them once it is over, to a
     * caller that owns them again and may reuse their vectors for a later batch; null from an output that closed
     * them or handed them on (the default).
     */
    default VectorSchemaRoot emitAndReturn(VectorSchemaRoot rows, long timestamp, String splitId,
            SourceOutput<T> output) {
        emit(rows, timestamp, splitId, output);
        return null;
    }
}
