package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.table.FlinkInternalsSeam;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkTopic;
import java.util.List;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.table.functions.ScalarFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nexmark queries over a real broker: stock {@code kafka} to {@code kafka} against {@code kafka-columnar} to
 * {@code kafka-columnar} with the columnar stage installed, on the same events, EXACTLY_ONCE. The committed
 * output records must be byte for byte the same, partition by partition in order; and each test asserts from
 * EXPLAIN which path the columnar run took (identical bytes from a fallback prove nothing).
 */
class NexmarkColumnarParityITCase {
    private static final int PARALLELISM = 2;
    /** 20,000 events: 18,400 bids, 400 people, 1,200 auctions. */
    private static final long EVENTS = 20_000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(PARALLELISM);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static NexmarkRuns runs;

    @BeforeAll
    static void fillEvents() {
        KAFKA.broker().createTopic("nexmark_events", PARALLELISM);
        NexmarkTopic.fill(KAFKA.broker().bootstrapServers(), "nexmark_events", PARALLELISM,
                new NexmarkGenerator(NexmarkConfig.defaults(7)), EVENTS);
        runs = new NexmarkRuns(KAFKA.broker(), "nexmark_events");
    }

    /** Runs the query both ways, compares the bytes and returns the columnar run's EXPLAIN. */
    private static String parity(String query, String script, boolean upsert) throws Exception {
        return parity(query, script, upsert, false);
    }

    /**
     * As above; with {@code eventTime}, the source table declares the suite's watermark and the records are
     * compared as sorted lists (what a shuffle delivers first depends on timing).
     */
    private static String parity(String query, String script, boolean upsert, boolean eventTime) throws Exception {
        return parity(query, script, upsert, eventTime, upsert || eventTime);
    }

    /** As above; with {@code sorted}, the records are compared as sorted lists. */
    private static String parity(String query, String script, boolean upsert, boolean eventTime, boolean sorted)
            throws Exception {
        return parity(runs, query, script, upsert, eventTime, sorted);
    }

    /** As above, through {@code runs} (e.g. with mini-batch on). */
    private static String parity(NexmarkRuns runs, String query, String script, boolean upsert, boolean eventTime,
            boolean sorted) throws Exception {
        NexmarkRuns.Run stock = runs.run(query, script, false, upsert, PARALLELISM, eventTime);
        NexmarkRuns.Run columnar = runs.run(query, script, true, upsert, PARALLELISM, eventTime);
        List<String> expected = runs.records(stock.topic());
        assertThat(expected).as("stock output of %s", query).isNotEmpty();
        List<String> actual = runs.records(columnar.topic());
        if (sorted) {
            // An aggregate's updates reach the sink in an order that depends on the shuffle.
            expected = expected.stream().sorted().toList();
            actual = actual.stream().sorted().toList();
        }
        assertThat(actual).as("columnar output of %s vs stock, %d records", query, expected.size())
                .isEqualTo(expected);
        assertThat(stock.explain()).as("the stock run has no columnar node").doesNotContain("Columnar");
        return columnar.explain();
    }

    /**
     * The job's plan (after Flink's sub-plan reuse) has one {@code ColumnarScan}, which the other branches
     * reuse, and no {@code TableSourceScan}: the topic is read and decoded once.
     */
    private static void assertOneSharedColumnarScan(String explain) {
        String execution = explain.substring(explain.indexOf("== Optimized Execution Plan =="));
        assertThat(execution.split("ColumnarScan\\(", -1)).as(execution).hasSize(2);
        assertThat(execution).contains("Reused(reference_id=").doesNotContain("TableSourceScan(");
    }

    private static void assertFullyColumnar(String explain) {
        assertThat(explain).contains("ColumnarScan(").contains("ColumnarCalc(").contains("ColumnarSink(")
                .doesNotContain("ArrowToRows(");
    }

    /** The bids as they are, no Calc: scan and sink alone, fully columnar. */
    @Test
    void bidsPassThrough() throws Exception {
        String script = "CREATE TABLE passthrough (event_type INT, bid ROW<auction BIGINT, bidder BIGINT, price BIGINT,"
                + " channel STRING, url STRING, `dateTime` TIMESTAMP(3), extra STRING>) WITH (${SINK});\n"
                + "INSERT INTO passthrough SELECT event_type, bid FROM nexmark;";
        String explain = parity("passthrough", script, false);
        assertThat(explain).contains("ColumnarScan(").contains("ColumnarSink(").doesNotContain("ArrowToRows(");
    }

    @Test
    void q0() throws Exception {
        assertFullyColumnar(parity("q0", NexmarkRuns.resource("q0.sql"), false));
    }

    @Test
    void q1() throws Exception {
        String explain = parity("q1", NexmarkRuns.resource("q1.sql"), false);
        System.out.println("q1 EXPLAIN (columnar):\n" + explain);
        assertFullyColumnar(explain);
    }

