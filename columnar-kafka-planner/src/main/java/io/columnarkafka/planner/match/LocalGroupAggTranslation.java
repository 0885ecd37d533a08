package io.columnarkafka.planner.match;

import io.columnarkafka.flink.internals.PrivateMembers;
import io.columnarkafka.flink.table.AggColumnType;
import io.columnarkafka.flink.table.LocalAggCall;
import io.columnarkafka.flink.table.LocalAggCall.Function;
import io.columnarkafka.flink.table.LocalGroupAggSpec;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.types.logical.RowType;
import scala.collection.JavaConverters;

/**
 * The {@link LocalGroupAggSpec} of a local group aggregate (mini-batch's first phase) the vectorised operator
 * computes exactly, or {@link NotTranslatable} naming what it does not: grouping keys of INT, BIGINT or VARCHAR (or
 * none); over an insert-only input (the partial phase of a split distinct aggregate too) COUNT(*), COUNT(col), SUM,
 * MAX, MIN and AVG of INT or BIGINT, SUM, $SUM0 and AVG of DECIMAL up to precision 18, MAX and MIN of VARCHAR, and
 * COUNT(DISTINCT col) of INT, BIGINT or VARCHAR, each with or without a FILTER; over a changelog (Flink's retracting
 * functions) COUNT(*), COUNT(col), SUM, $SUM0 and AVG of INT, BIGINT or such a DECIMAL (a SUM's of scale up to 6),
 * MAX and MIN of INT, BIGINT or VARCHAR (each value's rows counted), and COUNT(DISTINCT col) (its values counting
 * their rows per call), with or without a FILTER, and the COUNT(*)
 * Flink appends for the global phase's input count; and Flink's output
 * row exactly the keys, then each call's accumulator fields (one, of the argument's type, for SUM, MAX and MIN, a
 * DECIMAL(38, s) for a DECIMAL's; a BIGINT for the counts, a distinct one's too; AVG's sum and count; a retracting
 * SUM's sum and count; a retracting MAX's or MIN's structured accumulator), then one RAW field per distinct column (Flink's heap {@code MapView} of the group's distinct
 * values to the bits of the calls that saw them).
 *
 * <p>Not another DISTINCT call (SUM(DISTINCT ...), a COUNT of several columns) nor a COUNT(DISTINCT ...) of another
 * type: Flink's map keys would be rows, or values the vectorised operator does not keep. Not DOUBLE (or FLOAT) SUM,
 * MAX, MIN and AVG: the same reason as {@link LocalWindowAggTranslation}'s (the merged parts of a rounded sum or a
 * NaN depend on where the local phase split them).
 */
public final class LocalGroupAggTranslation {
    /**
     * What Flink's rule decided about retraction, which the node keeps in private fields only: whether the input
     * retracts, and per call whether its function does (a call whose result the input's monotonicity keeps
     * increasing, a MAX, or constant, does not).
     */
    private static final PrivateMembers RETRACTIONS = PrivateMembers.of(StreamPhysicalLocalGroupAggregate.class)
            .field("needRetraction", boolean.class).field("aggCallNeedRetractions", boolean[].class).probe();

    private LocalGroupAggTranslation() {}

    /** The spec of an aggregate {@link PlanMatcher} decided to vectorise (which it translated then). */
    public static LocalGroupAggSpec admitted(StreamPhysicalLocalGroupAggregate aggregate) {
        try {
            return of(aggregate);
        } catch (NotTranslatable e) {
            throw new IllegalStateException("decided vectorised, but " + e.getMessage(), e);
        }
    }

    /**
     * Empty when this Flink keeps the local aggregate's retraction flags where 2.2.1 does (needed for a changelog
     * input only), else why not.
     */
    static Optional<String> unreadableRetractions() {
        return RETRACTIONS.unreadable();
    }

    static LocalGroupAggSpec of(StreamPhysicalLocalGroupAggregate aggregate) throws NotTranslatable {
        // A split distinct aggregate's PARTIAL local phase (grouped by the keys and the bucket) runs the same
        // operator: Flink 2.2.1's StreamPhysicalLocalGroupAggregate reads its partialFinalType only in copy and
        // explainTerms, and StreamExecLocalGroupAggregate takes none; so it is admitted as any local phase.
        RowType input = FlinkTypeFactory.toLogicalRowType(aggregate.getInput().getRowType());
        RowType output = FlinkTypeFactory.toLogicalRowType(aggregate.getRowType());
        int[] grouping = aggregate.grouping();
        AggColumnType[] keyTypes = LocalAggCalls.keyTypes(grouping, input);
        List<AggregateCall> calls = JavaConverters.seqAsJavaList(aggregate.aggCalls());
        LocalAggCall[] aggregates = LocalAggCalls.of(calls, input);
        int rowKindColumn = -1;
        if (!ChangelogPlanUtils.isInsertOnly((StreamPhysicalRel) aggregate.getInput())) {
            checkEveryCallRetracts(aggregate, calls);
            aggregates = LocalAggCalls.withInputCount(calls, LocalAggCalls.retracting(aggregates));
            rowKindColumn = input.getFieldCount(); // RowKindBatches: after the fields
        }
        LocalAggCalls.checkOutput(output, input, grouping.length, aggregates, calls, 0);
        return new LocalGroupAggSpec(grouping.clone(), keyTypes, aggregates, rowKindColumn);
    }

    /**
     * Flink's node over a changelog: its input retracts and so does every call's function (the retract expressions
     * the vectorised operator computes); a call Flink does not retract (its monotonicity) is not computed here.
     */
    private static void checkEveryCallRetracts(StreamPhysicalLocalGroupAggregate aggregate, List<AggregateCall> calls)
            throws NotTranslatable {
        if (!RETRACTIONS.read(aggregate, "needRetraction", Boolean.class)) {
            throw new NotTranslatable("the input is a changelog, but Flink's node does not retract");
        }
        boolean[] callsRetract = RETRACTIONS.read(aggregate, "aggCallNeedRetractions", boolean[].class);
        for (int a = 0; a < callsRetract.length; a++) {
            if (!callsRetract[a]) {
                throw new NotTranslatable(calls.get(a) + " does not retract over the changelog (its monotonicity)");
            }
        }
    }
}
