package io.columnarkafka.bench.sink;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/**
 * Variant (b)'s rows: batch index to one Arrow batch of its Nexmark bids.
 *
 * <p>Pooled input: one batch of pool rows {@code [0, batch size)} is filled once per subtask, and each
 * emitted batch is a zero-copy slice of it (the slice holds references to the pool's buffers, which the
 * encode operator releases when it closes the batch), as an engine handing over batches it already
 * holds would. Generated input: each batch is filled as it goes, in a child allocator that the batch
 * owns, as the demo job builds them.
 */
final class BidArrowBatches extends RichMapFunction<Long, ArrowBatch> {
    private static final long serialVersionUID = 1L;
    /** A 4096-row Bid batch takes about 1 MiB of vectors; the bound only catches runaway sizes. */
    private static final long BATCH_MEMORY_LIMIT = 256L << 20;

    private final BatchRange range;
    private final boolean pooled;
    private transient BidGenerator generator;
    private transient BufferAllocator poolAllocator;
    private transient VectorSchemaRoot pool;
    /** Per column: the data bytes of the previous batch, so the next one is allocated once at its size. */
    private transient long[] lastDataBytes;

    BidArrowBatches(BatchRange range, boolean pooled) {
        this.range = range;
        this.pooled = pooled;
    }

    @Override
    public void open(OpenContext context) {
        generator = new BidGenerator(RunSpec.SEED);
        lastDataBytes = new long[BidGenerator.BID_TYPE.getFieldCount()];
        if (pooled) {
            poolAllocator = ArrowMemory.newChild("bench-bid-pool", BATCH_MEMORY_LIMIT);
            pool = VectorSchemaRoot.create(ArrowLayout.schema(BidGenerator.BID_TYPE), poolAllocator);
            generator.fill(pool, 0, range.batchSize());
        }
    }

    @Override
    public ArrowBatch map(Long batch) {
        if (pooled) {
            return ArrowBatch.of(pool.slice(0, range.size(batch)), null);
        }
        BufferAllocator allocator = ArrowMemory.newChild("bench-bids-" + batch, BATCH_MEMORY_LIMIT);
        VectorSchemaRoot root = null;
        try {
            root = VectorSchemaRoot.create(ArrowLayout.schema(BidGenerator.BID_TYPE), allocator);
            int rows = range.size(batch);
            allocate(root, rows);
            generator.fill(root, range.firstRow(batch), rows);
            remember(root, rows);
            return ArrowBatch.of(root, allocator);
        } catch (RuntimeException e) {
            if (root != null) {
                root.close();
            }
            allocator.close();
            throw e;
        }
    }

    /**
     * Sizes every vector for {@code rows} up front, as a producer that knows its batch size would, so
     * filling never reallocates (and copies) a growing buffer; string data as large as the last batch's
     * plus an eighth. The first batch grows as it goes.
     */
    private void allocate(VectorSchemaRoot root, int rows) {
        List<FieldVector> vectors = root.getFieldVectors();
        for (int c = 0; c < vectors.size(); c++) {
            FieldVector vector = vectors.get(c);
            if (vector instanceof BaseVariableWidthVector strings) {
                if (lastDataBytes[c] > 0) {
                    strings.allocateNew(lastDataBytes[c] + lastDataBytes[c] / 8, rows);
                }
            } else if (vector instanceof BaseFixedWidthVector fixed) {
                fixed.allocateNew(rows);
            }
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.close();
            poolAllocator.close();
        }
    }

    private void remember(VectorSchemaRoot root, int rows) {
        List<FieldVector> vectors = root.getFieldVectors();
        for (int c = 0; c < vectors.size(); c++) {
            if (vectors.get(c) instanceof BaseVariableWidthVector strings && rows > 0) {
                lastDataBytes[c] = strings.getEndOffset(rows - 1);
            }
        }
    }
}