    @Test
    void q2() throws Exception {
        assertFullyColumnar(parity("q2", NexmarkRuns.resource("q2.sql"), false));
    }

    @Test
    void q21() throws Exception {
        assertFullyColumnar(parity("q21", NexmarkRuns.resource("q21.sql"), false));
    }

    @Test
    void q22() throws Exception {
        assertFullyColumnar(parity("q22", NexmarkRuns.resource("q22.sql"), false));
    }

    /**
     * The plan of a split Calc (issue #11): Flink's Calc, with no condition, calling {@code udf} over an {@code
     * ArrowToRows} edge after a {@code ColumnarCalc} that applies the filter; the scan and the Calc's filter
     * columnar, not a whole fallback.
     */
    private static void assertSplitCalc(String explain, String udf) {
        String physical = explain.substring(explain.indexOf("== Optimized Physical Plan =="),
                explain.indexOf("== Optimized Execution Plan =="));
        assertThat(physical).containsPattern("(?<!Columnar)Calc\\(select=\\[[^\\n]*" + udf + "\\([^\\n]*\\n"
                        + "[ :]*\\+- ArrowToRows\\(reason=\\[EXPRESSION_NOT_TRANSLATED [^\\n]*UDF " + udf + "[^\\n]*\\n"
                        + "[ :]*\\+- ColumnarCalc\\([^\\n]*where=\\[[^\\n]*\\n[ :]*\\+- ColumnarScan\\(")
                .doesNotContainPattern("(?<!Columnar)Calc\\([^\\n]*where=");
        assertThat(physical.split("ArrowToRows\\(", -1)).as("one edge, the split's").hasSize(2);
    }

    /**
     * Nexmark q14: the columnar calc filters the price range and calls the suite's UDF {@code count_char} itself, with
     * Flink's generated code for the call, on the bids that passed; the batches stay columnar into the {@code
     * kafka-columnar} sink (no edge, no row Calc) and the output equals stock's record for record.
     */
    @Test
    void q14RunsTheUdfInTheColumnarCalc() throws Exception {
        String explain = parity("q14", NexmarkRuns.resource("q14.sql"), false);
        assertFlinkCodeInTheCalc(explain, "count_char");
        assertThat(explain).contains("flinkCode=[c_counts (UDF count_char)]");
    }

    /**
     * With {@code columnar-kafka.planner.calc.flink-code} off, q14 is split as before: the price range filtered
     * columnar, the UDF in Flink's Calc after the edge on the bids that passed; the output equals stock's.
     */
    @Test
    void q14WithFlinkCodeOffFiltersColumnarBeforeFlinksCalcCallsTheUdf() throws Exception {
        String explain = parity(runs.withOption("columnar-kafka.planner.calc.flink-code", "false"), "q14",
                NexmarkRuns.resource("q14.sql"), false, false, false);
        assertSplitCalc(explain, "count_char");
    }

    /**
     * A projection that fails on rows the filter drops (a division by {@code MOD(bidder, 7)}, zero for a seventh of
     * the bids) and one calling a UDF: the columnar calc computes the division and calls the UDF (Flink's generated
     * code for the call) for the rows that passed only, as Flink's generated Calc does; the job runs and its output
     * equals stock's.
     */
    @Test
    void aDivisionTheFilterGuardsRunsColumnarBesideAUdfInTheCalc() throws Exception {
        String script = "CREATE TABLE guarded (auction BIGINT, share BIGINT, c_counts BIGINT) WITH (${SINK});\n"
                + "INSERT INTO guarded SELECT auction, price / MOD(bidder, 7) AS share, count_char(extra, 'a') AS"
                + " c_counts FROM bid WHERE MOD(bidder, 7) <> 0;";
        String explain = parity("guarded", script, false);
        assertFlinkCodeInTheCalc(explain, "count_char");
        assertThat(explain).containsPattern("ColumnarCalc\\(select=\\[[^\\n]*/\\(bid\\.price, MOD\\(bid\\.bidder, 7\\)\\)");
    }

    /**
     * Three deterministic UDFs in one Calc, one of them in the condition (after the view's {@code event_type = 2}, so
     * called for bids only, as Flink's AND does): the columnar calc calls all three with Flink's generated code for
     * each, no edge and no row Calc; the output equals stock's record for record.
     */
    @Test
    void twoUdfsInTheProjectionsAndOneInTheConditionRunInTheColumnarCalc() throws Exception {
        assertUdfsRunInTheCalc("banded", "auction BIGINT, band INT, c_counts BIGINT", "SELECT auction,"
                + " price_band(price) AS band, count_char(extra, 'a') AS c_counts FROM bid WHERE kept_bidder(bidder)",
                "where (UDF kept_bidder), band (UDF price_band), c_counts (UDF count_char)");
    }

