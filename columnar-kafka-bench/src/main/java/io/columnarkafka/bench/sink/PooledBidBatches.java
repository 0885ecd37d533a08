package io.columnarkafka.bench.sink;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Variant (b)'s pooled input: one Arrow batch of pool rows {@code [0, batch size)} is filled once per
 * subtask, and each batch index is emitted as a zero-copy slice of it, as an engine handing over batches
 * it already holds would. Before each slice the pool's dateTime column is rewritten to the batch's rows
 * ({@link PooledIds}: one long per row); the encode operator, chained behind, encodes a batch before the
 * next one is emitted (and an unchained one receives an IPC copy). A slice holds references to the pool's buffers; the encode operator releases
 * them when it closes the batch, and {@link #close} frees the pool.
 */
final class PooledBidBatches extends RichFlatMapFunction<Long, ArrowBatch> {
    private static final long serialVersionUID = 1L;
    /** A 4096-row Bid batch takes about 1 MiB of vectors; the bound only catches runaway sizes. */
    private static final long POOL_MEMORY_LIMIT = 256L << 20;

    private static final int DATE_TIME = 5;

    private final BatchRange range;
    private transient BufferAllocator allocator;
    private transient VectorSchemaRoot pool;

    PooledBidBatches(BatchRange range) {
        this.range = range;
    }

    @Override
    public void open(OpenContext context) {
        allocator = ArrowMemory.newChild("bench-bid-pool", POOL_MEMORY_LIMIT);
        pool = VectorSchemaRoot.create(ArrowLayout.schema(BidGenerator.BID_TYPE), allocator);
        new BidGenerator(RunSpec.SEED).fill(pool, 0, range.batchSize());
    }

    @Override
    public void flatMap(Long batch, Collector<ArrowBatch> out) {
        long first = range.firstRow(batch);
        int n = range.size(batch);
        TimeStampMilliVector dateTime = (TimeStampMilliVector) pool.getVector(DATE_TIME);
        for (int r = 0; r < n; r++) {
            dateTime.set(r, PooledIds.dateTimeMillis(first + r, range.batchSize()));
        }
        ArrowBatch.of(pool.slice(0, n), null).emitTo(out);
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.close();
            allocator.close();
        }
    }
}
