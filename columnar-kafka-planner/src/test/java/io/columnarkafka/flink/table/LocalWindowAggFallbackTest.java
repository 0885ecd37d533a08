package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.translate.VectorLocalWindowAggregateTest;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.runtime.operators.aggregate.window.LocalSlicingWindowAggOperator;
import org.junit.jupiter.api.Test;

/**
 * What the stage plans for a local window aggregate over a columnar input: computed on the vectors for AVG and
 * FILTER; for what is not (a DOUBLE SUM), the row view over Flink's operator, with the reason in EXPLAIN; and,
 * when this Flink's operator does not keep its parts where Flink 2.2.1 does (forced here
 * through {@link FlinkInternalsSeam}, which points the probe at a class without them), Flink's own node behind the
 * edge, with that reason, at planning time.
 */
class LocalWindowAggFallbackTest {
    private static final String SINK = "k BIGINT, sv DOUBLE";
    private static final String DOUBLE_SUM = "INSERT INTO results SELECT k, SUM(v) FROM TABLE(TUMBLE(TABLE keyed,"
            + " DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end";
    private static final String COUNT = "INSERT INTO results SELECT k, CAST(COUNT(*) AS DOUBLE) FROM TABLE(TUMBLE("
            + "TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end";

    private static final String AVERAGE_AND_FILTER = "INSERT INTO results SELECT k, window_start, AVG(b), COUNT(*)"
            + " FILTER (WHERE b > 100) FROM TABLE(TUMBLE(TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND))"
            + " GROUP BY k, window_start, window_end";

    @Test
    void anAverageAndAFilteredCountAreVectorised() {
        TableEnvironment tEnv = VectorLocalWindowAggregateTest.tEnv(true, "k BIGINT, ws TIMESTAMP(3), ab BIGINT,"
                + " n BIGINT");
        assertThat(ColumnarSql.explain(tEnv, AVERAGE_AND_FILTER))
                .containsPattern("ColumnarLocalWindowAggregate\\(.*local=\\[vectorised\\]")
                .containsPattern("columnar LocalWindowAggregate: vectorised keys=\\[\\$0\\],"
                        + " .*aggregates=\\[AVG\\(\\$\\d\\), COUNT\\(\\*\\) FILTER \\$\\d\\]")
                .doesNotContain("ArrowToRows(");
        VectorLocalWindowAggregateTest.localAggregate(tEnv, AVERAGE_AND_FILTER, VectorLocalWindowAggOperator.class);
    }

    @Test
    void aDoubleSumRunsFlinksOperatorOnRowViewsWithTheReason() {
        TableEnvironment tEnv = VectorLocalWindowAggregateTest.tEnv(true, SINK);
        assertThat(ColumnarSql.explain(tEnv, DOUBLE_SUM))
                .contains("local=[row view, not vectorised: SUM($1) of type DOUBLE (only INT, BIGINT:")
                .contains("columnar LocalWindowAggregate: row view: Flink's local window aggregate reading the"
                        + " batches in place; not vectorised: SUM($1) of type DOUBLE")
                .doesNotContain("ArrowToRows(");
        VectorLocalWindowAggregateTest.localAggregate(tEnv, DOUBLE_SUM, ArrowLocalWindowAggOperator.class);
    }

    @Test
    void theOptionTurnsTheVectorisedPathOff() {
        TableEnvironment tEnv = VectorLocalWindowAggregateTest.tEnv(true, SINK);
        assertThat(ColumnarSql.explain(tEnv, COUNT)).contains("local=[vectorised]");
        tEnv.getConfig().set("columnar-kafka.planner.local-window-agg.vectorised", "false");
        assertThat(ColumnarSql.explain(tEnv, COUNT))
                .contains("local=[row view, not vectorised: columnar-kafka.planner.local-window-agg.vectorised is"
                        + " false]");
        VectorLocalWindowAggregateTest.localAggregate(tEnv, COUNT, ArrowLocalWindowAggOperator.class);
    }

    @Test
    void whenFlinksOperatorKeepsItsPartsElsewhereThePlanKeepsFlinksNodeWithTheReason() {
        // an operator class without Flink 2.2.1's fields
        try (FlinkInternalsSeam elsewhere = FlinkInternalsSeam.localWindowAggPartsOf(Object.class)) {
            TableEnvironment tEnv = VectorLocalWindowAggregateTest.tEnv(true, SINK);
            assertThat(ColumnarSql.explain(tEnv, DOUBLE_SUM))
                    .contains("ArrowToRows(reason=[FLINK_INTERNALS_UNREADABLE java.lang.Object has no field")
                    .contains("Flink LocalWindowAggregate: FLINK_INTERNALS_UNREADABLE java.lang.Object has no field")
                    .doesNotContain("ColumnarLocalWindowAggregate(");
            // translation builds Flink's own operator: nothing is read by reflection
            VectorLocalWindowAggregateTest.localAggregate(tEnv, DOUBLE_SUM, LocalSlicingWindowAggOperator.class);
            // a vectorised shape reads nothing of Flink's operator, so it stays vectorised
            assertThat(ColumnarSql.explain(tEnv, COUNT)).contains("local=[vectorised]");
            VectorLocalWindowAggregateTest.localAggregate(tEnv, COUNT, VectorLocalWindowAggOperator.class);
        }
        assertThat(ArrowLocalWindowAggOperator.unreadableParts()).isEmpty();
    }
}
