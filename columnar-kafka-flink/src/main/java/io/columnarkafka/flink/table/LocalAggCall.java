package io.columnarkafka.flink.table;

import java.io.Serializable;

/**
 * One aggregate call of a vectorised local aggregate, with the accumulator fields Flink's declarative function
 * keeps for it, in the order Flink's local aggregate emits them.
 *
 * @param function the function
 * @param column the argument column, -1 for {@code COUNT(*)}
 * @param type the argument's type for SUM, SUM0, MAX, MIN and AVG (VARCHAR for MAX and MIN only) and for a {@code COUNT(DISTINCT col)} (VARCHAR too), null for the other counts
 * @param filterColumn the BOOLEAN NOT NULL input column of its {@code FILTER (WHERE ...)} (Flink's planner makes
 *     it {@code IS TRUE(...)}), -1 without one; a row whose filter is false is not accumulated
 * @param distinct a {@code COUNT(DISTINCT col)}: its count is Flink's inner COUNT, accumulated only for a value
 *     its filter had not yet let through in the flush; the distinct values themselves are kept per column
 *     ({@link DistinctValues}) and emitted after every call's fields, as Flink's distinct accumulator (a
 *     {@code MapView} of value to the bit-set of the calls that saw it)
 * @param scale a DECIMAL argument's scale, which its sum keeps ({@code DECIMAL(38, scale)}, Flink's {@code
 *     LogicalTypeMerging.findSumAggType}) and its MAX or MIN ({@code DECIMAL(p, scale)}, p up to 18); 0 for the other
 *     types
 */
public record LocalAggCall(Function function, int column, AggColumnType type, int filterColumn, boolean distinct,
        int scale) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The precision of a DECIMAL sum's accumulator: Flink's {@code findSumAggType} gives the widest. */
    public static final int DECIMAL_SUM_PRECISION = 38;

    /** A call whose argument, if any, is not a DECIMAL. */
    public LocalAggCall(Function function, int column, AggColumnType type, int filterColumn, boolean distinct) {
        this(function, column, type, filterColumn, distinct, 0);
    }

    /**
     * The most DISTINCT calls of one column: Flink keeps a distinct value's calls' bits in one long up to this many
     * (a long[] past it), and the vectorised operator holds the calls a row passes in one long.
     */
    public static final int MAX_DISTINCT_CALLS = Long.SIZE;

    /**
     * The functions whose local accumulators are one or two fields, as Flink's declarative functions keep them
     * (longs, or a MAX's or MIN's string), or one structured field (a retracting MAX's or MIN's). Over a changelog
     * Flink's local phase retracts each UPDATE_BEFORE and DELETE row (its functions' retract methods or
     * expressions): counts go one down, sums subtract, a value's row count goes one down; only COUNT(*), COUNT,
     * SUM_RETRACT, $SUM0, AVG, MAX_RETRACT and MIN_RETRACT are computed there.
     */
    public enum Function {
        /** {@code COUNT(*)} ({@code Count1AggFunction}): a BIGINT count of rows, never null. */
        COUNT_STAR(1),
        /** {@code COUNT(col)} ({@code CountAggFunction}): a BIGINT count of non-null values, never null. */
        COUNT(1),
        /**
         * {@code SUM(col)}: the argument's type (a DECIMAL's {@code DECIMAL(38, scale)}), null until a non-null
         * value, Java's wrapping addition (a DECIMAL's exact, in 128 bits).
         */
        SUM(1),
        /**
         * {@code SUM(col)} over a changelog ({@code SumWithRetractAggFunction}): the sum in the argument's type, null
         * until a non-null value is accumulated (added) or retracted (subtracted from 0 the first time), Java's
         * wrapping arithmetic; then a BIGINT count of the non-null values, one up per accumulated, one down per
         * retracted, never null.
         */
        SUM_RETRACT(2),
        /**
         * {@code $SUM0(col)} ({@code Sum0AggFunction}, what Flink's planner reduces a SUM to beside an AVG of the
         * same column): the argument's type from 0, Java's wrapping addition of the non-null values, never null.
         */
        SUM0(1),
        /**
         * {@code MAX(col)}: the first non-null value, replaced by a greater one (a VARCHAR's by its UTF-8 bytes
         * compared unsigned, as {@code BinaryStringData.compareTo}).
         */
        MAX(1),
        /** {@code MIN(col)}: the first non-null value, replaced by a smaller one (a VARCHAR's likewise). */
        MIN(1),
        /**
         * {@code MAX(col)} over a changelog ({@code MaxWithRetractAggFunction}): one structured field of the greatest
         * value (null when none), the number of values whose row count is above 0, and the heap {@code MapView} of
         * each value to its row count ({@link ExtremeWithRetract}).
         */
        MAX_RETRACT(1),
        /** {@code MIN(col)} over a changelog ({@code MinWithRetractAggFunction}): as MAX_RETRACT, the smallest value. */
        MIN_RETRACT(1),
        /**
         * {@code AVG(col)} ({@code AvgAggFunction}, INT and BIGINT): a BIGINT sum from 0 (long arithmetic,
         * wrapping) and a BIGINT count, both of the non-null values and never null (over a changelog a retracted
         * value is subtracted and uncounted).
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

    /** Whether this is a retracting MAX or MIN: one structured field, its state an {@link ExtremeWithRetract}. */
    public boolean extremeWithRetract() {
        return function == Function.MAX_RETRACT || function == Function.MIN_RETRACT;
    }

    /**
     * Whether this is a sum (SUM, $SUM0, AVG, a retracting SUM) of a DECIMAL, kept in 128 bits as Flink's {@code
     * DECIMAL(38, scale)}; a MAX's or MIN's DECIMAL is its compact unscaled long.
     */
    public boolean sumsDecimal() {
        return type == AggColumnType.DECIMAL && switch (function) {
            case SUM, SUM0, AVG, SUM_RETRACT -> true;
            default -> false;
        };
    }

    /** {@code COUNT(*)}, {@code SUM($2)}, {@code COUNT(*) FILTER $5}, {@code COUNT(DISTINCT $1) FILTER $5}. */
    @Override
    public String toString() {
        String call = function == Function.COUNT_STAR ? "COUNT(*)"
                : function + (distinct ? "(DISTINCT $" : "($") + column + ")";
        return filterColumn < 0 ? call : call + " FILTER $" + filterColumn;
    }
}
