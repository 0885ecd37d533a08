package io.columnarkafka.flink.source.reader;

import io.columnarkafka.client.decode.ChunkDecoder;
import io.columnarkafka.client.decode.DecodingSpec;
import io.columnarkafka.client.decode.RecordChunk;
import io.columnarkafka.flink.source.BatchOutput;
import io.columnarkafka.flink.source.DecodeMetrics;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitState;

/**
 * Decodes each {@link RecordChunk} into one batch, hands it to the {@link BatchOutput}, and only then
 * moves the split's offset past the chunk's last record. This is the one place a split's offset
 * advances, so a checkpoint (taken between two chunks, on this same task thread) never records an offset
 * ahead of what was emitted. Records that gave no row (tombstones, records skipped under {@code
 * ignore-parse-errors}) are passed over all the same.
 *
 * <p>Decoding runs here, on the task thread, not on the fetcher thread: the batch is then allocated,
 * emitted and (when a chained consumer closes it) freed by one thread, the fetcher's queue holds only
 * the consumer's records and never Arrow memory, and a reader's close has no decoded batch in flight to
 * free.
 */
public final class ChunkEmitter<T> implements RecordEmitter<RecordChunk, T, KafkaPartitionSplitState>, AutoCloseable {
    private final ChunkDecoder decoder;
    private final BatchTimestamps timestamps;
    private final BufferAllocator allocator;
    private final BatchOutput<T> output;
    private final DecodeMetrics metrics;
    private final BatchTimeCap cap;

    /**
     * @param allocator the reader's bounded allocator, closed by {@link #close()}
     * @param timestampField index of the event-time field in the row type, or -1 for Kafka's timestamps
     * @param cap told how long each chunk took to decode and emit (the chained operators' work included)
     */
    public ChunkEmitter(
            DecodingSpec spec,
            int timestampField,
            BufferAllocator allocator,
            BatchOutput<T> output,
            DecodeMetrics metrics,
            BatchTimeCap cap) {
        this.decoder = new ChunkDecoder(spec);
        this.timestamps = new BatchTimestamps(spec.rowType(), timestampField);
        this.allocator = allocator;
        this.output = output;
        this.metrics = metrics;
        this.cap = cap;
    }

    @Override
    public void emitRecord(RecordChunk chunk, SourceOutput<T> splitOutput, KafkaPartitionSplitState split) {
        long start = System.nanoTime();
        VectorSchemaRoot rows = decoder.decode(chunk, allocator);
        int rowCount = rows == null ? 0 : rows.getRowCount();
        // A record may give several rows (a changelog format's update), so skipped records are counted by record.
        metrics.chunk(rowCount, chunk.size() - (rows == null ? 0 : decoder.recordsWithRows()), chunk.bytes(),
                System.nanoTime() - start);
        if (rows != null) {
            long timestamp;
            try {
                timestamp = timestamps.of(rows, chunk);
            } catch (RuntimeException e) {
                rows.close();
                throw e;
            }
            VectorSchemaRoot returned = output.emitAndReturn(rows, timestamp, split.splitId(), splitOutput);
            if (returned != null) {
                decoder.recycle(returned);
            }
        }
        split.setCurrentOffset(chunk.lastOffset() + 1);
        long stepNanos = System.nanoTime() - start;
        metrics.step(stepNanos);
        cap.measured(chunk.size(), stepNanos);
    }

    /**
     * Frees the vectors the decoder kept for the next batch, then closes the reader's allocator, which fails if a
     * batch it allocated is still open.
     */
    @Override
    public void close() {
        decoder.releaseRecycled();
        allocator.close();
    }
}
