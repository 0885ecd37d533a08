package io.columnarkafka.planner.match;

import io.columnarkafka.flink.table.AggColumnType;
import io.columnarkafka.flink.table.LocalAggCall;
import io.columnarkafka.flink.table.LocalAggCall.Function;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The parts of a local aggregate's translation the window and the group aggregate share: the grouping keys'
 * types, each aggregate call as a {@link LocalAggCall} (as Flink's retracting function over a changelog, and with the
 * COUNT(*) Flink appends for its input count), and the check that Flink's local output row is exactly the keys and
 * the calls' accumulator fields (then what the caller adds after them), of the types the vectorised operator writes.
 */
final class LocalAggCalls {
    private LocalAggCalls() {}

    /** The types of the grouping columns: INT, BIGINT or VARCHAR. */
    static AggColumnType[] keyTypes(int[] grouping, RowType input) throws NotTranslatable {
        AggColumnType[] keyTypes = new AggColumnType[grouping.length];
        for (int k = 0; k < grouping.length; k++) {
            keyTypes[k] = columnType(input.getTypeAt(grouping[k]), "key " + input.getFieldNames().get(grouping[k]),
                    true);
        }
        return keyTypes;
    }

    /**
     * The calls as the vectorised operator computes them: COUNT(*), COUNT(col), SUM, $SUM0 (Flink's planner's
     * reduction of a SUM beside an AVG), MAX, MIN and AVG of INT or BIGINT, SUM, $SUM0, AVG, MAX and MIN of DECIMAL
     * up to precision 18, MAX and MIN of VARCHAR and of TIMESTAMP or TIMESTAMP_LTZ up to precision 3 (not retracting,
     * {@link #retracting}), and COUNT(DISTINCT col) of an INT, BIGINT or VARCHAR (at most 64 such calls per column:
     * Flink's bit-set is one long), each with or without a FILTER (a BOOLEAN NOT NULL column: Flink's planner filters
     * on IS TRUE(...)); never another DISTINCT call, APPROXIMATE or WITHIN GROUP.
     */
    static LocalAggCall[] of(List<AggregateCall> calls, RowType input) throws NotTranslatable {
        LocalAggCall[] translated = new LocalAggCall[calls.size()];
        for (int a = 0; a < calls.size(); a++) {
            translated[a] = call(calls.get(a), input);
        }
        for (LocalAggCall call : translated) {
            long sharing = Arrays.stream(translated).filter(c -> c.distinct() && c.column() == call.column()).count();
            if (call.distinct() && sharing > LocalAggCall.MAX_DISTINCT_CALLS) {
                throw new NotTranslatable(sharing + " DISTINCT calls of $" + call.column() + " (at most "
                        + LocalAggCall.MAX_DISTINCT_CALLS + ": Flink's bit-set for more is a long[] per value)");
            }
        }
        return translated;
    }

    private static LocalAggCall call(AggregateCall call, RowType input) throws NotTranslatable {
        if (call.isDistinct() && (call.getAggregation().getKind() != SqlKind.COUNT || call.getArgList().size() != 1)) {
            throw new NotTranslatable(call + ": DISTINCT other than COUNT(DISTINCT col) of one column");
        }
        if (call.isApproximate() || !call.getCollation().getFieldCollations().isEmpty()) {
            throw new NotTranslatable(call + ": APPROXIMATE or WITHIN GROUP");
        }
        int filter = call.filterArg;
        if (filter >= 0 && (input.getTypeAt(filter).getTypeRoot() != LogicalTypeRoot.BOOLEAN
                || input.getTypeAt(filter).isNullable())) {
            // Flink's planner filters on IS TRUE(...), never null
            throw new NotTranslatable(call + ": a FILTER of type " + input.getTypeAt(filter)
                    + " (only BOOLEAN NOT NULL)");
        }
        List<Integer> args = call.getArgList();
        switch (call.getAggregation().getKind()) {
            case COUNT:
                if (args.isEmpty()) {
                    return new LocalAggCall(Function.COUNT_STAR, -1, null, filter, false);
                }
                if (args.size() == 1 && call.isDistinct()) {
                    AggColumnType type = columnType(input.getTypeAt(args.get(0)), call.toString(), true);
                    return new LocalAggCall(Function.COUNT, args.get(0), type, filter, true);
                }
                if (args.size() == 1) {
                    return new LocalAggCall(Function.COUNT, args.get(0), null, filter, false);
                }
                throw new NotTranslatable(call + ": COUNT of several columns");
            case SUM:
                return sumCall(Function.SUM, call, input);
            case MAX:
                return extremeCall(Function.MAX, call, input);
            case MIN:
                return extremeCall(Function.MIN, call, input);
            case SUM0:
                return sumCall(Function.SUM0, call, input);
            case AVG:
                return sumCall(Function.AVG, call, input);
            default:
                throw new NotTranslatable(call + ": only COUNT, SUM, $SUM0, MAX, MIN, AVG");
        }
    }

