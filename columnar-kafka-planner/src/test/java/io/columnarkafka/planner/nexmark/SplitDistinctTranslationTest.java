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
 * one. The bucket of an INT or BIGINT is computed by the columnar Calc; with mini-batch on, the partial phase's
 * local aggregate of one distinct column is vectorised. Nexmark q15 and q16 distinct two columns with filters, which
 * Flink's rewrite expands ({@code Expand}, no columnar operator): there the edge comes after the Calc. Planning only.
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
     * buckets is columnar; Flink's {@code Expand} (one row per distinct column) reads it through the edge, so the
     * partial phase's Calc and local aggregate read rows.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void q15sBucketCalcIsColumnarAndItsExpandIsFlinks(boolean miniBatch) {
        String explained = explain(NexmarkRuns.resource("q15.sql"), miniBatch);
        assertThat(physical(explained)).containsPattern("Expand\\(.*\\n"
                + "[ :]*\\+- ArrowToRows\\(reason=\\[ROW_OPERATOR no columnar operator for this node kind\\].*\\n"
                + "[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*MOD\\(HASH_CODE\\(bid\\.bidder\\), 1024\\) AS \\$f6,"
                + " MOD\\(HASH_CODE\\(bid\\.auction\\), 1024\\) AS \\$f7\\]");
        assertThat(decision(explained)).contains("columnar Calc: 8 projections, a filter")
                .contains("Flink Expand: ROW_OPERATOR no columnar operator for this node kind")
                .contains(miniBatch ? "Flink LocalGroupAggregate: INPUT_NOT_COLUMNAR input Calc"
                        : "Flink GroupAggregate: ROW_OPERATOR");
    }

    /**
     * q16 also buckets by the minute string (Flink's rewrite buckets {@code MAX(DATE_FORMAT(dateTime, 'HH:mm'))} by
     * its argument too): a string's HASH_CODE is Flink's {@code Math.abs} of the Java String's hash, not computed
     * columnar, so the Calc is split, the two BIGINT buckets columnar and the string's bucket Flink's after the edge.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void q16sStringBucketIsFlinksAfterTheEdge(boolean miniBatch) {
        String explained = explain(NexmarkRuns.resource("q16.sql"), miniBatch);
        assertThat(physical(explained)).containsPattern("(?<!Columnar)Calc\\(select=\\[[^\\n]*"
                        + "MOD\\(HASH_CODE\\(DATE_FORMAT\\(dateTime, _UTF-16LE'HH:mm'\\)\\), 1024\\) AS \\$f8, \\$f9, \\$f10\\]\\)\\n"
                        + "[ :]*\\+- ArrowToRows\\(reason=\\[CALC_NOT_EXACT \\$f8: HASH_CODE of STRING \\(only INT, BIGINT\\)\\]"
                        + ".*\\n[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*MOD\\(HASH_CODE\\(bid\\.bidder\\), 1024\\) AS \\$f9,"
                        + " MOD\\(HASH_CODE\\(bid\\.auction\\), 1024\\) AS \\$f10, bid\\.dateTime AS dateTime\\]");
        assertThat(decision(explained)).contains("columnar Calc: split: the filter and 10 of 11 projections columnar,"
                        + " 1 more input value to the edge; Flink's Calc after the edge: CALC_NOT_EXACT $f8: HASH_CODE of"
                        + " STRING (only INT, BIGINT)")
                .contains("Flink Expand: ROW_OPERATOR no columnar operator for this node kind");
    }

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
