package io.columnarkafka.planner;

import static io.columnarkafka.planner.ColumnarSqlExplainTest.section;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;

/**
 * A {@code kafka-columnar} / {@code upsert-kafka-columnar} sink fed rows: Flink's sink node replaced by {@code
 * ColumnarRowSink}, whose encode operator runs Flink's constraint enforcer and rowtime step, where Flink's node adds
 * nothing else; each shape Flink's node does more for keeps it, with the reason (planning only).
 */
class ColumnarRowSinkExplainTest {
    /** Bids with an event time, read as rows by Flink's Rank and Deduplicate. */
    private static final String BIDS = "CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING,"
            + " url STRING, `dateTime` TIMESTAMP(3), extra STRING,"
            + " WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH ('connector' = 'kafka-columnar',"
            + " 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:1', 'properties.group.id' = 'g',"
            + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')";

    /** Nexmark q19's shape: the top 10 bids per auction, a Rank's updates into an upsert table. */
    private static final String Q19 = "INSERT INTO top_bids SELECT * FROM (SELECT *, ROW_NUMBER() OVER"
            + " (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bids) WHERE rank_number <= 10";
    private static final String TOP_BIDS = "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
            + " `dateTime` TIMESTAMP(3), extra STRING, rank_number BIGINT, PRIMARY KEY (auction, rank_number) NOT"
            + " ENFORCED";

    /** Nexmark q18's shape: each bidder's last bid per auction, a Deduplicate's updates into an upsert table. */
    private static final String Q18 = "INSERT INTO last_bids SELECT auction, bidder, price, channel, url, `dateTime`,"
            + " extra FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY `dateTime` DESC) AS"
            + " rank_number FROM bids) WHERE rank_number <= 1";
    private static final String LAST_BIDS = "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
            + " `dateTime` TIMESTAMP(3), extra STRING, PRIMARY KEY (bidder, auction) NOT ENFORCED";

    /** An append query fed rows (ABS stays Flink's Calc) into a NOT NULL column. */
    private static final String APPEND = "INSERT INTO prices SELECT auction, ABS(price), channel FROM bids";
    private static final String PRICES = "auction BIGINT NOT NULL, price BIGINT, channel STRING";

    private static String upsertSink(String name, String columns) {
        return "CREATE TABLE " + name + " (" + columns + ") WITH ('connector' = 'upsert-kafka-columnar', 'topic' = '"
                + name + "', 'properties.bootstrap.servers' = 'localhost:1', 'key.format' = 'json',"
                + " 'value.format' = 'json')";
    }

    private static String appendSink(String name, String columns, String moreOptions) {
        return "CREATE TABLE " + name + " (" + columns + ") WITH ('connector' = 'kafka-columnar', 'topic' = '" + name
                + "', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'json'" + moreOptions + ")";
    }