    /**
     * SUM, $SUM0 or AVG: of INT or BIGINT, or of a DECIMAL whose unscaled values are longs (precision up to 18),
     * summed exactly in 128 bits into Flink's {@code DECIMAL(38, scale)}.
     */
    private static LocalAggCall sumCall(Function function, AggregateCall call, RowType input) throws NotTranslatable {
        int column = call.getArgList().get(0);
        if (input.getTypeAt(column) instanceof DecimalType decimal) {
            return compactDecimalCall(function, call, decimal, "a value beyond a long's would not be summed in 128"
                    + " bits");
        }
        return valueCall(function, call, input, false);
    }

    /**
     * MAX or MIN: of INT, BIGINT or VARCHAR, or of a DECIMAL whose unscaled values are longs (precision up to 18),
     * compared as longs, as {@code DecimalData.compareTo} compares compact values of one scale.
     */
    private static LocalAggCall extremeCall(Function function, AggregateCall call, RowType input)
            throws NotTranslatable {
        LogicalType type = input.getTypeAt(call.getArgList().get(0));
        if (type instanceof DecimalType decimal) {
            return compactDecimalCall(function, call, decimal, "its values are compared as longs");
        }
        if (type.is(LogicalTypeFamily.TIMESTAMP) && type.getTypeRoot() != LogicalTypeRoot.TIMESTAMP_WITH_TIME_ZONE) {
            if (LogicalTypeChecks.getPrecision(type) > MAX_COMPACT_TIMESTAMP_PRECISION) {
                throw new NotTranslatable(call + " of type " + type + " (a TIMESTAMP up to precision 3: epoch millis)");
            }
            // Flink compares whole timestamps, sub-millisecond digits a json row holds beyond the precision included,
            // but writes the extreme's millis only: the greatest (smallest) millis
            return new LocalAggCall(function, call.getArgList().get(0), AggColumnType.TIMESTAMP, call.filterArg, false);
        }
        return valueCall(function, call, input, true);
    }

    /** Flink's {@code TimestampData.isCompact}: a binary row keeps a timestamp of up to this precision as its millis. */
    private static final int MAX_COMPACT_TIMESTAMP_PRECISION = 3;

    private static LocalAggCall compactDecimalCall(Function function, AggregateCall call, DecimalType decimal,
            String why) throws NotTranslatable {
        if (!DecimalData.isCompact(decimal.getPrecision())) {
            throw new NotTranslatable(call + " of type " + decimal + " (a DECIMAL up to precision 18: " + why + ")");
        }
        return new LocalAggCall(function, call.getArgList().get(0), AggColumnType.DECIMAL, call.filterArg, false,
                decimal.getScale());
    }

    private static LocalAggCall valueCall(Function function, AggregateCall call, RowType input,
            boolean varcharAllowed) throws NotTranslatable {
        int column = call.getArgList().get(0);
        AggColumnType type = columnType(input.getTypeAt(column), call.toString(), varcharAllowed);
        return new LocalAggCall(function, column, type, call.filterArg, false);
    }

    private static AggColumnType columnType(LogicalType type, String what, boolean varcharAllowed)
            throws NotTranslatable {
        switch (type.getTypeRoot()) {
            case INTEGER:
                return AggColumnType.INT;
            case BIGINT:
                return AggColumnType.BIGINT;
            case VARCHAR:
                if (varcharAllowed) {
                    return AggColumnType.VARCHAR;
                }
                break;
            default:
                break;
        }
        boolean floating = type.getTypeRoot() == LogicalTypeRoot.DOUBLE || type.getTypeRoot() == LogicalTypeRoot.FLOAT;
        throw new NotTranslatable(what + " of type " + type + " (only " + (varcharAllowed ? "INT, BIGINT, VARCHAR"
                : floating ? "INT, BIGINT: a DOUBLE's merged parts depend on where Flink's buffer fills"
                : "INT, BIGINT") + ")");
    }

