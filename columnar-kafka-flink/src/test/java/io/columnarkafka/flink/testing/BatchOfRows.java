package io.columnarkafka.flink.testing;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Batch index to Arrow batch: batch {@code b} holds rows {@code b * rowsPerBatch ..} of {@link
 * TestRows}, so a restarted source regenerates the same rows. Each batch gets its own child of the
 * per-JVM root allocator and owns it; the sink's encode operator closes both. Emitted with {@link
 * ArrowBatch#emitTo} so a hand-over that fails (e.g. on cancel) frees the batch.
 */
public final class BatchOfRows implements FlatMapFunction<Long, ArrowBatch> {
    private static final long serialVersionUID = 1L;

    private final int rowsPerBatch;

    public BatchOfRows(int rowsPerBatch) {
        this.rowsPerBatch = rowsPerBatch;
    }

    @Override
    public void flatMap(Long batchIndex, Collector<ArrowBatch> out) {
        build(batchIndex).emitTo(out);
    }

    /** Batch {@code batchIndex}; the caller owns it. */
    public ArrowBatch build(long batchIndex) {
        BufferAllocator allocator = ArrowMemory.newChild("test-batch-" + batchIndex, 64L << 20);
        try {
            return ArrowBatch.of(TestRows.batch(batchIndex * rowsPerBatch, rowsPerBatch, allocator), allocator);
        } catch (RuntimeException e) {
            allocator.close();
            throw e;
        }
    }
}
