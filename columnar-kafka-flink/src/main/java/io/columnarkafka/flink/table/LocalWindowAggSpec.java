package io.columnarkafka.flink.table;

import java.io.Serializable;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What {@link VectorLocalWindowAggOperator} computes, planned once from Flink's local window aggregate node: the
 * grouping columns, the rowtime column and the slices of its window (Flink's slice assigners: a slice end is the
 * start of the slice holding the row's timestamp, with the window's offset, plus the slice size), and one
 * the accumulator fields of each aggregate call, laid out as Flink's local aggregate emits them: keys, accumulators,
 * distinct columns' maps, slice end. Its calls are the group aggregate's; a HOP's end with the COUNT(*) Flink
 * appends when the query has none (its global phase counts each slice's rows), and the same need makes a HOP's
 * distinct accumulators count each value's rows per call.
 *
 * @param keyColumns input columns of the grouping keys, in Flink's key order
 * @param keyTypes the type of each key column
 * @param rowtimeColumn the input column of the window's rowtime (TIMESTAMP(3), so no time zone shift)
 * @param sliceSize the slice size in milliseconds (a TUMBLE's size, a HOP's gcd of size and slide, a CUMULATE's
 *     step)
 * @param offset the window's offset in milliseconds (0 without one)
 * @param aggregates the aggregate calls, in Flink's order (a HOP's appended COUNT(*) last)
 * @param distinctRowCounts Flink's distinct accumulators consume retractions ({@code consumeRetraction}: its
 *     {@code needInputCount}, a HOP's or a changelog's): each distinct value maps to a count of its rows per call,
 *     not to the calls' bit-set
 * @param rowKindColumn over a changelog, the batches' row-kind column (its UPDATE_BEFORE and DELETE rows are
 *     retracted, the others accumulated, as Flink's {@code LocalAggCombiner}); -1 for an insert-only input
 */
public record LocalWindowAggSpec(int[] keyColumns, AggColumnType[] keyTypes, int rowtimeColumn, long sliceSize,
        long offset, LocalAggCall[] aggregates, boolean distinctRowCounts, int rowKindColumn)
        implements Serializable {

    /** {@code keys=[$0], slices=[2000 ms, offset 0], aggregates=[COUNT(*)]}. */
    public String describe() {
        return "keys=" + Arrays.stream(keyColumns).mapToObj(c -> "$" + c).collect(Collectors.joining(", ", "[", "]"))
                + ", slices=[" + sliceSize + " ms, offset " + offset + " ms]"
                + ", aggregates=" + Arrays.toString(aggregates)
                + (distinctRowCounts && Arrays.stream(aggregates).anyMatch(LocalAggCall::distinct)
                        ? ", distinct values counting their rows" : "")
                + (rowKindColumn < 0 ? "" : ", retracting by $" + rowKindColumn);
    }
}