    /**
     * One deterministic UDF called three times in one Calc (the condition, two projections) runs in the columnar calc
     * with one instance for the three calls, as Flink's Calc has; the output equals stock's.
     */
    @Test
    void oneUdfCalledInTheConditionAndTwoProjectionsRunsInTheColumnarCalc() throws Exception {
        assertUdfsRunInTheCalc("banded_twice", "auction BIGINT, band INT, bidder_band INT", "SELECT auction,"
                + " price_band(price) AS band, price_band(bidder) AS bidder_band FROM bid WHERE price_band(price) > 0",
                "where (UDF price_band), band (UDF price_band), bidder_band (UDF price_band)");
    }

    /**
     * Runs {@code select} into a table {@code table} of {@code columns} both ways, with {@link PriceBand} and {@link
     * KeptBidder} registered, and asserts equal output and a plan whose columnar calc runs {@code calls} (its {@code
     * flinkCode=[...]}), with no edge and no row Calc.
     */
    private static void assertUdfsRunInTheCalc(String table, String columns, String select, String calls)
            throws Exception {
        String script = "CREATE TEMPORARY SYSTEM FUNCTION price_band AS '" + PriceBand.class.getName() + "';\n"
                + "CREATE TEMPORARY SYSTEM FUNCTION kept_bidder AS '" + KeptBidder.class.getName() + "';\n"
                + "CREATE TABLE " + table + " (" + columns + ") WITH (${SINK});\n"
                + "INSERT INTO " + table + " " + select + ";";
        String explain = parity(table, script, false);
        assertFlinkCodeInTheCalc(explain, calls.substring(calls.lastIndexOf("UDF ") + 4, calls.lastIndexOf(')')));
        assertThat(explain).contains("flinkCode=[" + calls + "]");
    }

    /** A bid's price band: a thousandth of the price, at most 9 (deterministic, Flink's default). */
    public static final class PriceBand extends ScalarFunction {
        public Integer eval(Long price) {
            return price == null ? null : (int) Math.min(9, price / 1000);
        }
    }

    /** Keeps two bidders in three (deterministic, Flink's default). */
    public static final class KeptBidder extends ScalarFunction {
        public Boolean eval(Long bidder) {
            return bidder == null ? null : bidder % 3 != 0;
        }
    }

    /**
     * The plan runs {@code udf} in the columnar calc: the calc's select shows the call and {@code flinkCode=[...]}
     * names it, its batches go to the columnar sink, and no edge and no row Calc are left.
     */
    private static void assertFlinkCodeInTheCalc(String explain, String udf) {
        String physical = explain.substring(explain.indexOf("== Optimized Physical Plan =="),
                explain.indexOf("== Optimized Execution Plan =="));
        assertThat(physical).containsPattern("ColumnarSink\\([^\\n]*\\n[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*"
                        + udf + "\\([^\\n]*where=\\[[^\\n]*flinkCode=\\[[^\\n]*UDF " + udf + "[^\\n]*\\n"
                        + "[ :]*\\+- ColumnarScan\\(")
                .doesNotContain("ArrowToRows(").doesNotContainPattern("(?<!Columnar)Calc\\(");
    }

    /**
     * Nexmark q5 (hopping windows over the event time, a window join), with the suite's watermark: the
     * columnar scan runs Flink's watermark strategy per split on its Arrow batches, the columnar calc computes
     * the rowtime attribute (the {@code Reinterpret} of the event-time CASE) and filters the bids, Flink's local
     * window aggregate reads the calc's batches in place ({@code ColumnarLocalWindowAggregate}, no Arrow-to-rows
     * edge), Flink's global window aggregates and join do the rest, and the output equals stock's.
     */
    @Test
    void q5EventTimeWindowsOverAColumnarScan() throws Exception {
        String explain = parity("q5", NexmarkRuns.resource("q5.sql"), false, true);
        String physical = explain.substring(explain.indexOf("== Optimized Physical Plan =="));
        assertThat(physical).contains("ColumnarScan(").contains("watermark=[-(CASE(").contains("watermark=[columnar]")
                .containsPattern("ColumnarCalc\\(select=\\[[^\\n]*Reinterpret\\(CASE\\(")
                .containsPattern("ColumnarLocalWindowAggregate\\(groupBy=\\[auction\\].*local=\\[vectorised\\]\\)\\n"
                        + "[ :]*\\+- ColumnarCalc\\(")
                .doesNotContain("ArrowToRows(").doesNotContain("EXPRESSION_NOT_TRANSLATED")
                .contains("WindowAggregate(").contains("WindowJoin(").doesNotContain("WatermarkAssigner(");
        assertOneSharedColumnarScan(explain);
        // Both branches count bids per auction and window: as in stock's plan, one calc and one window
        // aggregate (and its state) serve both, the calc lending its batches to the shared row operators.
        String execution = explain.substring(explain.indexOf("== Optimized Execution Plan =="));
        assertThat(execution.split("GlobalWindowAggregate\\(groupBy=\\[auction\\]", -1).length - 1).as(execution)
                .isEqualTo(1);
        assertThat(execution.split("ColumnarCalc\\(", -1).length - 1).as(execution).isEqualTo(1);
    }

