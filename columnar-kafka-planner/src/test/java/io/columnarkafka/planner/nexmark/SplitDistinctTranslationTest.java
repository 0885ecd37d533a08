package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.planner.ColumnarSql;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With {@code table.optimizer.distinct-agg.split.enabled}, Flink rewrites a COUNT(DISTINCT col) into a partial
 * aggregate grouped by the keys and a bucket {@code MOD(HASH_CODE(col), 1024)} computed in a Calc, then a final
 * one. The bucket of an INT, BIGINT or VARCHAR is computed by the columnar Calc; with mini-batch on, the partial
 * phase's local aggregate is vectorised. Nexmark q15 and q16 distinct two columns with filters, which Flink's rewrite
 * expands ({@code Expand}, one row per distinct column): the columnar expand does so on the batches, in Flink's order,
 * then the Calc of the {@code $g_*} filters is columnar too. Planning only.
 */
class SplitDistinctTranslationTest {
    private static final String COUNT_DISTINCT_PER_CHANNEL = "CREATE TABLE bidders_per_channel (channel STRING,"
            + " bidders BIGINT, PRIMARY KEY (channel) NOT ENFORCED) WITH (${SINK});\n"
            + "INSERT INTO bidders_per_channel SELECT channel, COUNT(DISTINCT bidder) FROM bid GROUP BY channel;";

    /** Mini-batch on: scan, assigner, the Calc with the bucket, and the partial phase's local aggregate columnar. */
    @Test
    void withMiniBatchACountDistinctsBucketCalcAndPartialLocalPhaseAreColumnar() {
        String explained = explain(COUNT_DISTINCT_PER_CHANNEL, true);
        assertThat(physical(explained)).containsPattern("IncrementalGroupAggregate\\(.*\\n[ :]*\\+- Exchange\\(.*\\n"
                        + "[ :]*\\+- ColumnarLocalGroupAggregate\\(groupBy=\\[channel, \\$f2\\], partialFinalType=\\[PARTIAL\\],"
                        + " .*local=\\[vectorised\\]\\)\\n"
                        + "[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*MOD\\(HASH_CODE\\(bid\\.bidder\\), 1024\\) AS \\$f2\\]"
                        + "[^\\n]*\\n[ :]*\\+- ColumnarMiniBatchAssigner\\(")
                .doesNotContain("ArrowToRows(");
        assertThat(decision(explained)).contains("columnar Calc: 3 projections, a filter")
                .contains("columnar LocalGroupAggregate: vectorised keys=[$0, $2], aggregates=[COUNT(DISTINCT $1)]");
    }

    /** Mini-batch off: the bucket Calc is columnar, the edge before the exchange to Flink's partial aggregate. */
    @Test
    void withoutMiniBatchACountDistinctsBucketCalcIsColumnar() {
        String explained = explain(COUNT_DISTINCT_PER_CHANNEL, false);
        assertThat(physical(explained)).containsPattern("GroupAggregate\\(groupBy=\\[channel, \\$f2\\],"
                + " partialFinalType=\\[PARTIAL\\].*\\n[ :]*\\+- Exchange\\(.*\\n"
                + "[ :]*\\+- ArrowToRows\\(reason=\\[ROW_OPERATOR no columnar operator for this node kind\\].*\\n"
                + "[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*MOD\\(HASH_CODE\\(bid\\.bidder\\), 1024\\) AS \\$f2\\]");
        assertThat(decision(explained)).contains("columnar Calc: 3 projections, a filter");
    }