    private static TableEnvironment installed(String... tables) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        assertThat(ColumnarSql.install(tEnv).installed()).isTrue();
        tEnv.executeSql(BIDS);
        for (String table : tables) {
            tEnv.executeSql(table);
        }
        return tEnv;
    }

    @Test
    void q19sRankIntoAnUpsertTableReachesTheEncoderInOneOperator() {
        TableEnvironment tEnv = installed(upsertSink("top_bids", TOP_BIDS));
        String explained = ColumnarSql.explain(tEnv, Q19);
        String head = "head=[ConstraintEnforcer[NotNullEnforcer(fields=[auction, rank_number])],"
                + " StreamRecordTimestampInserter(rowtime field: 5)]";
        assertThat(section(explained, "== Optimized Execution Plan ==")).containsPattern(
                "ColumnarRowSink\\(table=\\[default_catalog.default_database.top_bids\\], fields=\\[[^\\n]*\\], "
                        + Pattern.quote(head) + ", encode=\\[admitted: [^\\n]*\\]\\)\\n[ :]*\\+- Rank\\(")
                .doesNotContainPattern("(?<!Columnar(Row)?)Sink\\(");
        assertThat(section(explained, "== Columnar Decision ==")).contains("columnar Sink: row head:"
                + " ConstraintEnforcer[NotNullEnforcer(fields=[auction, rank_number])], StreamRecordTimestampInserter(rowtime"
                + " field: 5); admitted: ");
        assertFlinksStepsAreInTheEncodeOperator(tEnv, Q19);
    }

    @Test
    void q18sDeduplicateIntoAnUpsertTableReachesTheEncoderInOneOperator() {
        TableEnvironment tEnv = installed(upsertSink("last_bids", LAST_BIDS));
        String explained = ColumnarSql.explain(tEnv, Q18);
        assertThat(section(explained, "== Optimized Execution Plan ==")).containsPattern(
                "ColumnarRowSink\\(table=\\[default_catalog.default_database.last_bids\\][^\\n]*"
                        + Pattern.quote("head=[ConstraintEnforcer[NotNullEnforcer(fields=[auction, bidder])],"
                                + " StreamRecordTimestampInserter(rowtime field: 5)]")
                        + "[^\\n]*\\n[ :]*\\+- (Calc|Deduplicate)\\(")
                .doesNotContainPattern("(?<!Columnar(Row)?)Sink\\(");
        assertFlinksStepsAreInTheEncodeOperator(tEnv, Q18);
    }

    @Test
    void anAppendQueryFedRowsIntoANotNullColumnIsARowSink() {
        TableEnvironment tEnv = installed(appendSink("prices", PRICES, ""));
        String explained = ColumnarSql.explain(tEnv, APPEND);
        assertThat(section(explained, "== Optimized Execution Plan =="))
                .contains("ColumnarRowSink(table=[default_catalog.default_database.prices], fields=[auction, EXPR$1,"
                        + " channel], head=[ConstraintEnforcer[NotNullEnforcer(fields=[auction])]], encode=[admitted: json"
                        + " value]")
                .doesNotContainPattern("(?<!Columnar(Row)?)Sink\\(");
        assertFlinksStepsAreInTheEncodeOperator(tEnv, APPEND);
    }

    /** With the enforcers Flink's node would trim and pad CHAR/VARCHAR with, the head names the same constraints. */
    @Test
    void theTypeLengthEnforcerIsFlinksForTheSameOptions() {
        TableEnvironment tEnv = installed(appendSink("short_channels", "auction BIGINT, channel VARCHAR(3),"
                + " code CHAR(4)", ""));
        tEnv.getConfig().set("table.exec.sink.type-length-enforcer", "TRIM_PAD");
        String insert = "INSERT INTO short_channels SELECT ABS(auction), channel, CAST(url AS CHAR(2)) FROM bids";
        assertThat(ColumnarSql.explain(tEnv, insert)).contains("ColumnarRowSink(").contains("head=[ConstraintEnforcer[");
        assertFlinksStepsAreInTheEncodeOperator(tEnv, insert);
    }

    @Test
    void withTheOptionOffFlinksSinkNodeStays() {
        TableEnvironment tEnv = installed(upsertSink("top_bids", TOP_BIDS));
        tEnv.getConfig().set(PlannerOptions.ROW_SINK_HEAD.key(), "false");
        assertKeepsFlinksSink(tEnv, Q19, "INPUT_NOT_COLUMNAR input Rank; no row head:"
                + " columnar-kafka.planner.sink.row-head is false");
    }

    @Test
    void anUpsertMaterializerKeepsFlinksSinkNode() {
        TableEnvironment tEnv = installed(upsertSink("top_bids", TOP_BIDS));
        tEnv.getConfig().set("table.exec.sink.upsert-materialize", "FORCE");
        assertKeepsFlinksSink(tEnv, Q19, "no row head: Flink's upsert materializer (SinkUpsertMaterializer)");
    }

    @Test
    void aForcedKeyedShuffleKeepsFlinksSinkNode() {
        TableEnvironment tEnv = installed(upsertSink("top_bids", TOP_BIDS));
        tEnv.getConfig().set("table.exec.sink.keyed-shuffle", "FORCE");
        assertKeepsFlinksSink(tEnv, Q19, "no row head: table.exec.sink.keyed-shuffle FORCE");
    }

    @Test
    void aSinkParallelismKeepsFlinksSinkNode() {
        TableEnvironment tEnv = installed(appendSink("prices", PRICES, ", 'sink.parallelism' = '3'"));
        assertKeepsFlinksSink(tEnv, APPEND, "no row head: sink.parallelism 3");
    }

    @Test
    void metadataColumnsKeepFlinksSinkNode() {
        TableEnvironment tEnv = installed(appendSink("prices", PRICES + ", ts TIMESTAMP_LTZ(3) METADATA FROM"
                + " 'timestamp'", ""));
        assertKeepsFlinksSink(tEnv, "INSERT INTO prices SELECT auction, ABS(price), channel, `dateTime` FROM bids",
                "no row head: metadata columns [timestamp]");
    }

    /** Two rowtime attributes: Flink's sink node fails the query, so it stays to do so with its own message. */
    @Test
    void twoRowtimeAttributesKeepFlinksSinkNodeAndItsError() {
        TableEnvironment tEnv = installed(appendSink("times", "a TIMESTAMP(3), b TIMESTAMP(3)", ""));
        String insert = "INSERT INTO times SELECT `dateTime`, `dateTime` FROM bids WHERE ABS(price) > 1";
        assertThatThrownBy(() -> tEnv.explainSql(insert))
                .hasStackTraceContaining("The query contains more than one rowtime attribute column");
        assertThat(ColumnarSql.lastDecision(tEnv).describe())
                .contains("no row head: 2 rowtime attributes: Flink's sink node rejects the query");
    }

    /** Without a NOT NULL column, length enforcer or rowtime there is nothing to take in: Flink's node stays. */
    @Test
    void aSinkFlinksNodeAddsNoStepForKeepsFlinksNode() {
        TableEnvironment tEnv = installed(appendSink("plain", "auction BIGINT, price BIGINT", ""));
        assertKeepsFlinksSink(tEnv, "INSERT INTO plain SELECT auction, ABS(price) FROM bids",
                "no row head: Flink's sink node adds no step before the connector's encoder");
    }

    /**
     * Over a columnar Calc, a sink whose constraints Flink's node checks per row is no Arrow-fed {@code ColumnarSink}
     * (its encoders check nothing): Flink's node behind the edge; without constraints the same query is columnar.
     */
    @Test
    void aColumnarInputIntoANotNullColumnKeepsFlinksSinkBehindTheEdge() {
        TableEnvironment tEnv = installed(appendSink("prices", PRICES, ""),
                appendSink("loose_prices", "auction BIGINT, price BIGINT, channel STRING", ""));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO prices SELECT auction, price, channel FROM bids");
        assertThat(section(explained, "== Optimized Execution Plan ==")).doesNotContain("ColumnarSink(")
                .contains("ArrowToRows(reason=[SINK_NOT_ADMITTED Flink's sink node checks each row:"
                        + " ConstraintEnforcer[NotNullEnforcer(fields=[auction])]]");
        assertThat(ColumnarSql.explain(tEnv, "INSERT INTO loose_prices SELECT auction, price, channel FROM bids"))
                .contains("ColumnarSink(").doesNotContain("ArrowToRows(");
    }

    /** Two rowtime attributes from a columnar Calc: Flink's sink node stays, behind the edge, to fail the query. */
    @Test
    void twoRowtimeAttributesFromAColumnarCalcKeepFlinksSinkAndItsError() {
        TableEnvironment tEnv = installed(appendSink("times", "a TIMESTAMP(3), b TIMESTAMP(3)", ""));
        String insert = "INSERT INTO times SELECT `dateTime`, `dateTime` FROM bids";
        assertThatThrownBy(() -> tEnv.explainSql(insert))
                .hasStackTraceContaining("The query contains more than one rowtime attribute column");
        assertThat(ColumnarSql.lastDecision(tEnv).describe())
                .contains("Flink Sink: SINK_NOT_ADMITTED 2 rowtime attributes: Flink's sink node rejects the query");
    }

    /** A sink that is not {@code kafka-columnar} is never replaced. */
    @Test
    void anotherConnectorsSinkStaysFlinks() {
        TableEnvironment tEnv = installed("CREATE TABLE printed (" + PRICES + ") WITH ('connector' = 'blackhole')");
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO printed SELECT auction, ABS(price), channel FROM bids");
        assertThat(explained).doesNotContain("ColumnarRowSink(").contains("Flink Sink: NOT_KAFKA_COLUMNAR_SINK");
    }

    private static void assertKeepsFlinksSink(TableEnvironment tEnv, String insert, String reason) {
        String explained = ColumnarSql.explain(tEnv, insert);
        assertThat(explained).doesNotContain("ColumnarRowSink(");
        assertThat(section(explained, "== Optimized Execution Plan ==")).containsPattern("(?<!Columnar)Sink\\(table=");
        assertThat(section(explained, "== Columnar Decision ==")).contains("Flink Sink: ").contains(reason);
    }

    /**
     * The job graph's operators: with the row head no ConstraintEnforcer or StreamRecordTimestampInserter operator
     * of its own, the encode operator named after the steps it runs; those are the operators Flink's own sink node
     * builds for the same query and session (the row head turned off).
     */
    private static void assertFlinksStepsAreInTheEncodeOperator(TableEnvironment tEnv, String insert) {
        String withHead = tEnv.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN);
        tEnv.getConfig().set(PlannerOptions.ROW_SINK_HEAD.key(), "false");
        String flinks = tEnv.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN);
        tEnv.getConfig().set(PlannerOptions.ROW_SINK_HEAD.key(), "true");
        Matcher encode = Pattern.compile("\"type\" : \"ColumnarEncode\\[[^\"]*; head: ([^\"]*)\\]\"").matcher(withHead);
        assertThat(encode.find()).as(withHead).isTrue();
        String steps = String.join(", ", Pattern.compile("\"contents\" : \"(?:\\[\\d+]:)?((ConstraintEnforcer|"
                + "StreamRecordTimestampInserter)[^\"]*)\"").matcher(flinks).results().map(m -> m.group(1)).toList());
        assertThat(steps).as(flinks).isNotEmpty();
        assertThat(encode.group(1)).isEqualTo(steps);
        assertThat(withHead).doesNotContain("\"type\" : \"ConstraintEnforcer")
                .doesNotContain("\"type\" : \"StreamRecordTimestampInserter");
    }
}
