package io.columnarkafka.flink.table;

import java.io.Serializable;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What {@link VectorLocalWindowAggOperator} computes, planned once from Flink's local window aggregate node: the
 * grouping columns, the rowtime column and the slices of its window (Flink's slice assigners: a slice end is the
 * start of the slice holding the row's timestamp, with the window's offset, plus the slice size), and one
 * accumulator per aggregate call, laid out as Flink's local aggregate emits them: keys, accumulators, slice end.
 *
 * @param keyColumns input columns of the grouping keys, in Flink's key order
 * @param keyTypes the type of each key column
 * @param rowtimeColumn the input column of the window's rowtime (TIMESTAMP(3), so no time zone shift)
 * @param sliceSize the slice size in milliseconds (a TUMBLE's size, a HOP's gcd of size and slide, a CUMULATE's
 *     step)
 * @param offset the window's offset in milliseconds (0 without one)
 * @param aggregates the aggregate calls, in Flink's order
 */
public record LocalWindowAggSpec(int[] keyColumns, ColumnType[] keyTypes, int rowtimeColumn, long sliceSize,
        long offset, Aggregate[] aggregates) implements Serializable {

    /** Key and accumulator column types read from the vectors. */
    public enum ColumnType { INT, BIGINT, VARCHAR }

    /** The aggregate functions whose local accumulator is one value, as Flink's declarative functions keep it. */
    public enum Function {
        /** {@code COUNT(*)}: a BIGINT count of rows, never null. */
        COUNT_STAR,
        /** {@code COUNT(col)}: a BIGINT count of non-null values, never null. */
        COUNT,
        /** {@code SUM(col)}: the argument's type, null until a non-null value, Java's wrapping addition. */
        SUM,
        /** {@code MAX(col)}: the first non-null value, replaced by a greater one. */
        MAX,
        /** {@code MIN(col)}: the first non-null value, replaced by a smaller one. */
        MIN
    }

    /**
     * One aggregate call.
     *
     * @param function the function
     * @param column the argument column, -1 for {@code COUNT(*)}
     * @param type the argument's type for SUM, MAX and MIN (the accumulator's), null for the counts
     */
    public record Aggregate(Function function, int column, ColumnType type) implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public String toString() {
            return function == Function.COUNT_STAR ? "COUNT(*)" : function + "($" + column + ")";
        }
    }

    /** {@code keys=[$0], slices=[2000 ms, offset 0], aggregates=[COUNT(*)]}. */
    public String describe() {
        return "keys=" + Arrays.stream(keyColumns).mapToObj(c -> "$" + c).collect(Collectors.joining(", ", "[", "]"))
                + ", slices=[" + sliceSize + " ms, offset " + offset + " ms]"
                + ", aggregates=" + Arrays.toString(aggregates);
    }
}
