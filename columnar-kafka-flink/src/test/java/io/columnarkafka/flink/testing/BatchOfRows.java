package io.columnarkafka.flink.testing;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * Batch index to Arrow batch: batch {@code b} holds rows {@code b * rowsPerBatch ..} of {@link
 * TestRows}, so a restarted source regenerates the same rows. Each batch gets its own child of the
 * per-JVM root allocator and owns it; the sink's encode operator closes both.
 */
public final class BatchOfRows implements MapFunction<Long, ArrowBatch> {
    private static final long serialVersionUID = 1L;

    private final int rowsPerBatch;

    public BatchOfRows(int rowsPerBatch) {
        this.rowsPerBatch = rowsPerBatch;
    }

    @Override
    public ArrowBatch map(Long batchIndex) {
        BufferAllocator allocator = ArrowMemory.newChild("test-batch-" + batchIndex, 64L << 20);
        try {
            return ArrowBatch.of(TestRows.batch(batchIndex * rowsPerBatch, rowsPerBatch, allocator), allocator);
        } catch (RuntimeException e) {
            allocator.close();
            throw e;
        }
    }
}