    /** A tumbling window aggregate with null keys whose DOUBLE MIN and MAX keep it off the vectorised path. */
    private static final String TUMBLE_STATS = "CREATE TABLE tumble_stats (k BIGINT, ws TIMESTAMP(3), we TIMESTAMP(3),"
            + " n BIGINT, nk BIGINT, total BIGINT, lo BIGINT, hi DOUBLE, dlo DOUBLE) WITH (${SINK});\n"
            + "CREATE TEMPORARY VIEW keyed_bid AS SELECT CASE WHEN MOD(bidder, 5) = 0 THEN CAST(NULL AS BIGINT)"
            + " ELSE MOD(auction, 10) END AS k, price, CAST(price AS DOUBLE) / 3 AS dprice, `dateTime` FROM bid;\n"
            + "INSERT INTO tumble_stats SELECT k, window_start, window_end, COUNT(*), COUNT(k), SUM(price),"
            + " MIN(price), MAX(dprice), MIN(dprice) FROM TABLE(TUMBLE(TABLE keyed_bid, DESCRIPTOR(`dateTime`),"
            + " INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end;";

    /**
     * A tumbling window aggregate whose grouping key is null for a fifth of the bids, with COUNT(*), COUNT of a
     * nullable column, SUM, MIN and MAX on BIGINT, MIN and MAX on DOUBLE: the local phase reads the columnar calc's
     * batches ({@code ColumnarLocalWindowAggregate}), and the windows equal stock's. (No DOUBLE SUM: the global phase
     * adds the local phases' partial sums in the order they arrive, which differs from run to run in stock Flink too,
     * and floating-point addition is not associative.)
     */
    @Test
    void aTumblingWindowAggregateWithNullKeysReadsTheBatchesInItsLocalPhase() throws Exception {
        String explain = parity("tumble_stats", TUMBLE_STATS, false, true);
        String physical = explain.substring(explain.indexOf("== Optimized Physical Plan =="));
        // DOUBLE MAX and MIN are not vectorised: Flink's operator over row views
        assertThat(physical).containsPattern("ColumnarLocalWindowAggregate\\(groupBy=\\[k\\], window=\\[TUMBLE\\(.*"
                + "local=\\[row view, not vectorised: MAX\\(\\$.*\\n[ :]*\\+- ColumnarCalc\\(")
                .doesNotContain("ArrowToRows(");
    }

    /** Bids keyed by a BIGINT that is null for a fifth of them, with the columns the window calls read. */
    private static final String KEYED_BID = "CREATE TEMPORARY VIEW keyed_bid AS SELECT CASE WHEN MOD(bidder, 5) = 0"
            + " THEN CAST(NULL AS BIGINT) ELSE MOD(auction, 10) END AS k, price, channel, bidder, `dateTime`"
            + " FROM bid;\n";

    /**
     * AVG and SUM beside it (a SUM: price is nullable), FILTERs, MAX and MIN of a VARCHAR over a HOP without an
     * unfiltered COUNT(*), so with the COUNT(*) Flink appends.
     */
    private static final String HOP_CALLS = "CREATE TABLE hop_calls (k BIGINT, ws TIMESTAMP(3), we TIMESTAMP(3),"
            + " n BIGINT, ap BIGINT, sp BIGINT, hc STRING, lc STRING) WITH (${SINK});\n" + KEYED_BID
            + "INSERT INTO hop_calls SELECT k, window_start, window_end, COUNT(*) FILTER (WHERE price > 1000),"
            + " AVG(price), SUM(price), MAX(channel), MIN(channel) FILTER (WHERE price > 1000) FROM TABLE(HOP(TABLE"
            + " keyed_bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
            + " GROUP BY k, window_start, window_end;";

    /** COUNT(DISTINCT ...) with and without a FILTER, and a filtered AVG, over a CUMULATE. */
    private static final String CUMULATE_CALLS = "CREATE TABLE cumulate_calls (k BIGINT, ws TIMESTAMP(3),"
            + " we TIMESTAMP(3), d BIGINT, df BIGINT, ap BIGINT) WITH (${SINK});\n" + KEYED_BID
            + "INSERT INTO cumulate_calls SELECT k, window_start, window_end, COUNT(DISTINCT bidder),"
            + " COUNT(DISTINCT bidder) FILTER (WHERE price > 1000), AVG(price) FILTER (WHERE price > 1000) FROM"
            + " TABLE(CUMULATE(TABLE keyed_bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
            + " GROUP BY k, window_start, window_end;";

