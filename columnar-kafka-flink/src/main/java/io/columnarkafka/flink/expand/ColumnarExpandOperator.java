package io.columnarkafka.flink.expand;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.calc.ColumnarCalcOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The Flink operator of a columnar {@code Expand}: {@link ArrowBatch} in, its {@link ColumnarExpand expansion} out,
 * one batch per input batch with a selected row. Each subtask has its own bounded child allocator of {@link
 * ArrowMemory}; close frees it (closing it reports a leak). Each output batch is lent for the hand-over and freed when
 * it returns, as {@link ColumnarCalcOperator}'s are, so equal consumers merged by sub-plan reuse can share it. Keeps
 * no state: watermarks and barriers pass as Flink's Expand operator passes them.
 */
public final class ColumnarExpandOperator extends AbstractStreamOperator<ArrowBatch>
        implements OneInputStreamOperator<ArrowBatch, ArrowBatch> {
    private static final long serialVersionUID = 1L;

    private final ExpandSpec spec;

    private transient BufferAllocator allocator;
    private transient ColumnarExpand expand;

    public ColumnarExpandOperator(ExpandSpec spec) {
        this.spec = spec;
    }

    @Override
    public void open() throws Exception {
        super.open();
        allocator = ArrowMemory.newChild("columnar-expand " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(),
                ColumnarCalcOperator.DEFAULT_ALLOCATOR_LIMIT);
        expand = new ColumnarExpand(spec, allocator);
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) {
        ArrowBatch result = expand.apply(element.getValue());
        if (result == null) {
            return;
        }
        result.lendFor(batch -> output.collect(element.replace(batch)));
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            BufferAllocator toClose = allocator;
            allocator = null;
            expand = null;
            if (toClose != null) {
                toClose.close();
            }
        }
    }

    /** The spec, for EXPLAIN and tests. */
    public ExpandSpec spec() {
        return spec;
    }
}
