package io.columnarkafka.planner;

import static io.columnarkafka.planner.ColumnarSqlExplainTest.section;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
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

    /** The bids again through Flink's own {@code kafka} connector: a row scan, so a Calc over it is Flink's. */
    private static final String ROW_BIDS = "CREATE TABLE row_bids (auction BIGINT, price BIGINT, channel STRING,"
            + " pt AS PROCTIME()) WITH ('connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' ="
            + " 'localhost:1', 'properties.group.id' = 'g', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')";

    /** q19's Rank with a Calc after it computing and reordering the columns it writes. */
    private static final String Q19_CALC = "INSERT INTO top_prices SELECT rank_number, auction, price * 100,"
            + " UPPER(channel) FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS"
            + " rank_number FROM bids) WHERE rank_number <= 10";
    private static final String TOP_PRICES = "rank_number BIGINT, auction BIGINT, cents BIGINT, channel STRING,"
            + " PRIMARY KEY (auction, rank_number) NOT ENFORCED";
    private static final String Q19_CALC_ITEM = "calc=[Calc(select=[rank_number, auction, (price * 100) AS EXPR$2,"
            + " UPPER(channel) AS EXPR$3])]";

    /** A filter and a projection over rows into an append table no step of Flink's sink node checks. */
    private static final String FILTERED = "INSERT INTO plain SELECT price * 2, auction FROM row_bids"
            + " WHERE channel <> 'x'";

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

    /**
     * The Calc (ABS) here reads a columnar scan, behind an edge, so it is not taken in (the row sink says why) and
     * Flink's Calc operator stays; nor is a split Calc's part after the edge.
     */
    @Test
    void anAppendQueryFedRowsIntoANotNullColumnIsARowSink() {
        TableEnvironment tEnv = installed(appendSink("prices", PRICES, ""));
        String explained = ColumnarSql.explain(tEnv, APPEND);
        assertThat(section(explained, "== Optimized Execution Plan =="))
                .contains("ColumnarRowSink(table=[default_catalog.default_database.prices], fields=[auction, EXPR$1,"
                        + " channel], calc=[not taken: its input is columnar: Flink's Calc reads the rows of an"
                        + " Arrow-to-rows edge], head=[ConstraintEnforcer[NotNullEnforcer(fields=[auction])]],"
                        + " encode=[admitted: json value]")
                .containsPattern("ColumnarRowSink\\([^\\n]*\\n[ :]*\\+- Calc\\(")
                .doesNotContainPattern("(?<!Columnar(Row)?)Sink\\(");
        assertFlinksStepsAreInTheEncodeOperator(tEnv, APPEND);
        assertThat(ColumnarSql.explain(tEnv, APPEND + " WHERE price > 10")).contains("columnar Calc: split: ")
                .contains("calc=[not taken: a split Calc: its filter runs on the batches, Flink's Calc of the rest after"
                        + " the edge]");
    }

    /**
     * A Calc after q19's Rank computing and reordering the written columns: taken into the row sink, which reads the
     * Rank; the job graph has no Calc operator, the encode operator is named after Flink's Calc operator for the
     * same Calc, then Flink's sink steps.
     */
    @Test
    void aCalcAfterARankIsTakenIntoTheRowSink() {
        TableEnvironment tEnv = installed(upsertSink("top_prices", TOP_PRICES));
        String explained = ColumnarSql.explain(tEnv, Q19_CALC);
        assertThat(section(explained, "== Optimized Execution Plan ==")).containsPattern(
                "ColumnarRowSink\\(table=\\[default_catalog.default_database.top_prices\\], fields=\\[[^\\n]*\\], "
                        + Pattern.quote(Q19_CALC_ITEM + ", head=[ConstraintEnforcer[NotNullEnforcer(fields=[rank_number,"
                                + " auction])]], encode=[admitted: ") + "[^\\n]*\\)\\n[ :]*\\+- Rank\\(")
                .doesNotContainPattern("\\+- Calc\\(").doesNotContainPattern("(?<!Columnar(Row)?)Sink\\(");
        assertThat(section(explained, "== Columnar Decision ==")).contains("columnar Calc: in the row sink's encode"
                + " operator, Flink's generated code").contains("columnar Sink: row head: ConstraintEnforcer["
                + "NotNullEnforcer(fields=[rank_number, auction])]; calc taken in: Flink's generated code in the encode"
                + " operator; admitted: ");
        assertFlinksCalcAndStepsAreInTheEncodeOperator(tEnv, Q19_CALC);
    }

    /**
     * A filter and a projection over a row scan into a table Flink's sink node adds no step for: the Calc alone makes
     * the row sink worth it; without the Calc taken in, Flink's sink node stays as before.
     */
    @Test
    void aFilteringCalcOverRowsMakesARowSinkWithoutSinkSteps() {
        TableEnvironment tEnv = installed(ROW_BIDS, appendSink("plain", "doubled BIGINT, auction BIGINT", ""));
        String explained = ColumnarSql.explain(tEnv, FILTERED);
        assertThat(section(explained, "== Optimized Execution Plan ==")).containsPattern(
                "ColumnarRowSink\\(table=\\[default_catalog.default_database.plain\\], fields=\\[EXPR\\$0, auction\\], "
                        + Pattern.quote("calc=[Calc(select=[(price * 2) AS EXPR$0, auction], where=[(channel <>"
                                + " 'x')])], encode=[admitted: json value]") + "\\)\\n[ :]*\\+- TableSourceScan\\(")
                .doesNotContainPattern("\\+- Calc\\(").doesNotContain("head=[");
        assertFlinksCalcAndStepsAreInTheEncodeOperator(tEnv, FILTERED);

        tEnv.getConfig().set(PlannerOptions.ROW_SINK_CALC.key(), "false");
        assertKeepsFlinksSink(tEnv, FILTERED, "no row head: Flink's sink node adds no step before the connector's"
                + " encoder; calc not taken: columnar-kafka.planner.sink.row-calc is false");
    }

    /** With the option off the row sink still runs Flink's sink steps, over Flink's Calc operator, and says why. */
    @Test
    void withTheCalcOptionOffTheRowSinkReadsFlinksCalc() {
        TableEnvironment tEnv = installed(upsertSink("top_prices", TOP_PRICES));
        tEnv.getConfig().set(PlannerOptions.ROW_SINK_CALC.key(), "false");
        String explained = ColumnarSql.explain(tEnv, Q19_CALC);
        assertThat(section(explained, "== Optimized Execution Plan ==")).containsPattern(
                Pattern.quote("calc=[not taken: columnar-kafka.planner.sink.row-calc is false], head=[ConstraintEnforcer[")
                        + "[^\\n]*\\n[ :]*\\+- " + Pattern.quote("Calc(select=[rank_number, auction, (price * 100)"));
        assertThat(section(explained, "== Columnar Decision ==")).contains("Flink Calc: INPUT_NOT_COLUMNAR input Rank");
    }

    /**
     * A proctime column materialized before the sink: Flink's generated code for {@code PROCTIME_MATERIALIZE} reads
     * its Calc operator's timer service, so the Calc stays Flink's operator, the reason in the row sink's line.
     */
    @Test
    void aCalcReadingItsOperatorsContextIsNotTakenIn() {
        TableEnvironment tEnv = installed(ROW_BIDS,
                appendSink("stamped", "auction BIGINT NOT NULL, pt TIMESTAMP_LTZ(3)", ""));
        String insert = "INSERT INTO stamped SELECT auction, pt FROM row_bids";
        String explained = ColumnarSql.explain(tEnv, insert);
        assertThat(section(explained, "== Optimized Execution Plan ==")).containsPattern(Pattern.quote(
                "calc=[not taken: PROCTIME_MATERIALIZE reads Flink's Calc operator (its timer service or record"
                        + " timestamp), which a generated function has not], head=[ConstraintEnforcer[")
                + "[^\\n]*\\n[ :]*\\+- Calc\\(select=\\[auction, PROCTIME_MATERIALIZE\\(");
        assertFlinksStepsAreInTheEncodeOperator(tEnv, insert);
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
     * Over a columnar Calc, a sink whose only constraint is NOT NULL is the Arrow-fed {@code ColumnarSink}, which runs
     * Flink's NOT NULL enforcer on the batches (with a type-length enforcer too, Flink's node stays behind the edge:
     * {@code ColumnarRowSinkParityITCase.aColumnarInputIntoASinkWithConstraintsKeepsFlinksSinkNode}).
     */
    @Test
    void aColumnarInputIntoANotNullColumnIsAnArrowFedSinkRunningFlinksEnforcer() {
        TableEnvironment tEnv = installed(appendSink("prices", PRICES, ""));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO prices SELECT auction, price, channel FROM bids");
        assertThat(section(explained, "== Optimized Execution Plan ==")).doesNotContain("ArrowToRows(")
                .contains("ColumnarSink(table=[default_catalog.default_database.prices], fields=[auction, price,"
                        + " channel], head=[ConstraintEnforcer[NotNullEnforcer(fields=[auction])]], encode=[admitted:");
    }

    /**
     * A changelog value format fed a columnar Calc's inserts: the Arrow-fed {@code ColumnarSink}, every row written
     * as an INSERT (before, the batches went through an edge to rows for the row-kind column).
     */
    @Test
    void insertsIntoAChangelogFormatAreAnArrowFedSink() {
        TableEnvironment tEnv = installed(appendSink("changes", "auction BIGINT, price BIGINT", "")
                .replace("'format' = 'json'", "'format' = 'debezium-json'"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO changes SELECT auction, price * 2 FROM bids");
        assertThat(section(explained, "== Optimized Execution Plan ==")).doesNotContain("ArrowToRows(")
                .contains("ColumnarCalc(").contains("ColumnarSink(table=[default_catalog.default_database.changes],"
                        + " fields=[auction, EXPR$1], encode=[admitted: debezium-json value, Arrow input])");
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

    /**
     * As {@link #assertFlinksStepsAreInTheEncodeOperator}, with Flink's Calc taken in: the encode operator is named
     * after the one Calc operator of Flink's own plan (row sink off), then Flink's sink steps, and the job graph has no
     * Calc operator.
     */
    private static void assertFlinksCalcAndStepsAreInTheEncodeOperator(TableEnvironment tEnv, String insert) {
        String withCalc = tEnv.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN);
        tEnv.getConfig().set(PlannerOptions.ROW_SINK_HEAD.key(), "false");
        String flinks = tEnv.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN);
        tEnv.getConfig().set(PlannerOptions.ROW_SINK_HEAD.key(), "true");
        Matcher encode = Pattern.compile("\"type\" : \"ColumnarEncode\\[[^\"]*; head: ([^\"]*)\\]\"").matcher(withCalc);
        assertThat(encode.find()).as(withCalc).isTrue();
        List<String> operators = Pattern.compile("\"contents\" : \"(?:\\[\\d+]:)?((Calc\\(|ConstraintEnforcer|"
                + "StreamRecordTimestampInserter)[^\"]*)\"").matcher(flinks).results().map(m -> m.group(1)).toList();
        assertThat(operators).as(flinks).hasSizeGreaterThanOrEqualTo(1);
        assertThat(operators.get(0)).as("Flink's one Calc operator, first").startsWith("Calc(");
        assertThat(operators.stream().filter(o -> o.startsWith("Calc("))).as(flinks).hasSize(1);
        assertThat(encode.group(1)).isEqualTo(String.join(", ", operators));
        assertThat(withCalc).doesNotContainPattern("\"type\" : \"Calc[\\[\"(]")
                .doesNotContain("\"type\" : \"ConstraintEnforcer")
                .doesNotContain("\"type\" : \"StreamRecordTimestampInserter");
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