    /**
     * COUNT(DISTINCT ...) over a HOP, whose distinct maps count each value's rows per call (Flink's HOP counts each
     * slice's input): of a BIGINT with and without a FILTER (a {@code long[]} per value), of an INT (a Long) and of
     * a VARCHAR with a FILTER (a Long), without a COUNT(*) (Flink appends one).
     */
    private static final String HOP_DISTINCT = "CREATE TABLE hop_distinct (k BIGINT, ws TIMESTAMP(3),"
            + " we TIMESTAMP(3), d BIGINT, df BIGINT, di BIGINT, dc BIGINT) WITH (${SINK});\n" + KEYED_BID
            + "INSERT INTO hop_distinct SELECT k, window_start, window_end, COUNT(DISTINCT bidder),"
            + " COUNT(DISTINCT bidder) FILTER (WHERE price > 1000), COUNT(DISTINCT CAST(MOD(bidder, 50) AS INT)),"
            + " COUNT(DISTINCT channel) FILTER (WHERE price < 1000) FROM TABLE(HOP(TABLE keyed_bid,"
            + " DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND)) GROUP BY k, window_start,"
            + " window_end;";

    /**
     * Window aggregates with the calls the vectorised local phase shares with the group aggregate: the local phase
     * is computed on the vectors ({@code local=[vectorised]}), and the windows (after Flink's global phase merged
     * the local phases' accumulators) equal stock's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"hop_calls", "cumulate_calls", "hop_distinct"})
    void windowAggregatesWithAveragesFiltersStringsAndDistinctCountsAreVectorised(String query) throws Exception {
        String script = switch (query) {
            case "hop_calls" -> HOP_CALLS;
            case "cumulate_calls" -> CUMULATE_CALLS;
            default -> HOP_DISTINCT;
        };
        String explain = parity(query, script, false, true);
        String physical = explain.substring(explain.indexOf("== Optimized Physical Plan =="),
                explain.indexOf("== Optimized Execution Plan =="));
        assertThat(physical)
                .containsPattern("ColumnarLocalWindowAggregate\\(groupBy=\\[k\\].*local=\\[vectorised\\]")
                .doesNotContain("ArrowToRows(");
        if (query.equals("hop_distinct")) {
            assertThat(physical).containsPattern("ColumnarLocalWindowAggregate\\(groupBy=\\[k\\], window=\\[HOP"
                    + ".*COUNT\\(distinct\\$0 .*local=\\[vectorised\\]");
        }
    }

    /**
     * The same aggregate planned as on a Flink whose local window aggregate operator does not keep its parts where
     * Flink 2.2.1 does (the probe pointed at a class without them, {@link FlinkInternalsSeam}): the local phase
     * is Flink's own node behind an Arrow-to-rows edge, EXPLAIN says why, the job translates and runs, and the
     * windows equal stock's.
     */
    @Test
    void whereFlinksOperatorPartsAreUnreadableTheLocalPhaseIsFlinksNodeAndTheWindowsEqualStocks() throws Exception {
        String explain;
        try (FlinkInternalsSeam elsewhere = FlinkInternalsSeam.localWindowAggPartsOf(Object.class)) {
            explain = parity("tumble_stats_unreadable", TUMBLE_STATS, false, true);
        }
        String physical = explain.substring(explain.indexOf("== Optimized Physical Plan =="),
                explain.indexOf("== Optimized Execution Plan =="));
        assertThat(physical).containsPattern("(?<!Columnar)LocalWindowAggregate\\(groupBy=\\[k\\].*\\n[ :]*\\+-"
                + " ArrowToRows\\(reason=\\[FLINK_INTERNALS_UNREADABLE java.lang.Object has no field")
                .contains("ColumnarCalc(").doesNotContain("ColumnarLocalWindowAggregate(");
    }

