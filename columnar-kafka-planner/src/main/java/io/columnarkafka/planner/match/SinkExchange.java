package io.columnarkafka.planner.match;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.RowType;

/**
 * How Flink 2.2.1 moves a table's rows from the input's subtasks to its sink's, which the Arrow-fed sink reproduces
 * on the batches. {@code CommonExecSink.createSinkTransformation} decides by the parallelism the sink's runtime
 * provider reports (Flink's Kafka table sink reports {@code sink.parallelism}, except with {@code
 * sink.buffer-flush.*} on an upsert table, where it reports none and sets it on its sink itself), else the input's:
 * for a table with a primary key, {@code applyKeyBy} puts a keyed shuffle by the key ({@code
 * KeyGroupStreamPartitioner}) in front of the sink under {@code table.exec.sink.keyed-shuffle} {@code AUTO} (the
 * default) when that parallelism differs from the input's and is not 1, under {@code FORCE} whenever it is not 1, never
 * under {@code NONE}. Without one, a sink at another parallelism than the input's gets the rows round-robin ({@code
 * RebalancePartitioner}), each row to the next subtask. The input's parallelism is known when the job is translated,
 * where Flink decides it too; EXPLAIN says what may happen ({@link #explain}).
 */
public final class SinkExchange {
    private SinkExchange() {}

    /** How the rows reach the sink's subtasks. */
    public enum Move {
        /** As they come: forward at the input's parallelism, or all to the one subtask of a sink at parallelism 1. */
        AS_IS,
        /** By the primary key's key group. */
        KEY_GROUPS,
        /** Each row to the next subtask. */
        ROUND_ROBIN
    }

    /**
     * The primary key's columns in the sink's physical row, which its input's rows lead with, as Flink's sink node
     * reads them ({@code CommonExecSink.getPrimaryKeyIndices}); empty without a primary key.
     */
    public static int[] primaryKey(ResolvedSchema schema) {
        List<String> physical = ((RowType) schema.toPhysicalRowDataType().getLogicalType()).getFieldNames();
        return schema.getPrimaryKey().map(key -> key.getColumns().stream().mapToInt(physical::indexOf).toArray())
                .orElse(new int[0]);
    }

    /**
     * How Flink moves the rows of a table ({@code keyed}: with a primary key) whose provider reports {@code reported}
     * (null for none), into a sink at {@code configured} ({@code sink.parallelism}, null for the input's), from an
     * input at {@code inputParallelism}.
     */
    public static Move flinks(boolean keyed, Integer reported, Integer configured, int inputParallelism,
            ReadableConfig config) {
        int sinkParallelism = configured != null ? configured : inputParallelism;
        int decidedBy = reported != null ? reported : inputParallelism;
        boolean keyBy = keyed && switch (config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_KEYED_SHUFFLE)) {
            case NONE -> false;
            case AUTO -> decidedBy != inputParallelism && decidedBy != 1;
            case FORCE -> decidedBy != 1;
        };
        if (keyBy) {
            return Move.KEY_GROUPS; // at sink parallelism 1 too (FORCE with buffer-flush): every row's group is 0's
        }
        return sinkParallelism == 1 || sinkParallelism == inputParallelism ? Move.AS_IS : Move.ROUND_ROBIN;
    }

    /**
     * What EXPLAIN says of the moves {@link #flinks} may make for some input parallelism; empty where the rows always
     * go as they are.
     */
    public static Optional<String> explain(boolean keyed, Integer reported, Integer configured, ReadableConfig config) {
        Set<Move> moves = EnumSet.noneOf(Move.class);
        // What decides is whether the input runs at 1, at the sink's parallelism, or at another.
        int[] inputs = configured == null ? new int[] {1, 2} : new int[] {1, configured, configured + 1};
        for (int input : inputs) {
            moves.add(flinks(keyed, reported, configured, input, config));
        }
        moves.remove(Move.AS_IS);
        if (moves.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of((moves.contains(Move.KEY_GROUPS) ? "by the primary key" : "")
                + (moves.size() == 2 ? " or " : "") + (moves.contains(Move.ROUND_ROBIN) ? "round-robin" : "")
                + " where Flink moves the rows (sink parallelism "
                + (configured == null ? "the input's" : configured + (reported == null ? ", not reported" : ""))
                + ", table.exec.sink.keyed-shuffle " + config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_KEYED_SHUFFLE)
                + ")");
    }
}