    /** The largest DECIMAL scale whose retracting SUM Flink adds without rounding ({@link #retracting}). */
    private static final int MAX_RETRACTING_DECIMAL_SCALE = 6;

    /**
     * The calls as Flink's retracting functions: SUM keeps a count beside its sum; MAX and MIN keep their values' row
     * counts ({@code MaxWithRetractAggFunction}, {@code MinWithRetractAggFunction}); a COUNT(DISTINCT) stays one (its
     * column's values then count their rows per call, {@code consumeRetraction}).
     */
    static LocalAggCall[] retracting(LocalAggCall[] calls) throws NotTranslatable {
        LocalAggCall[] retracting = new LocalAggCall[calls.length];
        for (int a = 0; a < calls.length; a++) {
            LocalAggCall call = calls[a];
            if (call.type() == AggColumnType.TIMESTAMP) {
                throw new NotTranslatable(call + " of a TIMESTAMP over a changelog (Flink's retracting " + call.function()
                        + " keys its map by whole timestamps, sub-millisecond digits included, which the row's"
                        + " TIMESTAMP(3) drops)");
            }
            if (call.function() == Function.SUM && call.type() == AggColumnType.DECIMAL
                    && call.scale() > MAX_RETRACTING_DECIMAL_SCALE) {
                // SumWithRetractAggFunction adds with plus, whose DECIMAL(38, s) + DECIMAL(p, s) Flink types with
                // LogicalTypeMerging.findAdditionDecimalType: 39 digits, cut to 38 by giving up a digit of scale
                // down to 6, so each step past scale 6 rounds, which the exact sum here would not
                throw new NotTranslatable(call + " of scale " + call.scale() + " over a changelog (Flink's retracting"
                        + " SUM rounds each step to scale " + (call.scale() - 1) + ")");
            }
            Function function = switch (call.function()) {
                case SUM -> Function.SUM_RETRACT;
                case MAX -> Function.MAX_RETRACT;
                case MIN -> Function.MIN_RETRACT;
                default -> call.function();
            };
            retracting[a] = new LocalAggCall(function, call.column(), call.type(), call.filterColumn(), call.distinct(),
                    call.scale());
        }
        return retracting;
    }

    /**
     * {@code aggregates} (translated from {@code calls}) with the COUNT(*) Flink's {@code AggregateUtil} appends for
     * the input count it needs (a HOP window's global phase, a group aggregate over a changelog) when none of the
     * calls is one.
     */
    static LocalAggCall[] withInputCount(List<AggregateCall> calls, LocalAggCall[] aggregates) {
        if (calls.stream().anyMatch(LocalAggCalls::isInputCount)) {
            return aggregates;
        }
        LocalAggCall[] withCount = Arrays.copyOf(aggregates, aggregates.length + 1);
        withCount[aggregates.length] = new LocalAggCall(Function.COUNT_STAR, -1, null, -1, false);
        return withCount;
    }

    /**
     * The type the operator writes a SUM's, $SUM0's, MAX's or MIN's value in: INT, BIGINT, STRING, or a MAX's or MIN's
     * DECIMAL argument's own type.
     */
    private static LogicalType valueType(LocalAggCall call, RowType input) {
        return switch (call.type()) {
            case INT -> new IntType();
            case BIGINT -> new BigIntType();
            case VARCHAR -> VarCharType.STRING_TYPE;
            case DECIMAL, TIMESTAMP -> input.getTypeAt(call.column());
        };
    }

    /** The same root and, for a DECIMAL or a TIMESTAMP, the same precision (and scale); nullability aside. */
    private static boolean sameType(LogicalType actual, LogicalType expected) {
        return actual.getTypeRoot() == expected.getTypeRoot()
                && (!(expected instanceof DecimalType) || actual.copy(true).equals(expected.copy(true)))
                && (!expected.is(LogicalTypeFamily.TIMESTAMP)
                        || LogicalTypeChecks.getPrecision(actual) == LogicalTypeChecks.getPrecision(expected));
    }

