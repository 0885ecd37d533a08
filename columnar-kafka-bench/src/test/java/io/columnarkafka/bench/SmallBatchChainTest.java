package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.bench.SmallBatchChain.DecoderBuffers;
import io.columnarkafka.bench.SmallBatchChain.Stage;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.AllocationListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/** The two sides {@code bin/bench-batch-size --buffers paired} compares are what they claim to be. */
class SmallBatchChainTest {
    private static final int STEPS = 40;

    @Test
    void aKeptChainsDecoderBuildsItsBatchesInTheBuffersOfTheBatchBefore() {
        // Buffers grow only when a batch needs more (a longer string), so a few allocations over many steps.
        assertThat(allocationsPerStep(DecoderBuffers.KEPT, Stage.DECODE)).isLessThan(1);
        assertThat(allocationsPerStep(DecoderBuffers.KEPT, Stage.EDGE)).isLessThan(1);
    }

    @Test
    void aFreshChainsDecoderAllocatesEveryBatchsBuffers() {
        // The event row's columns: a buffer (or one allocation for a fixed-width vector's two) per vector.
        assertThat(allocationsPerStep(DecoderBuffers.FRESH, Stage.DECODE)).isGreaterThan(20);
        assertThat(allocationsPerStep(DecoderBuffers.FRESH, Stage.EDGE)).isGreaterThan(20);
    }

    /** The reader's allocations per step of a 64-row chain after its first steps; the allocators close at zero. */
    private static double allocationsPerStep(DecoderBuffers buffers, Stage stage) {
        AtomicLong allocations = new AtomicLong();
        AtomicLong counting = new AtomicLong();
        AllocationListener listener = new AllocationListener() {
            @Override
            public void onAllocation(long size) {
                allocations.addAndGet(counting.get());
            }
        };
        try (BufferAllocator root = new RootAllocator(listener, Long.MAX_VALUE)) {
            BufferAllocator readers = root.newChildAllocator("chains", listener, 0, Long.MAX_VALUE);
            SmallBatchChain chain = new SmallBatchChain(64, readers, CalcBenchmark.q0(), buffers);
            try {
                for (int i = 0; i < 8; i++) {
                    chain.step(stage);
                }
                counting.set(1);
                for (int i = 0; i < STEPS; i++) {
                    assertThat(chain.step(stage)).isPositive();
                }
            } finally {
                chain.close();
            }
            assertThat(readers.getAllocatedMemory()).isZero();
            readers.close();
        }
        return (double) allocations.get() / STEPS;
    }
}
