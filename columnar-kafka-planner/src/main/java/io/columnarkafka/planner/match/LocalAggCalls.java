package io.columnarkafka.planner.match;

import io.columnarkafka.flink.table.AggColumnType;
import io.columnarkafka.flink.table.LocalAggCall;
import io.columnarkafka.flink.table.LocalAggCall.Function;
import java.util.List;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The parts of a local aggregate's translation the window and the group aggregate share: the grouping keys'
 * types, each aggregate call as a {@link LocalAggCall}, and the check that Flink's local output row is exactly the
 * keys and the calls' accumulator fields (then what the caller adds after them), of the types the vectorised
 * operator writes.
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
     * reduction of a SUM beside an AVG), MAX, MIN and AVG of INT or BIGINT, each with or without a FILTER (a
     * BOOLEAN NOT NULL column: Flink's planner filters on IS TRUE(...)); never DISTINCT, APPROXIMATE or WITHIN GROUP.
     */
    static LocalAggCall[] of(List<AggregateCall> calls, RowType input) throws NotTranslatable {
        LocalAggCall[] translated = new LocalAggCall[calls.size()];
        for (int a = 0; a < calls.size(); a++) {
            translated[a] = call(calls.get(a), input);
        }
        return translated;
    }

    private static LocalAggCall call(AggregateCall call, RowType input) throws NotTranslatable {
        if (call.isDistinct()) {
            throw new NotTranslatable(call + ": DISTINCT (Flink's local accumulator for it is a map of the distinct"
                    + " values, which the vectorised operator does not build)");
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
                    return new LocalAggCall(Function.COUNT_STAR, -1, null, filter);
                }
                if (args.size() == 1) {
                    return new LocalAggCall(Function.COUNT, args.get(0), null, filter);
                }
                throw new NotTranslatable(call + ": COUNT of several columns");
            case SUM:
                return valueCall(Function.SUM, call, input);
            case MAX:
                return valueCall(Function.MAX, call, input);
            case MIN:
                return valueCall(Function.MIN, call, input);
            case SUM0:
                return valueCall(Function.SUM0, call, input);
            case AVG:
                return valueCall(Function.AVG, call, input);
            default:
                throw new NotTranslatable(call + ": only COUNT, SUM, $SUM0, MAX, MIN, AVG");
        }
    }

    private static LocalAggCall valueCall(Function function, AggregateCall call, RowType input)
            throws NotTranslatable {
        int column = call.getArgList().get(0);
        AggColumnType type = columnType(input.getTypeAt(column), call.toString(), false);
        return new LocalAggCall(function, column, type, call.filterArg);
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

    /**
     * Checks that Flink's local output {@code output} is the {@code keys} keys, each call's accumulator fields of
     * the types the vectorised operator writes (BIGINT for the counts and AVG's sum and count, the argument's type
     * for SUM, $SUM0, MAX and MIN), then {@code trailing} more fields.
     */
    static void checkOutput(RowType output, int keys, LocalAggCall[] calls, List<AggregateCall> flinkCalls,
            int trailing) throws NotTranslatable {
        int accumulators = 0;
        for (LocalAggCall call : calls) {
            accumulators += call.function().accumulators();
        }
        int expectedFields = keys + accumulators + trailing;
        if (output.getFieldCount() != expectedFields) {
            throw new NotTranslatable("Flink's local output has " + output.getFieldCount() + " fields, not the keys"
                    + " and the calls' accumulators" + (trailing > 0 ? " and " + trailing + " more" : "") + " ("
                    + expectedFields + "): " + output);
        }
        int field = keys;
        for (int a = 0; a < calls.length; a++) {
            for (int f = 0; f < calls[a].function().accumulators(); f++, field++) {
                LogicalTypeRoot expected = switch (calls[a].function()) {
                    case COUNT_STAR, COUNT, AVG -> LogicalTypeRoot.BIGINT;
                    default -> calls[a].type() == AggColumnType.INT ? LogicalTypeRoot.INTEGER : LogicalTypeRoot.BIGINT;
                };
                LogicalType actual = output.getTypeAt(field);
                if (actual.getTypeRoot() != expected) {
                    throw new NotTranslatable("accumulator " + output.getFieldNames().get(field) + " of "
                            + flinkCalls.get(a) + " is " + actual + ", not " + expected);
                }
            }
        }
    }
}
