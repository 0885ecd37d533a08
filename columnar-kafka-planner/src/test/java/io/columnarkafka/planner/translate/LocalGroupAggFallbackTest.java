package io.columnarkafka.planner.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.table.VectorLocalGroupAggOperator;
import io.columnarkafka.planner.ColumnarSql;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.runtime.operators.bundle.MapBundleOperator;
import org.junit.jupiter.api.Test;

/**
 * A local group aggregate over a columnar input that the vectorised operator does not compute (a DISTINCT call other
 * than COUNT(DISTINCT) of an INT, BIGINT or VARCHAR, a DOUBLE sum, a MAX of a wide DECIMAL, the option off) stays
 * Flink's node behind the Arrow-to-rows edge, with the reason in EXPLAIN, and translates to Flink's own operator.
 */
class LocalGroupAggFallbackTest {
    private static final String COUNTS = "k BIGINT, n BIGINT";

    @Test
    void aDistinctSumStaysFlinksWithTheReason() {
        assertFlinks(VectorLocalGroupAggregateTest.tEnv(true, COUNTS, 50_000),
                "INSERT INTO results SELECT k, SUM(DISTINCT b) FROM keyed GROUP BY k",
                "SUM(DISTINCT $1): DISTINCT other than COUNT(DISTINCT col) of one column");
    }

    @Test
    void aDistinctCountOfDoublesStaysFlinksWithTheReason() {
        assertFlinks(VectorLocalGroupAggregateTest.tEnv(true, COUNTS, 50_000),
                "INSERT INTO results SELECT k, COUNT(DISTINCT v) FROM keyed GROUP BY k",
                "COUNT(DISTINCT $1) of type DOUBLE (only INT, BIGINT, VARCHAR)");
    }

    @Test
    void aDoubleSumStaysFlinksWithTheReason() {
        assertFlinks(VectorLocalGroupAggregateTest.tEnv(true, "k BIGINT, sv DOUBLE", 50_000),
                "INSERT INTO results SELECT k, SUM(v) FROM keyed GROUP BY k",
                "SUM($1) of type DOUBLE (only INT, BIGINT:");
    }

    /** A MAX of a DECIMAL wider than a long's digits, over a changelog too: Flink's, with the reason. */
    @Test
    void aMaxOfAWideDecimalStaysFlinksWithTheReason() {
        for (String table : new String[] {"keyed", "changed"}) {
            assertFlinks(VectorLocalGroupAggregateTest.tEnv(true, "k BIGINT, mw DECIMAL(20, 2)", 50_000),
                    "INSERT INTO results SELECT k, MAX(w) FROM " + table + " GROUP BY k",
                    "MAX($1) of type DECIMAL(20, 2) (a DECIMAL up to precision 18: its values are compared as longs)");
        }
    }

    /**
     * A SUM of a DECIMAL wider than a long's digits, and over a changelog one of scale 7 (Flink's retracting SUM
     * rounds each step to scale 6): Flink's node, with the reason.
     */
    @Test
    void aWideDecimalSumAndAChangelogsSumOfScale7StayFlinksWithTheReason() {
        assertFlinks(VectorLocalGroupAggregateTest.tEnv(true, "k BIGINT, sw DECIMAL(38, 2)", 50_000),
                "INSERT INTO results SELECT k, SUM(w) FROM keyed GROUP BY k",
                "SUM($1) of type DECIMAL(20, 2) (a DECIMAL up to precision 18:");
        assertFlinks(VectorLocalGroupAggregateTest.tEnv(true, "k BIGINT, sx DECIMAL(38, 7)", 50_000),
                "INSERT INTO results SELECT k, SUM(x) FROM changed GROUP BY k",
                "SUM($1) of scale 7 over a changelog (Flink's retracting SUM rounds each step to scale 6)");
    }

    /**
     * A MAX of a TIMESTAMP over a changelog (Flink's retracting MAX keys its map by whole timestamps), and of a
     * TIMESTAMP(6) (not Flink's compact millis): Flink's node, with the reason.
     */
    @Test
    void aTimestampsRetractingOrWideMaxStaysFlinksWithTheReason() {
        assertFlinks(VectorLocalGroupAggregateTest.tEnv(true, "k BIGINT, mt TIMESTAMP(3)", 50_000),
                "INSERT INTO results SELECT k, MAX(t) FROM changed GROUP BY k",
                "MAX($1) of a TIMESTAMP over a changelog (Flink's retracting MAX keys its map by whole timestamps,"
                        + " sub-millisecond digits included, which the row's TIMESTAMP(3) drops)");
        assertFlinks(VectorLocalGroupAggregateTest.tEnv(true, "k BIGINT, mu TIMESTAMP(6)", 50_000),
                "INSERT INTO results SELECT k, MAX(u) FROM keyed GROUP BY k",
                "MAX($1) of type TIMESTAMP(6) (a TIMESTAMP up to precision 3: epoch millis)");
    }

    @Test
    void theOptionTurnsTheVectorisedPathOff() {
        String insert = "INSERT INTO results SELECT k, COUNT(*) FROM keyed GROUP BY k";
        TableEnvironment tEnv = VectorLocalGroupAggregateTest.tEnv(true, COUNTS, 50_000);
        assertThat(ColumnarSql.explain(tEnv, insert)).contains("local=[vectorised]");
        VectorLocalWindowAggregateTest.localAggregate(tEnv, insert, VectorLocalGroupAggOperator.class);
        tEnv.getConfig().set("columnar-kafka.planner.local-group-agg.vectorised", "false");
        assertFlinks(tEnv, insert, "columnar-kafka.planner.local-group-agg.vectorised is false");
    }

    private static void assertFlinks(TableEnvironment tEnv, String insert, String reason) {
        String explained = ColumnarSql.explain(tEnv, insert);
        assertThat(explained).as(explained)
                .containsPattern("(?<!Columnar)LocalGroupAggregate\\(.*\\n[ :]*\\+- ArrowToRows\\(reason=\\["
                        + "AGGREGATE_NOT_VECTORISED \\Q" + reason + "\\E")
                .contains("Flink LocalGroupAggregate: AGGREGATE_NOT_VECTORISED " + reason)
                .doesNotContain("ColumnarLocalGroupAggregate(");
        VectorLocalWindowAggregateTest.localAggregate(tEnv, insert, MapBundleOperator.class);
    }
}