    /**
     * Checks that a retracting MAX's or MIN's field is Flink's structured accumulator: the value's type, a BIGINT
     * {@code mapSize}, and the heap {@code MapView} (RAW).
     */
    private static void checkExtremeWithRetract(RowType output, int field, LogicalType valueType, LocalAggCall call,
            AggregateCall flinkCall) throws NotTranslatable {
        LogicalType actual = output.getTypeAt(field);
        List<LogicalType> parts = actual.getChildren();
        if (actual.getTypeRoot() != LogicalTypeRoot.STRUCTURED_TYPE || parts.size() != 3
                || !sameType(parts.get(0), valueType)
                || parts.get(1).getTypeRoot() != LogicalTypeRoot.BIGINT
                || parts.get(2).getTypeRoot() != LogicalTypeRoot.RAW) {
            throw new NotTranslatable("accumulator " + output.getFieldNames().get(field) + " of "
                    + (flinkCall != null ? flinkCall : call) + " is " + actual + ", not Flink's retracting "
                    + call.function() + "'s (the value, a BIGINT mapSize, a MapView)");
        }
    }

    /** A call Flink's {@code insertCountStarAggCall} takes for the input count: COUNT(*) without FILTER. */
    private static boolean isInputCount(AggregateCall call) {
        return call.getAggregation().getKind() == SqlKind.COUNT && call.getArgList().isEmpty() && call.filterArg < 0
                && !call.isApproximate() && !call.isDistinct();
    }

    /**
     * Checks that Flink's local output {@code output} is the {@code keys} keys, each call's accumulator fields of
     * the types the vectorised operator writes (BIGINT for the counts, a distinct one's too, and AVG's sum and
     * count, the argument's type for SUM, $SUM0, MAX and MIN, a retracting MAX's or MIN's structured one), a RAW
     * field (Flink's distinct {@code MapView}) per distinct column, then {@code trailing} more fields. {@code calls} may end with calls Flink's planner added
     * after {@code flinkCalls}.
     */
    static void checkOutput(RowType output, RowType input, int keys, LocalAggCall[] calls,
            List<AggregateCall> flinkCalls, int trailing) throws NotTranslatable {
        int accumulators = 0;
        for (LocalAggCall call : calls) {
            accumulators += call.function().accumulators();
        }
        int distinctColumns = (int) Arrays.stream(calls).filter(LocalAggCall::distinct).mapToInt(LocalAggCall::column)
                .distinct().count();
        int expectedFields = keys + accumulators + distinctColumns + trailing;
        if (output.getFieldCount() != expectedFields) {
            throw new NotTranslatable("Flink's local output has " + output.getFieldCount() + " fields, not the keys"
                    + " and the calls' accumulators" + (distinctColumns > 0 ? " and distinct values" : "")
                    + (trailing > 0 ? " and " + trailing + " more" : "") + " ("
                    + expectedFields + "): " + output);
        }
        int field = keys;
        for (int a = 0; a < calls.length; a++) {
            if (calls[a].extremeWithRetract()) {
                checkExtremeWithRetract(output, field++, valueType(calls[a], input), calls[a],
                        a < flinkCalls.size() ? flinkCalls.get(a) : null);
                continue;
            }
            for (int f = 0; f < calls[a].function().accumulators(); f++, field++) {
                LogicalType expected = f > 0 ? new BigIntType() : calls[a].sumsDecimal()
                        ? new DecimalType(LocalAggCall.DECIMAL_SUM_PRECISION, calls[a].scale())
                        : switch (calls[a].function()) {
                            // after the first field: AVG's and SUM_RETRACT's counts
                            case COUNT_STAR, COUNT, AVG -> new BigIntType();
                            default -> valueType(calls[a], input);
                        };
                LogicalType actual = output.getTypeAt(field);
                if (!sameType(actual, expected)) {
                    // a call past Flink's is one Flink's planner added (a HOP's COUNT(*))
                    throw new NotTranslatable("accumulator " + output.getFieldNames().get(field) + " of "
                            + (a < flinkCalls.size() ? flinkCalls.get(a) : calls[a]) + " is " + actual + ", not "
                            + expected);
                }
            }
        }
        for (int d = 0; d < distinctColumns; d++, field++) {
            if (output.getTypeAt(field).getTypeRoot() != LogicalTypeRoot.RAW) {
                throw new NotTranslatable("distinct accumulator " + output.getFieldNames().get(field) + " is "
                        + output.getTypeAt(field) + ", not Flink's heap MapView (RAW)");
            }
        }
    }
}
