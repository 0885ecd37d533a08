package io.columnarkafka.planner.match;

import io.columnarkafka.flink.table.AggColumnType;
import io.columnarkafka.flink.table.LocalAggCall;
import io.columnarkafka.flink.table.LocalGroupAggSpec;
import java.util.List;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.types.logical.RowType;
import scala.collection.JavaConverters;

/**
 * The {@link LocalGroupAggSpec} of a local group aggregate (mini-batch's first phase) the vectorised operator
 * computes exactly, or {@link NotTranslatable} naming what it does not: an insert-only input (so Flink's functions
 * neither retract nor count rows for it), the partial phase of a split distinct aggregate too; grouping keys of
 * INT, BIGINT or VARCHAR (or none); COUNT(*), COUNT(col), SUM, MAX, MIN and AVG of INT or BIGINT, MAX and MIN of
 * VARCHAR, and COUNT(DISTINCT col) of INT, BIGINT or VARCHAR, each with or without a FILTER; and Flink's output
 * row exactly the keys, then each call's accumulator fields (one, of the argument's type, for SUM, MAX and MIN; a
 * BIGINT for the counts, a distinct one's too; AVG's BIGINT sum and count), then one RAW field per distinct column
 * (Flink's heap {@code MapView} of the group's distinct values to the bits of the calls that saw them).
 *
 * <p>Not another DISTINCT call (SUM(DISTINCT ...), a COUNT of several columns) nor a COUNT(DISTINCT ...) of another
 * type: Flink's map keys would be rows, or values the vectorised operator does not keep. Not DOUBLE (or FLOAT) SUM,
 * MAX, MIN and AVG: the same reason as {@link LocalWindowAggTranslation}'s (the merged parts of a rounded sum or a
 * NaN depend on where the local phase split them).
 */
public final class LocalGroupAggTranslation {
    private LocalGroupAggTranslation() {}

    /** The spec of an aggregate {@link PlanMatcher} decided to vectorise (which it translated then). */
    public static LocalGroupAggSpec admitted(StreamPhysicalLocalGroupAggregate aggregate) {
        try {
            return of(aggregate);
        } catch (NotTranslatable e) {
            throw new IllegalStateException("decided vectorised, but " + e.getMessage(), e);
        }
    }

    static LocalGroupAggSpec of(StreamPhysicalLocalGroupAggregate aggregate) throws NotTranslatable {
        if (!ChangelogPlanUtils.isInsertOnly((StreamPhysicalRel) aggregate.getInput())) {
            throw new NotTranslatable("the input is a changelog (Flink's functions retract)");
        }
        // A split distinct aggregate's PARTIAL local phase (grouped by the keys and the bucket) runs the same
        // operator: Flink 2.2.1's StreamPhysicalLocalGroupAggregate reads its partialFinalType only in copy and
        // explainTerms, and StreamExecLocalGroupAggregate takes none; so it is admitted as any local phase.
        RowType input = FlinkTypeFactory.toLogicalRowType(aggregate.getInput().getRowType());
        RowType output = FlinkTypeFactory.toLogicalRowType(aggregate.getRowType());
        int[] grouping = aggregate.grouping();
        AggColumnType[] keyTypes = LocalAggCalls.keyTypes(grouping, input);
        List<AggregateCall> calls = JavaConverters.seqAsJavaList(aggregate.aggCalls());
        LocalAggCall[] aggregates = LocalAggCalls.of(calls, input);
        LocalAggCalls.checkOutput(output, grouping.length, aggregates, calls, 0);
        return new LocalGroupAggSpec(grouping.clone(), keyTypes, aggregates);
    }
}
