package io.columnarkafka.planner.match;

import java.util.Optional;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.config.ExecutionConfigOptions.SinkKeyedShuffle;

/**
 * How Flink 2.2.1's sink node moves a table's rows to its sink's subtasks, as far as the Arrow-fed sink can follow it.
 * {@code CommonExecSink.createSinkTransformation} runs the sink at {@code sink.parallelism}, else at the input's
 * parallelism; for a table with a primary key, {@code applyKeyBy} puts a keyed shuffle by the key
 * ({@code KeyGroupStreamPartitioner}, 128 key groups) in front of it under {@code table.exec.sink.keyed-shuffle}
 * {@code AUTO} (the default) when the sink's parallelism differs from the input's and is not 1, under {@code FORCE}
 * whenever it is not 1, never under {@code NONE}; without one, a sink at another parallelism than the input's gets
 * the rows round-robin, each row to the next subtask.
 *
 * <p>The Arrow-fed sink gets whole batches: chained to its input at the input's parallelism, which gives every row to
 * the subtask Flink's forward edge gives it, or all at one subtask. The input's parallelism is the translation's,
 * unknown while planning, so a keyed table's sink whose parallelism is set above 1 (its rows shuffled by key or
 * round-robin, unless the input happens to run at it) or that forces the keyed shuffle (at the input's parallelism,
 * unless that is 1) keeps Flink's sink node behind the edge to rows. Which subtask writes a row decides which
 * producer sends it, and, with {@code sink.buffer-flush.*}, which rows one reducing buffer reduces per key.
 */
final class SinkExchange {
    private SinkExchange() {}

    /**
     * Why Flink's sink node may move the rows of a table ({@code keyed}: with a primary key) otherwise than the
     * Arrow-fed sink, which runs at {@code parallelism} ({@code sink.parallelism}, null for the input's); empty when
     * every row reaches the subtask Flink's node gives it.
     */
    static Optional<String> unlikeFlinks(boolean keyed, Integer parallelism, ReadableConfig config) {
        if (!keyed || (parallelism != null && parallelism == 1)) {
            return Optional.empty(); // no keyed shuffle, or every row at the one subtask
        }
        SinkKeyedShuffle shuffle = config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_KEYED_SHUFFLE);
        if (parallelism == null) {
            return shuffle == SinkKeyedShuffle.FORCE
                    ? Optional.of("table.exec.sink.keyed-shuffle FORCE: Flink's sink node shuffles the rows by the"
                            + " primary key unless the input runs at parallelism 1")
                    : Optional.empty(); // the input's parallelism: forward
        }
        return Optional.of("sink.parallelism " + parallelism + " with a primary key: unless the input runs at "
                + parallelism + ", Flink's sink node " + (shuffle == SinkKeyedShuffle.NONE
                        ? "hands the rows round-robin to its subtasks (table.exec.sink.keyed-shuffle NONE)"
                        : "shuffles the rows by the primary key (table.exec.sink.keyed-shuffle " + shuffle + ")"));
    }
}
