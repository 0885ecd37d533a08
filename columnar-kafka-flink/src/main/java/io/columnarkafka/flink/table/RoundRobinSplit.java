package io.columnarkafka.flink.table;

import java.util.concurrent.ThreadLocalRandom;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.OpenContext;

/**
 * The round-robin edge Flink puts between an input and a sink of another parallelism where its sink node shuffles
 * nothing ({@code RebalancePartitioner}), on Arrow batches: each row to the next sink subtask, from one Flink draws at
 * random when the subtask starts, as its partitioner does.
 */
final class RoundRobinSplit extends BatchSplit {
    private static final long serialVersionUID = 1L;

    /** The sink subtask the last row went to. */
    private transient int last;

    RoundRobinSplit(int sinkParallelism) {
        super(sinkParallelism);
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        super.open(openContext);
        last = ThreadLocalRandom.current().nextInt(sinkParallelism);
    }

    @Override
    int[] subtasksOf(VectorSchemaRoot root, int[] selection, int count) {
        int[] subtasks = new int[count];
        for (int i = 0; i < count; i++) {
            last = (last + 1) % sinkParallelism;
            subtasks[i] = last;
        }
        return subtasks;
    }
}
