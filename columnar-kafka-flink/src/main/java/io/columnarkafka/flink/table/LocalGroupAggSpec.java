package io.columnarkafka.flink.table;

import java.io.Serializable;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What {@link VectorLocalGroupAggOperator} computes, planned once from Flink's local group aggregate node (the first
 * phase of a mini-batch two-phase group aggregate): the grouping columns and the aggregate calls, laid out as
 * Flink's local aggregate emits them: keys, then each call's accumulator fields.
 *
 * @param keyColumns input columns of the grouping keys, in Flink's key order (none: one global group)
 * @param keyTypes the type of each key column
 * @param aggregates the aggregate calls, in Flink's order
 * @param rowKindColumn over a changelog, the batches' row-kind column (its UPDATE_BEFORE and DELETE rows are
 *     retracted, the others accumulated, as Flink's {@code MiniBatchLocalGroupAggFunction}); -1 for an insert-only
 *     input
 */
public record LocalGroupAggSpec(int[] keyColumns, AggColumnType[] keyTypes, LocalAggCall[] aggregates,
        int rowKindColumn) implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * {@code keys=[$0, $1], aggregates=[COUNT(*), COUNT(*) FILTER $3, AVG($2)]}, then {@code , retracting by $4}
     * over a changelog.
     */
    public String describe() {
        return "keys=" + Arrays.stream(keyColumns).mapToObj(c -> "$" + c).collect(Collectors.joining(", ", "[", "]"))
                + ", aggregates=" + Arrays.toString(aggregates)
                + (rowKindColumn < 0 ? "" : ", retracting by $" + rowKindColumn);
    }
}
