package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.format.arrow.ArrowRowView;
import java.lang.reflect.Field;
import java.time.ZoneId;
import java.util.Map;
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

    /** The private fields of Flink 2.2.1's operator this one reads, and their types. */
    private static final Map<String, Class<?>> PARTS = Map.of("keySelector", RowDataKeySelector.class,
            "sliceAssigner", SliceAssigner.class, "windowBufferFactory", WindowBuffer.LocalFactory.class,
            "shiftTimezone", ZoneId.class);

    /**
     * The class whose fields are read: Flink's operator. A seam for the planner's test of another Flink version
     * (one whose operator keeps its parts elsewhere), which points it at a class without them.
     */
    static Class<?> partsHolder = LocalSlicingWindowAggOperator.class;

    /**
     * Empty when this Flink's operator keeps its parts where Flink 2.2.1 does, so {@link #of} can read them;
     * else what is missing (the planner then keeps Flink's node, with this as the reason).
     */
    public static Optional<String> unreadableParts() {
        for (Map.Entry<String, Class<?>> part : PARTS.entrySet()) {
            try {
                Field field = partsHolder.getDeclaredField(part.getKey());
                if (!part.getValue().isAssignableFrom(field.getType())) {
                    return Optional.of(partsHolder.getName() + "." + part.getKey() + " is a " + field.getType()
                            .getName() + ", not a " + part.getValue().getName() + " (not Flink 2.2.1)");
                }
            } catch (NoSuchFieldException e) {
                return Optional.of(partsHolder.getName() + " has no field " + part.getKey() + " (not Flink 2.2.1)");
            }
        }
        return Optional.empty();
    }

    /**
     * The same operator as {@code flinks} (Flink's planner's, for the same node), reading batches of {@code
     * inputType}. Flink 2.2.1 keeps the operator's parts in private final fields and generates them in private
     * planner code, so they are read from the operator it built; the planner asks {@link #unreadableParts} first.
     */
    public static ArrowLocalWindowAggOperator of(LocalSlicingWindowAggOperator flinks, RowType inputType) {
        return new ArrowLocalWindowAggOperator(field(flinks, "keySelector", RowDataKeySelector.class),
                field(flinks, "sliceAssigner", SliceAssigner.class),
                field(flinks, "windowBufferFactory", WindowBuffer.LocalFactory.class),
                field(flinks, "shiftTimezone", ZoneId.class), inputType);
    }

    private static <T> T field(LocalSlicingWindowAggOperator operator, String name, Class<T> type) {
        try {
            Field field = partsHolder.getDeclaredField(name);
            field.setAccessible(true);
            return type.cast(field.get(operator));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Flink's LocalSlicingWindowAggOperator has no field " + name
                    + " of " + type.getSimpleName() + ": not Flink 2.2.1", e);
        }
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