    /**
     * Nexmark q7 (MAX(price) per 10 s tumbling window, no key, joined back to the bids) and q8 (people and auctions
     * grouped per window without aggregate functions, joined), mini-batch off: every local window aggregate is
     * computed on the vectors ({@code local=[vectorised]}), and the output equals stock's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"q7", "q8"})
    void windowAggregatesOfQ7AndQ8AreVectorised(String query) throws Exception {
        String explain = parity(query, NexmarkRuns.resource(query + ".sql"), false, true);
        String physical = explain.substring(explain.indexOf("== Optimized Physical Plan =="),
                explain.indexOf("== Optimized Execution Plan =="));
        int locals = physical.split("ColumnarLocalWindowAggregate\\(", -1).length - 1;
        assertThat(locals).as(physical).isEqualTo(query.equals("q7") ? 1 : 2);
        assertThat(physical.split("local=\\[vectorised\\]", -1).length - 1).as(physical).isEqualTo(locals);
        assertThat(physical).doesNotContainPattern("(?<!Columnar)LocalWindowAggregate\\(").doesNotContain("row view")
                .contains("watermark=[columnar]");
    }

    /**
     * Nexmark q3 (auctions joined with people, both read from the one events table, with the suite's
     * watermark): one watermarked {@code ColumnarScan} lends each batch to both branches' columnar Calcs, and the
     * join's output equals stock's.
     */
    @Test
    void q3JoinsTwoBranchesOfOneSharedColumnarScan() throws Exception {
        String explain = parity("q3", NexmarkRuns.resource("q3.sql"), false, true);
        assertThat(explain).contains("watermark=[-(CASE(").contains("ArrowToRows(").contains("Join(");
        assertThat(explain.split("ColumnarCalc\\(", -1).length - 1).as("a columnar Calc per branch, in each plan")
                .isGreaterThanOrEqualTo(2);
        assertOneSharedColumnarScan(explain);
    }

    /**
     * The stateful queries whose columnar Calc hands Flink's keyed operators its rows across a hash exchange (q4: a
     * join and two aggregates, q15: distinct counts, q19: a Top-N): the edge writes each row as Flink's binary row
     * ({@code rows=[binary]}), and the final result per key equals stock's. Compared by the final value per key, as
     * the benchmark does: the intermediate updates depend on how the two source subtasks' rows interleave at the
     * keyed operator, in stock Flink too. q19's ranks of bids tied on price are in no defined order, so its values
     * are compared without the columns a tie leaves open (the key (auction, rank) and the price stay compared; the
     * benchmark's {@code NexmarkQuery.Q19} leaves the same ones open).
     */
    @ParameterizedTest
    @ValueSource(strings = {"q4", "q15", "q19"})
    void statefulQueriesReadBinaryRowsFromTheEdge(String query) throws Exception {
        String script = NexmarkRuns.resource(query + ".sql");
        List<String> openOnTie = query.equals("q19")
                ? List.of("bidder", "channel", "url", "dateTime", "extra") : List.of();
        NexmarkRuns.Run stock = runs.run(query, script, false, true, PARALLELISM, true);
        NexmarkRuns.Run columnar = runs.run(query, script, true, true, PARALLELISM, true);
        Map<String, String> expected = runs.finalValuePerKey(stock.topic(), openOnTie);
        assertThat(expected).as("stock's final result of %s", query).isNotEmpty();
        assertThat(runs.finalValuePerKey(columnar.topic(), openOnTie)).as("columnar final result of %s", query)
                .isEqualTo(expected);
        assertThat(columnar.explain()).contains("ColumnarScan(").contains("ColumnarCalc(")
                .containsPattern("ArrowToRows\\(reason=\\[[^\\n]*, rows=\\[binary]\\)")
                .doesNotContain("rows=[views]");
    }

    /**
     * Two branches reading different columns of the events (people's ids, bids' auctions): one {@code
     * ColumnarScan} of the union of the columns, each branch's projection and filter a columnar Calc after it.
     */
    @Test
    void branchesReadingDifferentColumnsShareOneScanOfTheirUnion() throws Exception {
        String script = "CREATE TABLE ids (id BIGINT) WITH (${SINK});\n"
                + "INSERT INTO ids SELECT person.id FROM nexmark WHERE event_type = 0"
                + " UNION ALL SELECT bid.auction FROM nexmark WHERE event_type = 2;";
        String explain = parity("union", script, false, false, true);
        String execution = explain.substring(explain.indexOf("== Optimized Execution Plan =="));
        assertThat(execution).contains("fields=[event_type, person, bid]");
        assertOneSharedColumnarScan(explain);
    }

    /**
     * A stateful query: the columnar scan, then Flink's aggregate behind an Arrow-to-rows edge, into an upsert
     * table whose changelog Flink's row path writes.
     */
    @Test
    void anAggregateRunsOnFlinksOperatorsBetweenColumnarEdges() throws Exception {
        String script = "CREATE TABLE bids_per_auction (auction BIGINT, num BIGINT, PRIMARY KEY (auction) NOT ENFORCED)"
                + " WITH (${SINK});\n"
                + "INSERT INTO bids_per_auction SELECT auction, COUNT(*) AS num FROM bid GROUP BY auction;";
        String explain = parity("agg", script, true);
        assertThat(explain).contains("ColumnarScan(").contains("ArrowToRows(").contains("GroupAggregate(")
                .doesNotContain("ColumnarSink(");
    }

