package io.columnarkafka.flink.batch;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The one Arrow root allocator of this JVM (of this class loader, strictly). Every encode operator
 * takes a bounded child of it, so a task manager's Arrow memory is accounted in one tree and a test
 * can check that a finished or cancelled job left nothing allocated.
 *
 * <p>The root itself is unbounded: the bound that matters is per operator ({@code setAllocatorLimit}),
 * because one slow subtask must not starve the others.
 */
public final class ArrowMemory {
    private static final RootAllocator ROOT = new RootAllocator(Long.MAX_VALUE);

    private ArrowMemory() {}

    /**
     * A child of the root limited to {@code limitBytes}; closing it fails if anything allocated from it
     * is still open, which is how leaks surface.
     */
    public static BufferAllocator newChild(String name, long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("Arrow allocator limit must be positive, got " + limitBytes);
        }
        return ROOT.newChildAllocator(name, 0, limitBytes);
    }

    /** Bytes currently allocated anywhere under the root; zero when every batch and operator is closed. */
    public static long allocatedBytes() {
        return ROOT.getAllocatedMemory();
    }

    /** Number of child allocators still open under the root. */
    public static int openAllocators() {
        return ROOT.getChildAllocators().size();
    }

    /** The open child allocators with their allocated bytes, for diagnosing a leak. */
    public static String describe() {
        StringBuilder s = new StringBuilder("Arrow root: ").append(ROOT.getAllocatedMemory()).append(" bytes");
        for (BufferAllocator child : ROOT.getChildAllocators()) {
            s.append("; ").append(child.getName()).append(": ").append(child.getAllocatedMemory()).append(" bytes");
        }
        return s.toString();
    }
}
