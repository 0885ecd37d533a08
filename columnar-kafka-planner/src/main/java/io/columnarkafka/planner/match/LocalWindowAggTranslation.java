package io.columnarkafka.planner.match;

import io.columnarkafka.flink.table.LocalWindowAggSpec;
import io.columnarkafka.flink.table.LocalWindowAggSpec.Aggregate;
import io.columnarkafka.flink.table.LocalWindowAggSpec.ColumnType;
import io.columnarkafka.flink.table.LocalWindowAggSpec.Function;
import java.time.Duration;
import java.util.List;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.logical.CumulativeWindowSpec;
import org.apache.flink.table.planner.plan.logical.HoppingWindowSpec;
import org.apache.flink.table.planner.plan.logical.TimeAttributeWindowingStrategy;
import org.apache.flink.table.planner.plan.logical.TumblingWindowSpec;
import org.apache.flink.table.planner.plan.logical.WindowSpec;
import org.apache.flink.table.planner.plan.logical.WindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalWindowAggregate;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import scala.collection.JavaConverters;

/**
 * The {@link LocalWindowAggSpec} of a local window aggregate the vectorised operator computes exactly, or {@link
 * NotTranslatable} naming what it does not: grouping keys of INT, BIGINT or VARCHAR (or none); COUNT(*), COUNT(col),
 * SUM, MAX and MIN of INT or BIGINT, neither DISTINCT nor FILTER; a TUMBLE, HOP or CUMULATE on a TIMESTAMP(3)
 * rowtime; and Flink's output row exactly keys, one accumulator per call of the argument's type (BIGINT for the
 * counts), slice end.
 *
 * <p>Not DOUBLE (or FLOAT) SUM, MAX and MIN: Flink's local phase splits a group's accumulator wherever its buffer
 * fills, and the global phase's merge of the parts then depends on where (a rounded sum; a NaN is kept when it
 * comes first and skipped after a value, so {@code [1] [NaN, 5]} merge to 1 where {@code [1, NaN, 5]} gives 5),
 * so a buffer that fills at other points would give other results.
 */
public final class LocalWindowAggTranslation {
    private LocalWindowAggTranslation() {}

    /** The spec of an aggregate {@link PlanMatcher} decided to vectorise (which it translated then). */
    public static LocalWindowAggSpec admitted(StreamPhysicalLocalWindowAggregate aggregate) {
        try {
            return of(aggregate);
        } catch (NotTranslatable e) {
            throw new IllegalStateException("decided vectorised, but " + e.getMessage(), e);
        }
    }

    static LocalWindowAggSpec of(StreamPhysicalLocalWindowAggregate aggregate) throws NotTranslatable {
        RowType input = FlinkTypeFactory.toLogicalRowType(aggregate.getInput().getRowType());
        RowType output = FlinkTypeFactory.toLogicalRowType(aggregate.getRowType());
        WindowingStrategy windowing = aggregate.windowing();
        if (!(windowing instanceof TimeAttributeWindowingStrategy timeAttribute) || !windowing.isRowtime()) {
            throw new NotTranslatable("window not on a rowtime attribute: " + windowing.getClass().getSimpleName());
        }
        int rowtime = timeAttribute.getTimeAttributeIndex();
        LogicalType rowtimeType = input.getTypeAt(rowtime);
        if (!(rowtimeType instanceof TimestampType timestamp) || timestamp.getPrecision() != 3) {
            throw new NotTranslatable("rowtime of type " + rowtimeType + " (only TIMESTAMP(3): no time zone shift)");
        }
        long[] slices = slices(windowing.getWindow());

        int[] grouping = aggregate.grouping();
        ColumnType[] keyTypes = new ColumnType[grouping.length];
        for (int k = 0; k < grouping.length; k++) {
            keyTypes[k] = columnType(input.getTypeAt(grouping[k]), "key " + input.getFieldNames().get(grouping[k]),
                    true);
        }
        List<AggregateCall> calls = JavaConverters.seqAsJavaList(aggregate.aggCalls());
        Aggregate[] aggregates = new Aggregate[calls.size()];
        for (int a = 0; a < calls.size(); a++) {
            aggregates[a] = aggregate(calls.get(a), input);
        }

        int expectedFields = grouping.length + aggregates.length + 1;
        if (output.getFieldCount() != expectedFields) {
            throw new NotTranslatable("Flink's local output has " + output.getFieldCount() + " fields, not keys,"
                    + " one accumulator per call and the slice end (" + expectedFields + "): " + output);
        }
        for (int a = 0; a < aggregates.length; a++) {
            LogicalTypeRoot expected = switch (aggregates[a].function()) {
                case COUNT_STAR, COUNT -> LogicalTypeRoot.BIGINT;
                default -> aggregates[a].type() == ColumnType.INT ? LogicalTypeRoot.INTEGER : LogicalTypeRoot.BIGINT;
            };
            LogicalType actual = output.getTypeAt(grouping.length + a);
            if (actual.getTypeRoot() != expected) {
                throw new NotTranslatable("accumulator " + output.getFieldNames().get(grouping.length + a) + " of "
                        + calls.get(a) + " is " + actual + ", not " + expected);
            }
        }
        return new LocalWindowAggSpec(grouping.clone(), keyTypes, rowtime, slices[0], slices[1], aggregates);
    }