    /**
     * Mini-batch on, as the benchmark runs it: Flink's plan puts a mini-batch assigner between the scan and the
     * Calcs. The stage runs Flink's own assigner on the batches, so each Calc after it stays columnar and the edge
     * to Flink's operators comes after the Calc; the output equals stock's with mini-batch on. q3 (a mini-batch
     * join behind a processing-time assigner both branches share), q7 (a processing-time assigner before the join
     * and a row-time one before the window), q8 (a row-time assigner both window branches share).
     */
    @ParameterizedTest
    @ValueSource(strings = {"q3", "q7", "q8"})
    void withMiniBatchTheCalcsAfterTheAssignerAreColumnar(String query) throws Exception {
        String explain = parity(runs.withMiniBatch(), query, NexmarkRuns.resource(query + ".sql"), false, true, true);
        assertColumnarAssignersBeforeColumnarCalcs(explain);
        assertOneSharedColumnarScan(explain);
    }

    /**
     * A group aggregate with mini-batch on: {@code ColumnarScan -> ColumnarMiniBatchAssigner -> ColumnarCalc ->
     * ColumnarLocalGroupAggregate} (computed on the batches) {@code -> Exchange -> GlobalGroupAggregate}, into an
     * upsert table. How many intermediate updates a mini-batch aggregate emits depends on where the mini-batches
     * end, in stock Flink too, so the runs are compared by the final value per key. The COUNT(DISTINCT) of a string
     * (a channel repeats across flushes) has the global phase merge the local phase's maps of strings by value.
     */
    @Test
    void withMiniBatchAGroupAggregatesLocalPhaseIsVectorised() throws Exception {
        String script = "CREATE TABLE bids_per_auction (auction BIGINT, num BIGINT, channels BIGINT,"
                + " PRIMARY KEY (auction) NOT ENFORCED) WITH (${SINK});\n"
                + "INSERT INTO bids_per_auction SELECT auction, COUNT(*) AS num, COUNT(DISTINCT channel) AS channels"
                + " FROM bid WHERE price > 1000 GROUP BY auction;";
        NexmarkRuns miniBatch = runs.withMiniBatch();
        NexmarkRuns.Run stock = miniBatch.run("agg_mb", script, false, true, PARALLELISM);
        NexmarkRuns.Run columnar = miniBatch.run("agg_mb", script, true, true, PARALLELISM);
        Map<String, String> expected = miniBatch.finalValuePerKey(stock.topic());
        assertThat(expected).as("stock's final counts").hasSizeGreaterThan(100);
        assertThat(miniBatch.finalValuePerKey(columnar.topic())).isEqualTo(expected);
        String physical = columnar.explain().substring(columnar.explain().indexOf("== Optimized Physical Plan =="));
        assertThat(physical).containsPattern("ColumnarLocalGroupAggregate\\(.*local=\\[vectorised\\]\\)\\n"
                + "[ :]*\\+- ColumnarCalc\\(.*\\n[ :]*\\+- ColumnarMiniBatchAssigner\\(.*mode=\\[ProcTime\\]\\)\\n"
                + "[ :]*\\+- ColumnarScan\\(");
        assertColumnarAssignersBeforeColumnarCalcs(columnar.explain());
    }

    /**
     * Nexmark q15, q16 and q17 with mini-batch on, as the benchmark runs them: their local phase computed on the
     * batches (q17: counts with filters, MIN, MAX, AVG, SUM per auction and day; q15 and q16: counts and
     * COUNT(DISTINCT ...) of bidders and auctions with filters per day, q16 also per channel with the MAX of a time
     * string); the final result per key equals stock's. q15 and q16 have few keys (days, channels).
     */
    @ParameterizedTest
    @CsvSource({"q15, 0", "q16, 0", "q17, 100"})
    void withMiniBatchTheGroupAggregatesLocalPhaseIsVectorisedAndTheResultIsStocks(String query, int moreKeysThan)
            throws Exception {
        NexmarkRuns miniBatch = runs.withMiniBatch();
        String script = NexmarkRuns.resource(query + ".sql");
        NexmarkRuns.Run stock = miniBatch.run(query, script, false, true, PARALLELISM, true);
        NexmarkRuns.Run columnar = miniBatch.run(query, script, true, true, PARALLELISM, true);
        Map<String, String> expected = miniBatch.finalValuePerKey(stock.topic());
        assertThat(expected).as("stock's final result of %s", query).hasSizeGreaterThan(moreKeysThan);
        assertThat(miniBatch.finalValuePerKey(columnar.topic())).as("columnar final result of %s", query)
                .isEqualTo(expected);
        assertThat(columnar.explain()).doesNotContain("ArrowToRows(")
                .containsPattern("ColumnarLocalGroupAggregate\\(.*local=\\[vectorised\\]\\)");
    }

