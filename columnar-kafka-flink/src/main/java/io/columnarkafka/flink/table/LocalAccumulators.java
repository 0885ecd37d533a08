package io.columnarkafka.flink.table;

import static io.columnarkafka.flink.table.BatchKeyColumns.row;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;

/**
 * The accumulators of a vectorised local aggregate's calls ({@link LocalAggCall}), kept as columns of its {@link
 * GroupTable} (a call's fields side by side, in Flink's order): a batch's rows accumulated into their groups' entries
 * one call at a time, column by column, as Flink's declarative functions' accumulate expressions would, row after
 * row; and an entry's accumulators written out as Flink's local aggregate emits them.
 */
final class LocalAccumulators {
    private final LocalAggCall[] calls;
    /** The table column of each call's first accumulator field. */
    private final int[] firstColumn;
    private final int width;

    LocalAccumulators(LocalAggCall[] calls) {
        this.calls = calls.clone();
        firstColumn = new int[calls.length];
        int column = 0;
        for (int a = 0; a < calls.length; a++) {
            firstColumn[a] = column;
            column += calls[a].function().accumulators();
        }
        width = column;
    }

    /** The number of accumulator fields (the table's accumulator columns, the output row's fields after the keys). */
    int width() {
        return width;
    }

    /** Accumulates the batch's selected rows [from, to) into their entries, {@code entries[j]} row j's. */
    void accumulate(GroupTable table, VectorSchemaRoot root, int[] selection, int[] entries, int from, int to) {
        for (int a = 0; a < calls.length; a++) {
            LocalAggCall call = calls[a];
            long[] values = table.accValues(firstColumn[a]);
            FieldVector filter = call.filterColumn() < 0 ? null : root.getVector(call.filterColumn());
            FieldVector argument = call.column() < 0 ? null : root.getVector(call.column());
            switch (call.function()) {
                case COUNT_STAR -> {
                    for (int j = from; j < to; j++) {
                        if (passes(filter, row(selection, j))) {
                            values[entries[j]]++;
                        }
                    }
                }
                case COUNT -> {
                    for (int j = from; j < to; j++) {
                        int row = row(selection, j);
                        if (passes(filter, row) && !argument.isNull(row)) {
                            values[entries[j]]++;
                        }
                    }
                }
                case SUM0 -> accumulateSums(call, argument, filter, values, null, selection, entries, from, to);
                case AVG -> accumulateSums(call, argument, filter, values, table.accValues(firstColumn[a] + 1),
                        selection, entries, from, to);
                case SUM, MAX, MIN -> accumulateValues(call, argument, filter, values,
                        table.accSet(firstColumn[a]), selection, entries, from, to);
            }
        }
    }

    /** True when the row is accumulated: no filter, or a true one (false and null are not). */
    private static boolean passes(FieldVector filter, int row) {
        return filter == null || !filter.isNull(row) && BitVectorHelper.get(filter.getDataBuffer(), row) != 0;
    }

    private static long value(ArrowBuf data, boolean isInt, int row) {
        return isInt ? data.getInt((long) row * IntVector.TYPE_WIDTH)
                : data.getLong((long) row * BigIntVector.TYPE_WIDTH);
    }

    private static void accumulateValues(LocalAggCall call, FieldVector argument, FieldVector filter, long[] values,
            boolean[] set, int[] selection, int[] entries, int from, int to) {
        boolean isInt = call.type() == AggColumnType.INT;
        ArrowBuf data = argument.getDataBuffer();
        for (int j = from; j < to; j++) {
            int row = row(selection, j);
            if (argument.isNull(row) || !passes(filter, row)) {
                continue;
            }
            long value = value(data, isInt, row);
            int entry = entries[j];
            if (!set[entry]) {
                values[entry] = value;
                set[entry] = true;
                continue;
            }
            long acc = values[entry];
            values[entry] = switch (call.function()) {
                // Flink's generated plus on the accumulator's type: int or long arithmetic, wrapping
                case SUM -> isInt ? (int) acc + (int) value : acc + value;
                case MAX -> value > acc ? value : acc;
                case MIN -> value < acc ? value : acc;
                default -> throw new IllegalStateException(call.toString());
            };
        }
    }

    /**
     * $SUM0 ({@code counts} null: from 0 in the argument's type, int arithmetic wrapping an INT's) or AVG (a BIGINT
     * sum from 0, long arithmetic, and its count), over the non-null values.
     */
    private static void accumulateSums(LocalAggCall call, FieldVector argument, FieldVector filter, long[] sums,
            long[] counts, int[] selection, int[] entries, int from, int to) {
        boolean isInt = call.type() == AggColumnType.INT;
        boolean intSum = isInt && counts == null;
        ArrowBuf data = argument.getDataBuffer();
        for (int j = from; j < to; j++) {
            int row = row(selection, j);
            if (argument.isNull(row) || !passes(filter, row)) {
                continue;
            }
            int entry = entries[j];
            long sum = sums[entry] + value(data, isInt, row);
            sums[entry] = intSum ? (int) sum : sum;
            if (counts != null) {
                counts[entry]++;
            }
        }
    }

    /** Sets fields [offset, offset + width) of {@code out} to the entry's accumulators, as Flink's row holds them. */
    void into(GroupTable table, int entry, GenericRowData out, int offset) {
        for (int a = 0; a < calls.length; a++) {
            LocalAggCall call = calls[a];
            int column = firstColumn[a];
            long value = table.accValues(column)[entry];
            switch (call.function()) {
                case COUNT_STAR, COUNT -> out.setField(offset + column, value);
                case SUM0 -> out.setField(offset + column,
                        call.type() == AggColumnType.INT ? (Object) (int) value : value);
                case AVG -> {
                    out.setField(offset + column, value);
                    out.setField(offset + column + 1, table.accValues(column + 1)[entry]);
                }
                case SUM, MAX, MIN -> {
                    if (table.accSet(column)[entry]) {
                        out.setField(offset + column, call.type() == AggColumnType.INT ? (Object) (int) value : value);
                    }
                }
            }
        }
    }
}