    /**
     * q15 (a distinct count of bidders and of auctions, with filters, per day): the Calc computing both BIGINT
     * buckets, Flink's {@code Expand} (one row per distinct column) as the columnar expand, and the Calc of its {@code
     * $g_*} filters are columnar; with mini-batch on the partial phase's local aggregate reads them, vectorised, with no
     * edge; with it off the edge comes before the exchange to Flink's partial aggregate.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void q15sBucketCalcExpandAndFilterCalcAreColumnar(boolean miniBatch) {
        String explained = explain(NexmarkRuns.resource("q15.sql"), miniBatch);
        assertThat(physical(explained)).containsPattern((miniBatch ? LOCAL_PHASE : EDGE_TO_THE_PARTIAL_PHASE)
                + "[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*\\$g_[^\\n]*\\n"
                + "[ :]*\\+- ColumnarExpand\\(projects=\\[[^\\n]*\\n"
                + "[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*MOD\\(HASH_CODE\\(bid\\.bidder\\), 1024\\) AS \\$f6,"
                + " MOD\\(HASH_CODE\\(bid\\.auction\\), 1024\\) AS \\$f7\\]")
                .doesNotContainPattern("(?<!Columnar)Expand\\(");
        assertThat(decision(explained)).contains("columnar Calc: 8 projections, a filter")
                .contains("columnar Expand: 3 projections per row, in Flink's order")
                .contains(miniBatch ? "columnar LocalGroupAggregate: vectorised" : "Flink GroupAggregate: ROW_OPERATOR");
    }

    /**
     * q16 also buckets by the minute string (Flink's rewrite buckets {@code MAX(DATE_FORMAT(dateTime, 'HH:mm'))} by
     * its argument too): the string's HASH_CODE is columnar too, so the whole bucket Calc is, then the columnar expand,
     * the filter Calc and, with mini-batch on, the vectorised partial local phase.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void q16sStringBucketExpandAndFilterCalcAreColumnar(boolean miniBatch) {
        String explained = explain(NexmarkRuns.resource("q16.sql"), miniBatch);
        assertThat(physical(explained)).containsPattern((miniBatch ? LOCAL_PHASE : EDGE_TO_THE_PARTIAL_PHASE)
                + "[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*\\$g_[^\\n]*\\n"
                + "[ :]*\\+- ColumnarExpand\\(projects=\\[[^\\n]*\\n"
                + "[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*MOD\\(HASH_CODE\\(DATE_FORMAT\\(bid\\.dateTime, 'HH:mm'\\)\\),"
                + " 1024\\) AS \\$f8, MOD\\(HASH_CODE\\(bid\\.bidder\\), 1024\\) AS \\$f9,"
                + " MOD\\(HASH_CODE\\(bid\\.auction\\), 1024\\) AS \\$f10\\]")
                .doesNotContainPattern("(?<!Columnar)Expand\\(").doesNotContain("CALC_NOT_EXACT");
        assertThat(decision(explained)).contains("columnar Calc: 11 projections, a filter")
                .contains("columnar Expand: 4 projections per row, in Flink's order")
                .contains(miniBatch ? "columnar LocalGroupAggregate: vectorised" : "Flink GroupAggregate: ROW_OPERATOR");
    }

    /**
     * An Expand over rows stays Flink's, saying why: a distinct count of a DOUBLE keeps its bucket ({@code HASH_CODE}
     * of a DOUBLE) Flink's after the split Calc's edge, so the Expand reading that Calc reads rows.
     */
    @Test
    void anExpandOverRowsStaysFlinksWithTheReason() {
        String explained = explain("CREATE TABLE distinct_prices (channel STRING, bidders BIGINT, prices BIGINT,"
                + " PRIMARY KEY (channel) NOT ENFORCED) WITH (${SINK});\n"
                + "INSERT INTO distinct_prices SELECT channel, COUNT(DISTINCT bidder),"
                + " COUNT(DISTINCT CAST(price AS DOUBLE)) FROM bid GROUP BY channel;", true);
        assertThat(physical(explained)).containsPattern("(?<!Columnar)Expand\\(projects=");
        assertThat(decision(explained)).contains("HASH_CODE of DOUBLE (only INT, BIGINT, VARCHAR)")
                .contains("Flink Expand: INPUT_NOT_COLUMNAR input Calc");
    }

    /** The partial phase's local aggregate, vectorised, then the Calc of the filters (line after line). */
    private static final String LOCAL_PHASE = "ColumnarLocalGroupAggregate\\(groupBy=\\[[^\\n]*partialFinalType=\\[PARTIAL\\]"
            + "[^\\n]*local=\\[vectorised\\]\\)\\n";

    /** The edge before the exchange to Flink's partial aggregate (mini-batch off). */
    private static final String EDGE_TO_THE_PARTIAL_PHASE = "GroupAggregate\\(groupBy=\\[[^\\n]*partialFinalType=\\[PARTIAL\\]"
            + "[^\\n]*\\n[ :]*\\+- Exchange\\(.*\\n"
            + "[ :]*\\+- ArrowToRows\\(reason=\\[ROW_OPERATOR no columnar operator for this node kind\\].*\\n";

    private static String physical(String explained) {
        return explained.substring(explained.indexOf("== Optimized Physical Plan =="),
                explained.indexOf("== Optimized Execution Plan =="));
    }

    private static String decision(String explained) {
        return explained.substring(explained.indexOf("== Columnar Decision =="));
    }

    private static String explain(String script, boolean miniBatch) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        if (miniBatch) {
            NexmarkRuns.miniBatch(tEnv);
        }
        tEnv.getConfig().set("table.optimizer.distinct-agg.split.enabled", "true");
        tEnv.executeSql(NexmarkRuns.sourceTable("kafka-columnar", "localhost:1", "events", "g", false));
        for (String view : NexmarkRuns.statements(NexmarkRuns.resource("views.sql"))) {
            tEnv.executeSql(view);
        }
        String sink = NexmarkRuns.sinkOptions("upsert-kafka-columnar", "localhost:1", "split", true);
        String insert = null;
        for (String statement : NexmarkRuns.statements(script.replace("${SINK}", sink))) {
            if (statement.toUpperCase().startsWith("INSERT")) {
                insert = statement;
            } else {
                tEnv.executeSql(statement);
            }
        }
        return ColumnarSql.explain(tEnv, insert);
    }
}
