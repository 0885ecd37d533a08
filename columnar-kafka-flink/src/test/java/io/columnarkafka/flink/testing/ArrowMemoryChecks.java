package io.columnarkafka.flink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;

/** Asserts that the columnar operators' Arrow memory was all given back. */
public final class ArrowMemoryChecks {
    private ArrowMemoryChecks() {}

    /**
     * Every Arrow allocator of the columnar operators (under {@link ArrowMemory}'s root) closed with nothing
     * outstanding once the job ended. Tasks of a failed or finished job may still be closing, so this waits up
     * to 30 s before asserting.
     */
    public static void assertReleased() throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while ((ArrowMemory.allocatedBytes() != 0 || ArrowMemory.openAllocators() != 0)
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        assertThat(ArrowMemory.openAllocators()).as(ArrowMemory.describe()).isZero();
    }
}
