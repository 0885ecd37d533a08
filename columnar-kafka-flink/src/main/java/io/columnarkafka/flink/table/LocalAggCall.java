package io.columnarkafka.flink.table;

import java.io.Serializable;

/**
 * One aggregate call of a vectorised local aggregate, with the accumulator fields Flink's declarative function
 * keeps for it, in the order Flink's local aggregate emits them.
 *
 * @param function the function
 * @param column the argument column, -1 for {@code COUNT(*)}
 * @param type the argument's type for SUM, SUM0, MAX, MIN and AVG, null for the counts
 * @param filterColumn the BOOLEAN NOT NULL input column of its {@code FILTER (WHERE ...)} (Flink's planner makes
 *     it {@code IS TRUE(...)}), -1 without one; a row whose filter is false is not accumulated
 */
public record LocalAggCall(Function function, int column, AggColumnType type, int filterColumn)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The functions whose local accumulators are longs, as Flink's declarative functions keep them. */
    public enum Function {
        /** {@code COUNT(*)} ({@code Count1AggFunction}): a BIGINT count of rows, never null. */
        COUNT_STAR(1),
        /** {@code COUNT(col)} ({@code CountAggFunction}): a BIGINT count of non-null values, never null. */
        COUNT(1),
        /** {@code SUM(col)}: the argument's type, null until a non-null value, Java's wrapping addition. */
        SUM(1),
        /**
         * {@code $SUM0(col)} ({@code Sum0AggFunction}, what Flink's planner reduces a SUM to beside an AVG of the
         * same column): the argument's type from 0, Java's wrapping addition of the non-null values, never null.
         */
        SUM0(1),
        /** {@code MAX(col)}: the first non-null value, replaced by a greater one. */
        MAX(1),
        /** {@code MIN(col)}: the first non-null value, replaced by a smaller one. */
        MIN(1),
        /**
         * {@code AVG(col)} ({@code AvgAggFunction}, INT and BIGINT): a BIGINT sum from 0 (long arithmetic,
         * wrapping) and a BIGINT count, both of the non-null values and never null.
         */
        AVG(2);

        private final int accumulators;

        Function(int accumulators) {
            this.accumulators = accumulators;
        }

        /** How many accumulator fields Flink's function keeps (its aggregate buffer's width). */
        public int accumulators() {
            return accumulators;
        }
    }

    /** {@code COUNT(*)}, {@code SUM($2)}, {@code COUNT(*) FILTER $5}. */
    @Override
    public String toString() {
        String call = function == Function.COUNT_STAR ? "COUNT(*)" : function + "($" + column + ")";
        return filterColumn < 0 ? call : call + " FILTER $" + filterColumn;
    }
}
