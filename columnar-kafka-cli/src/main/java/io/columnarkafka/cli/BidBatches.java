package io.columnarkafka.cli;

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
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Batch index to an Arrow batch of Nexmark bids: batch {@code b} holds rows {@code [b * batchSize,
 * min(rows, (b + 1) * batchSize))}, so a restarted source regenerates exactly the same rows. Each batch
 * owns a child allocator of the per-JVM root; the sink's encode operator closes both. A flat-map, so that
 * {@link ArrowBatch#emitTo} frees a batch whose hand-over fails (e.g. on cancel). The demo's input, and
 * the sink benchmark's generated input.
 */
public final class BidBatches extends RichFlatMapFunction<Long, ArrowBatch> {
    private static final long serialVersionUID = 1L;
    /** Generous per batch: a 16k-row Bid batch takes about 4 MiB of vectors. */
    private static final long BATCH_MEMORY_LIMIT = 256L << 20;

    private final long rows;
    private final int batchSize;
    private final long seed;
    private transient BidGenerator generator;
    /** Per column: the data bytes of the previous batch, so the next one is allocated once at its size. */
    private transient long[] lastDataBytes;

    public BidBatches(long rows, int batchSize, long seed) {
        this.rows = rows;
        this.batchSize = batchSize;
        this.seed = seed;
    }

    public static long batchCount(long rows, int batchSize) {
        return (rows + batchSize - 1) / batchSize;
    }

    @Override
    public void open(OpenContext context) {
        generator = new BidGenerator(seed);
        lastDataBytes = new long[BidGenerator.BID_TYPE.getFieldCount()];
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
            allocate(root, n);
            generator.fill(root, from, n);
            remember(root, n);
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

    /**
     * Sizes every vector for {@code n} rows up front, as a producer that knows its batch size would, so
     * filling never reallocates (and copies) a growing buffer; string data as large as the last batch's
     * plus an eighth. The first batch grows as it goes.
     */
    private void allocate(VectorSchemaRoot root, int n) {
        List<FieldVector> vectors = root.getFieldVectors();
        for (int c = 0; c < vectors.size(); c++) {
            FieldVector vector = vectors.get(c);
            if (vector instanceof BaseVariableWidthVector strings) {
                if (lastDataBytes[c] > 0) {
                    strings.allocateNew(lastDataBytes[c] + lastDataBytes[c] / 8, n);
                }
            } else if (vector instanceof BaseFixedWidthVector fixed) {
                fixed.allocateNew(n);
            }
        }
    }

    private void remember(VectorSchemaRoot root, int n) {
        List<FieldVector> vectors = root.getFieldVectors();
        for (int c = 0; c < vectors.size(); c++) {
            if (vectors.get(c) instanceof BaseVariableWidthVector strings && n > 0) {
                lastDataBytes[c] = strings.getEndOffset(n - 1);
            }
        }
    }
}
