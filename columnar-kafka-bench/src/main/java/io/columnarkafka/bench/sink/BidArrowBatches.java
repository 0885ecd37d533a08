package io.columnarkafka.bench.sink;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/**
 * Variant (b)'s rows: batch index to one Arrow batch of its Nexmark bids, in a child allocator that the
 * batch owns (the sink's encode operator closes both), as the demo job builds them.
 */
final class BidArrowBatches extends RichMapFunction<Long, ArrowBatch> {
    private static final long serialVersionUID = 1L;
    /** A 4096-row Bid batch takes about 1 MiB of vectors; the bound only catches runaway sizes. */
    private static final long BATCH_MEMORY_LIMIT = 256L << 20;

    private final BatchRange range;
    private transient BidGenerator generator;

    BidArrowBatches(BatchRange range) {
        this.range = range;
    }

    @Override
    public void open(OpenContext context) {
        generator = new BidGenerator(RunSpec.SEED);
    }

    @Override
    public ArrowBatch map(Long batch) {
        BufferAllocator allocator = ArrowMemory.newChild("bench-bids-" + batch, BATCH_MEMORY_LIMIT);
        VectorSchemaRoot root = null;
        try {
            root = VectorSchemaRoot.create(ArrowLayout.schema(BidGenerator.BID_TYPE), allocator);
            generator.fill(root, range.firstRow(batch), range.size(batch));
            return ArrowBatch.of(root, allocator);
        } catch (RuntimeException e) {
            if (root != null) {
                root.close();
            }
            allocator.close();
            throw e;
        }
    }
}
