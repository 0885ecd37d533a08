package io.columnarkafka.planner.match;

import io.columnarkafka.flink.table.AggColumnType;
import io.columnarkafka.flink.table.LocalAggCall;
import io.columnarkafka.flink.table.LocalWindowAggSpec;
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
import org.apache.flink.table.planner.plan.utils.AggregateUtil;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import scala.collection.JavaConverters;

/**
 * The {@link LocalWindowAggSpec} of a local window aggregate the vectorised operator computes exactly, or {@link
 * NotTranslatable} naming what it does not: grouping keys of INT, BIGINT or VARCHAR (or none); the calls {@link
 * LocalAggCalls} admits (COUNT(*), COUNT(col), SUM, $SUM0, MAX, MIN and AVG of INT or BIGINT, MAX and MIN of
 * VARCHAR, COUNT(DISTINCT col) of INT, BIGINT or VARCHAR, each with or without a FILTER); a TUMBLE, HOP or CUMULATE on a
 * TIMESTAMP(3) rowtime; and Flink's output row exactly keys, each call's accumulator fields (and, for a HOP without
 * a COUNT(*), the COUNT(*) Flink appends), the distinct columns' maps, slice end. Flink's local window aggregate
 * accumulates with the same code as its local group aggregate of an insert-only input (declarative functions that
 * do not retract, heap data views, distinct values mapped to the bits of the calls that saw them, but over a HOP,
 * below), so the accumulators are the group aggregate's.
 *
 * <p>A HOP's global phase needs each slice's input count ({@code needInputCount}), which also makes Flink's
 * distinct accumulators those of a retracting input ({@code consumeRetraction}): each value mapped to a count of its
 * rows per call, which the vectorised operator then keeps too ({@link LocalWindowAggSpec#distinctRowCounts}). Over a
 * changelog every call is Flink's retracting function ({@link LocalAggCalls#retracting}), as the group aggregate's.
 *
 * <p>Not DOUBLE (or FLOAT) SUM, $SUM0, MAX, MIN and AVG: Flink's local phase splits a group's accumulator wherever
 * its buffer fills, and the global phase's merge of the parts then depends on where (a rounded sum; a NaN is kept
 * when it comes first and skipped after a value, so {@code [1] [NaN, 5]} merge to 1 where {@code [1, NaN, 5]} gives
 * 5), so a buffer that fills at other points would give other results.
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
        AggColumnType[] keyTypes = LocalAggCalls.keyTypes(grouping, input);
        List<AggregateCall> calls = JavaConverters.seqAsJavaList(aggregate.aggCalls());
        // AggregateUtil.deriveStreamWindowAggregateInfoList: a HOP's global phase needs a count of each slice's rows
        // (needInputCount), which also makes its distinct accumulators those of a retracting input (consumeRetraction)
        boolean hop = windowing.getWindow() instanceof HoppingWindowSpec;
        LocalAggCall[] aggregates = LocalAggCalls.of(calls, input);
        // over a changelog (Flink's node's needRetraction) every call retracts, and the global phase needs the
        // input count too (deriveStreamWindowAggregateInfoList: needInputCount = a HOP or needRetraction)
        boolean changelog = AggregateUtil.needRetraction(aggregate);
        if (changelog) {
            aggregates = LocalAggCalls.retracting(aggregates);
        }
        if (hop || changelog) {
            aggregates = LocalAggCalls.withInputCount(calls, aggregates);
        }
        LocalAggCalls.checkOutput(output, input, grouping.length, aggregates, calls, 1);
        return new LocalWindowAggSpec(grouping.clone(), keyTypes, rowtime, slices[0], slices[1], aggregates,
                hop || changelog, changelog ? input.getFieldCount() : -1); // RowKindBatches: kinds after the fields
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
}