    /**
     * The split distinct aggregate ({@code table.optimizer.distinct-agg.split.enabled}) with mini-batch on: the
     * bucket {@code MOD(HASH_CODE(bidder), 1024)} computed by the columnar Calc and the partial phase's local
     * aggregate vectorised (two calls of one distinct column, one with a FILTER: distinct columns of their own would
     * be expanded first, by Flink's Expand), then Flink's incremental and final aggregates; the final counts per
     * channel equal stock's (stock also split).
     */
    @Test
    void withSplitDistinctTheBucketCalcAndThePartialLocalPhaseAreColumnar() throws Exception {
        String script = "CREATE TABLE bidders_per_channel (channel STRING, bidders BIGINT, big_bidders BIGINT,"
                + " PRIMARY KEY (channel) NOT ENFORCED) WITH (${SINK});\n"
                + "INSERT INTO bidders_per_channel SELECT channel, COUNT(DISTINCT bidder), COUNT(DISTINCT bidder)"
                + " FILTER (WHERE price > 1000) FROM bid GROUP BY channel;";
        NexmarkRuns split = runs.withMiniBatch().withOption("table.optimizer.distinct-agg.split.enabled", "true");
        NexmarkRuns.Run stock = split.run("split_distinct", script, false, true, PARALLELISM);
        NexmarkRuns.Run columnar = split.run("split_distinct", script, true, true, PARALLELISM);
        Map<String, String> expected = split.finalValuePerKey(stock.topic());
        assertThat(expected).as("stock's final counts").hasSizeGreaterThan(3);
        assertThat(split.finalValuePerKey(columnar.topic())).isEqualTo(expected);
        assertThat(stock.explain()).contains("HASH_CODE(").contains("partialFinalType=[PARTIAL]");
        String physical = columnar.explain().substring(columnar.explain().indexOf("== Optimized Physical Plan =="));
        assertThat(physical).containsPattern("ColumnarLocalGroupAggregate\\(.*partialFinalType=\\[PARTIAL\\].*"
                        + "local=\\[vectorised\\]\\)\\n[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*MOD\\(HASH_CODE\\(bid\\.bidder\\),"
                        + " 1024\\)")
                .doesNotContain("ArrowToRows(");
    }

    /**
     * Nexmark q15 and q16 with the split distinct aggregate, mini-batch on: the Calc computing the buckets (BIGINT
     * bidders and auctions, and q16's minute string), the Expand (one row per distinct column, in Flink's order), the
     * Calc of its {@code $g_*} filters and the partial phase's local aggregate are columnar, with no edge; the final
     * result per key equals stock's (stock also split).
     */
    @ParameterizedTest
    @ValueSource(strings = {"q15", "q16"})
    void withSplitDistinctTheExpandAndThePartialLocalPhaseAreColumnar(String query) throws Exception {
        NexmarkRuns split = runs.withMiniBatch().withOption("table.optimizer.distinct-agg.split.enabled", "true");
        String script = NexmarkRuns.resource(query + ".sql");
        NexmarkRuns.Run stock = split.run(query, script, false, true, PARALLELISM);
        NexmarkRuns.Run columnar = split.run(query, script, true, true, PARALLELISM);
        Map<String, String> expected = split.finalValuePerKey(stock.topic());
        assertThat(expected).as("stock's final result of %s", query).isNotEmpty();
        assertThat(split.finalValuePerKey(columnar.topic())).as("columnar final result of %s", query)
                .isEqualTo(expected);
        assertThat(stock.explain()).containsPattern("(?<!Columnar)Expand\\(projects=");
        String physical = columnar.explain().substring(columnar.explain().indexOf("== Optimized Physical Plan =="));
        assertThat(physical).containsPattern("ColumnarLocalGroupAggregate\\(.*partialFinalType=\\[PARTIAL\\].*"
                        + "local=\\[vectorised\\]\\)\\n[ :]*\\+- ColumnarCalc\\(.*\\n[ :]*\\+- ColumnarExpand\\(projects="
                        + ".*\\n[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*MOD\\(HASH_CODE\\(bid\\.bidder\\), 1024\\)")
                .doesNotContainPattern("(?<!Columnar)Expand\\(")
                .doesNotContain("ArrowToRows(");
    }

    /** Every mini-batch assigner of the job is columnar, with a columnar Calc reading it. */
    private static void assertColumnarAssignersBeforeColumnarCalcs(String explain) {
        String execution = explain.substring(explain.indexOf("== Optimized Execution Plan =="));
        assertThat(execution).contains("ColumnarMiniBatchAssigner(")
                .doesNotContainPattern("(?<!Columnar)MiniBatchAssigner\\(")
                .containsPattern("ColumnarCalc\\(.*\\n[ :]*\\+- ColumnarMiniBatchAssigner\\(");
    }
}
