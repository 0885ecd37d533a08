package io.columnarkafka.flink.calc;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The Flink operator of a columnar calc: {@link ArrowBatch} in, {@link ArrowBatch} out. Each subtask
 * plans the program once in {@link #open()}, with its own bounded child allocator of {@link ArrowMemory};
 * a batch in which no row passes the condition is freed and not emitted. Close frees the plan and the
 * allocator (closing it reports a leak).
 *
 * <p>Each output batch is lent ({@link ArrowBatch#lent()}) and freed when the hand-over returns, as the planner
 * scan lends its batches: Flink hands an element to every chained consumer in turn, and serializes it for every
 * shuffle, inside that one call, so one calc can feed several consumers. This is what lets Flink's sub-plan
 * reuse merge two equal calcs of a query (and the row operators above them: Nexmark q5 counts its windows
 * once, as stock Flink does, instead of keeping two equal window aggregates and their state). A consumer reads
 * the batch while it handles it; one that keeps its columns in a batch of its own holds them through Arrow's
 * reference counts.
 */
public final class ColumnarCalcOperator extends AbstractStreamOperator<ArrowBatch>
        implements OneInputStreamOperator<ArrowBatch, ArrowBatch> {
    private static final long serialVersionUID = 1L;

    /** Bound of each subtask's Arrow allocator. */
    public static final long DEFAULT_ALLOCATOR_LIMIT = 256L << 20;

    private final CalcProgram program;
    private final long allocatorLimit;

    private transient BufferAllocator allocator;
    private transient ColumnarCalc calc;

    public ColumnarCalcOperator(CalcProgram program) {
        this(program, DEFAULT_ALLOCATOR_LIMIT);
    }

    public ColumnarCalcOperator(CalcProgram program, long allocatorLimit) {
        this.program = program;
        this.allocatorLimit = allocatorLimit;
    }

    @Override
    public void open() throws Exception {
        super.open();
        allocator = ArrowMemory.newChild(
                "columnar-calc " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(), allocatorLimit);
        // the runtime context opens Flink's generated code of any user-defined function call, as Flink's Calc does
        calc = ColumnarCalc.plan(program, allocator, getRuntimeContext());
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) {
        ArrowBatch result = calc.apply(element.getValue());
        if (result.selection() != null && result.selectedCount(allocator) == 0) {
            result.close();
            return;
        }
        result.lendFor(batch -> output.collect(element.replace(batch)));
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            ColumnarCalc toClose = calc;
            BufferAllocator allocatorToClose = allocator;
            calc = null;
            allocator = null;
            if (toClose != null) {
                toClose.close();
            }
            if (allocatorToClose != null) {
                allocatorToClose.close();
            }
        }
    }

    /** The program, for EXPLAIN and operator names. */
    public CalcProgram program() {
        return program;
    }
}
