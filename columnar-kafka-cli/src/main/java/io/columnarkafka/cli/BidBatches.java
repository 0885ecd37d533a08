package io.columnarkafka.cli;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Batch index to an Arrow batch of Nexmark bids: batch {@code b} holds rows {@code [b * batchSize,
 * min(rows, (b + 1) * batchSize))}, so a restarted source regenerates exactly the same rows. Each batch
 * owns a child allocator of the per-JVM root; the sink's encode operator closes both. A flat-map, so that
 * {@link ArrowBatch#emitTo} frees a batch whose hand-over fails (e.g. on cancel).
 */
final class BidBatches extends RichFlatMapFunction<Long, ArrowBatch> {
    private static final long serialVersionUID = 1L;
    /** Generous per batch: a 16k-row Bid batch takes about 4 MiB of vectors. */
    private static final long BATCH_MEMORY_LIMIT = 256L << 20;

    private final long rows;
    private final int batchSize;
    private final long seed;
    private transient BidGenerator generator;

    BidBatches(long rows, int batchSize, long seed) {
        this.rows = rows;
        this.batchSize = batchSize;
        this.seed = seed;
    }

    static long batchCount(long rows, int batchSize) {
        return (rows + batchSize - 1) / batchSize;
    }

    @Override
    public void open(OpenContext context) {
        generator = new BidGenerator(seed);
    }

    @Override
    public void flatMap(Long batchIndex, Collector<ArrowBatch> out) {
        long from = batchIndex * batchSize;
        int n = (int) Math.min(batchSize, rows - from);
        BufferAllocator allocator = ArrowMemory.newChild("bids-" + batchIndex, BATCH_MEMORY_LIMIT);
        VectorSchemaRoot root = null;
        ArrowBatch batch;
        try {
            root = VectorSchemaRoot.create(ArrowLayout.schema(BidGenerator.BID_TYPE), allocator);
            generator.fill(root, from, n);
            batch = ArrowBatch.of(root, allocator);
        } catch (RuntimeException e) {
            if (root != null) {
                root.close();
            }
            allocator.close();
            throw e;
        }
        batch.emitTo(out);
    }
}