    /** The slice size and offset, in milliseconds, as Flink's slice assigner for the window takes them. */
    private static long[] slices(WindowSpec window) throws NotTranslatable {
        if (window instanceof TumblingWindowSpec tumble) {
            return new long[] {tumble.getSize().toMillis(), millis(tumble.getOffset())};
        }
        if (window instanceof HoppingWindowSpec hop) {
            // HoppingSliceAssigner: slices of the greatest common divisor of size and slide
            long size = hop.getSize().toMillis();
            long slide = hop.getSlide().toMillis();
            if (size % slide != 0) {
                throw new NotTranslatable("HOP size " + size + " ms not a multiple of its slide " + slide
                        + " ms (Flink's planner runs it unsliced)");
            }
            return new long[] {gcd(size, slide), millis(hop.getOffset())};
        }
        if (window instanceof CumulativeWindowSpec cumulate) {
            return new long[] {cumulate.getStep().toMillis(), millis(cumulate.getOffset())};
        }
        throw new NotTranslatable("window " + window + " is not TUMBLE, HOP or CUMULATE");
    }

    private static long millis(Duration offset) {
        return offset == null ? 0 : offset.toMillis();
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static Aggregate aggregate(AggregateCall call, RowType input) throws NotTranslatable {
        if (call.isDistinct() || call.filterArg >= 0 || call.isApproximate() || !call.getCollation().getFieldCollations()
                .isEmpty()) {
            throw new NotTranslatable(call + ": DISTINCT, FILTER, APPROXIMATE or WITHIN GROUP");
        }
        List<Integer> args = call.getArgList();
        switch (call.getAggregation().getKind()) {
            case COUNT:
                if (args.isEmpty()) {
                    return new Aggregate(Function.COUNT_STAR, -1, null);
                }
                if (args.size() == 1) {
                    return new Aggregate(Function.COUNT, args.get(0), null);
                }
                throw new NotTranslatable(call + ": COUNT of several columns");
            case SUM:
                return valueAggregate(Function.SUM, call, input);
            case MAX:
                return valueAggregate(Function.MAX, call, input);
            case MIN:
                return valueAggregate(Function.MIN, call, input);
            default:
                throw new NotTranslatable(call + ": only COUNT, SUM, MAX, MIN");
        }
    }

    private static Aggregate valueAggregate(Function function, AggregateCall call, RowType input)
            throws NotTranslatable {
        int column = call.getArgList().get(0);
        ColumnType type = columnType(input.getTypeAt(column), call.toString(), false);
        return new Aggregate(function, column, type);
    }

    private static ColumnType columnType(LogicalType type, String what, boolean varcharAllowed)
            throws NotTranslatable {
        switch (type.getTypeRoot()) {
            case INTEGER:
                return ColumnType.INT;
            case BIGINT:
                return ColumnType.BIGINT;
            case VARCHAR:
                if (varcharAllowed) {
                    return ColumnType.VARCHAR;
                }
                break;
            default:
                break;
        }
        throw new NotTranslatable(what + " of type " + type + " (only " + (varcharAllowed ? "INT, BIGINT, VARCHAR"
                : "INT, BIGINT: a DOUBLE's merged parts depend on where Flink's buffer fills") + ")");
    }
}
