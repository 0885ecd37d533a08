package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.batch.Selections;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.util.Collector;

/**
 * The sending side of an exchange Flink's sink node puts in front of a sink, on Arrow batches ({@link
 * BatchExchange}): the subclass picks each written row's sink subtask as Flink's partitioner picks it for the row,
 * and each batch leaves as one part per sink subtask that gets rows of it, {@code (subtask, batch of those rows, in
 * order)} (the batch itself where one subtask gets them all), which {@link BatchPartPartitioner} sends there. Every
 * sink subtask so gets the rows Flink's would, each input subtask's in their order.
 */
abstract class BatchSplit extends RichFlatMapFunction<ArrowBatch, Tuple2<Integer, ArrowBatch>> {
    private static final long serialVersionUID = 1L;

    final int sinkParallelism;

    private transient BufferAllocator allocator;

    BatchSplit(int sinkParallelism) {
        this.sinkParallelism = sinkParallelism;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        // Only a batch that crossed a shuffle is read into this allocator; a chained one stays where it is.
        allocator = ArrowMemory.newChild(
                "columnar-kafka-split " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(),
                ColumnarKafkaSink.DEFAULT_ALLOCATOR_LIMIT);
    }

    /**
     * The sink subtask of each written row of {@code root}: rows {@code selection[0..count)}, or the first {@code
     * count}.
     */
    abstract int[] subtasksOf(VectorSchemaRoot root, int[] selection, int count) throws Exception;

    @Override
    public void flatMap(ArrowBatch batch, Collector<Tuple2<Integer, ArrowBatch>> out) throws Exception {
        VectorSchemaRoot root = null;
        int[] subtasks;
        try {
            root = batch.open(allocator);
            subtasks = subtasksOf(root, batch.selection(), batch.selectedCount(allocator));
        } catch (Exception | Error e) {
            batch.close();
            throw e;
        }
        int[] rowsPerSubtask = new int[sinkParallelism];
        for (int subtask : subtasks) {
            rowsPerSubtask[subtask]++;
        }
        int whole = IntStream.range(0, sinkParallelism).filter(s -> rowsPerSubtask[s] == subtasks.length)
                .findFirst().orElse(-1);
        if (subtasks.length > 0 && whole >= 0) {
            batch.emitTo(new PartCollector(whole, out)); // one subtask gets every row: the batch itself, handed on
            return;
        }
        try {
            for (int subtask = 0; subtask < sinkParallelism; subtask++) {
                if (rowsPerSubtask[subtask] > 0) {
                    int[] part = partOf(subtask, subtasks, batch.selection(), rowsPerSubtask[subtask]);
                    ArrowBatch.of(Selections.compact(root, part, part.length), null)
                            .emitTo(new PartCollector(subtask, out));
                }
            }
        } finally {
            batch.close();
        }
    }

    /** The batch rows, ascending, of the written rows that go to {@code subtask}. */
    private static int[] partOf(int subtask, int[] subtasks, int[] selection, int size) {
        int[] part = new int[size];
        int n = 0;
        for (int i = 0; i < subtasks.length; i++) {
            if (subtasks[i] == subtask) {
                part[n++] = selection == null ? i : selection[i];
            }
        }
        return part;
    }

    @Override
    public void close() {
        try {
            if (allocator != null) {
                allocator.close(); // reports a part's batch never freed
            }
        } finally {
            allocator = null;
        }
    }

    /** Hands a part's batch on with its subtask, so {@link ArrowBatch#emitTo} guards the hand-over. */
    private record PartCollector(int subtask, Collector<Tuple2<Integer, ArrowBatch>> out)
            implements Collector<ArrowBatch> {
        @Override
        public void collect(ArrowBatch part) {
            out.collect(Tuple2.of(subtask, part));
        }

        @Override
        public void close() {}
    }
}
