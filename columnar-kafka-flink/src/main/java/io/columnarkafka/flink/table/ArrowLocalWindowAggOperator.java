package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.internals.PrivateMembers;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.format.arrow.ArrowRowView;
import java.time.ZoneId;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.operators.aggregate.window.LocalSlicingWindowAggOperator;
import org.apache.flink.table.runtime.operators.aggregate.window.buffers.WindowBuffer;
import org.apache.flink.table.runtime.operators.window.tvf.slicing.SliceAssigner;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's local window aggregate ({@link LocalSlicingWindowAggOperator}, the operator Flink's planner built for
 * the node, with its generated key selector, slice assigner and combiner) reading each {@link ArrowBatch} in place:
 * every selected row goes to Flink's {@code processElement} as a view over the vectors ({@link ArrowRowView}),
 * so no row is copied on the way in, where the Arrow-to-rows edge in front of Flink's operator copied each row
 * (Flink's chained output with object reuse off). Watermarks, the flush on watermark progress, the flush before a
 * checkpoint barrier, the buffer and the emitted rows are Flink's operator's own: only the input differs.
 *
 * <p>Flink's operator is declared on {@code RowData}; its input here is batches, so {@link #processElement} takes
 * the erased record and reads its value as the batch. Reading the view during {@code processElement} only is
 * Flink's object-reuse contract, which its window buffer keeps (it serializes the key and the row it buffers).
 */
public final class ArrowLocalWindowAggOperator extends LocalSlicingWindowAggOperator {
    private static final long serialVersionUID = 1L;

    private final RowType inputType;

    private transient BufferAllocator allocator;
    private transient ArrowRowView view;
    private transient StreamRecord<RowData> row;

    private ArrowLocalWindowAggOperator(RowDataKeySelector keySelector, SliceAssigner sliceAssigner,
            WindowBuffer.LocalFactory windowBufferFactory, ZoneId shiftTimezone, RowType inputType) {
        super(keySelector, sliceAssigner, windowBufferFactory, shiftTimezone);
        this.inputType = inputType;
    }

    /**
     * The private fields of Flink 2.2.1's operator this one reads, probed once per JVM; the planner asks {@link
     * #unreadableParts} before it admits the row view, so {@link #of} never meets a missing one.
     */
    private static volatile PrivateMembers parts = probeParts(LocalSlicingWindowAggOperator.class);

    /**
     * Probes {@code holder} for the parts instead of Flink's operator class: a seam for the planner's test of another
     * Flink version (one whose operator keeps its parts elsewhere), which points it at a class without them.
     */
    static void probePartsOf(Class<?> holder) {
        parts = probeParts(holder);
    }

    private static PrivateMembers probeParts(Class<?> holder) {
        return PrivateMembers.of(holder).field("keySelector", RowDataKeySelector.class)
                .field("sliceAssigner", SliceAssigner.class).field("windowBufferFactory", WindowBuffer.LocalFactory.class)
                .field("shiftTimezone", ZoneId.class).probe();
    }

    /**
     * Empty when this Flink's operator keeps its parts where Flink 2.2.1 does and they can be read, so {@link #of}
     * can read them; else what is missing (the planner then keeps Flink's node, with this as the reason).
     */
    public static Optional<String> unreadableParts() {
        return parts.unreadable().map(why -> why + " (not Flink 2.2.1)");
    }

    /**
     * The same operator as {@code flinks} (Flink's planner's, for the same node), reading batches of {@code
     * inputType}. Flink 2.2.1 keeps the operator's parts in private final fields and generates them in private
     * planner code, so they are read from the operator it built; only when {@link #unreadableParts} is empty.
     */
    public static ArrowLocalWindowAggOperator of(LocalSlicingWindowAggOperator flinks, RowType inputType) {
        PrivateMembers read = parts;
        return new ArrowLocalWindowAggOperator(read.read(flinks, "keySelector", RowDataKeySelector.class),
                read.read(flinks, "sliceAssigner", SliceAssigner.class),
                read.read(flinks, "windowBufferFactory", WindowBuffer.LocalFactory.class),
                read.read(flinks, "shiftTimezone", ZoneId.class), inputType);
    }

    @Override
    public void open() throws Exception {
        super.open();
        // Only a batch that crossed a shuffle is read into this allocator; a chained one stays where it is.
        allocator = ArrowMemory.newChild(
                "columnar-kafka-local-window-agg " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(),
                ColumnarKafkaSink.DEFAULT_ALLOCATOR_LIMIT);
        view = new ArrowRowView(inputType);
        row = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        Object value = element.getValue(); // a batch: see the class comment
        ArrowBatch batch = (ArrowBatch) value;
        try {
            VectorSchemaRoot root = batch.open(allocator);
            view.bind(root);
            int[] selection = batch.selection();
            int count = batch.selectedCount(allocator);
            for (int i = 0; i < count; i++) {
                super.processElement(row.replace(view.row(selection == null ? i : selection[i])));
            }
        } finally {
            batch.close();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            if (allocator != null) {
                allocator.close();
                allocator = null;
            }
        }
    }
}
