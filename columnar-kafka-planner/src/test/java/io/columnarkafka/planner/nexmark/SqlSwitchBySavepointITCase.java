package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.flink.testing.JobOutput;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkTopic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.CompiledPlan;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQL job moves between Flink's {@code kafka} connectors and {@code kafka-columnar} with the planner stage through a
 * savepoint, both ways, over a topic that fills live, EXACTLY_ONCE, with {@code table.exec.uid.generation} {@code
 * ALWAYS} and the node ids a fresh client JVM gives (Flink numbers a plan's nodes from a counter per JVM), restored
 * with unclaimed state refused: Nexmark q1 (columnar from scan to sink: the {@code KafkaSource}'s splits and
 * enumerator state and the {@code KafkaSink}'s writer and committer state carry over) and a count of bids per bidder
 * into {@code upsert-kafka} (columnar scan and calc, an edge, Flink's group aggregate, whose keyed state carries over
 * too, and the columnar sink fed rows). The output, read {@code read_committed}, is what stock Flink writes without a
 * switch: q1's every record exactly once, each bidder's final count. And a plan compiled with the stage installed is
 * Flink's, and runs.
 */
class SqlSwitchBySavepointITCase {
    private static final int PARALLELISM = 2;
    private static final long EVENTS = 20_000;
    /** The input is written live up to here until the first run has stopped, then to {@link #EVENTS}. */
    private static final long FIRST_PART = EVENTS / 2;
    /** All the events, written before the tests. */
    private static final String ORACLE_INPUT = "sql-switch-oracle-in";
    /** Bids among the events: 46 of every 50 event ids. */
    private static final int BIDS = (int) (EVENTS * 46 / 50);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(PARALLELISM);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    /** Nexmark q1 (the suite's, over the bids alone): inserts only, columnar from scan to sink. */
    private static final Query Q1 = new Query("q1", "INSERT INTO q1_out SELECT auction, bidder, 0.908 * price AS price,"
            + " `dateTime`, extra FROM bid", "q1_out (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), `dateTime`"
            + " TIMESTAMP(3), extra STRING)", false, List.of("ColumnarScan(", "ColumnarCalc(", "ColumnarSink("),
            List.of("ArrowToRows("));
    /** Bids per bidder into an upsert table: Flink's group aggregate, its keyed state in the savepoint. */
    private static final Query COUNTS = new Query("counts",
            "INSERT INTO counts SELECT bidder, COUNT(*) AS bids FROM bid GROUP BY bidder",
            "counts (bidder BIGINT, bids BIGINT, PRIMARY KEY (bidder) NOT ENFORCED)", true,
            List.of("ColumnarScan(", "ColumnarCalc(", "ArrowToRows(", "ColumnarRowSink("), List.of());

    /** A query, its result table and what its columnar plan must and must not show. */
    private record Query(String name, String insert, String resultTable, boolean upsert, List<String> columnarPlan,
            List<String> notInColumnarPlan) {}

    /** What stock Flink's q1 writes for all the events in one run, with no switch. */
    private static List<byte[]> q1Expected;
    /** Each bidder's final count, as stock Flink writes it in one run with no switch. */
    private static Map<String, String> countsExpected;

    @BeforeAll
    static void runStockWithoutASwitch() throws Exception {
        String input = ORACLE_INPUT;
        KAFKA.broker().createTopic(input, PARALLELISM);
        NexmarkTopic.fill(KAFKA.broker().bootstrapServers(), input, PARALLELISM, generator(), EVENTS);
        String q1 = runStock(Q1, input);
        q1Expected = new ArrayList<>();
        for (TopicRecord record : TopicVerifier.forTopic(KAFKA.broker(), q1).keepRecords(true).read().records()) {
            q1Expected.add(record.value());
        }
        Set<String> distinct = q1Expected.stream().map(v -> new String(v, StandardCharsets.UTF_8))
                .collect(Collectors.toSet());
        assertThat(q1Expected).as("q1 writes every bid").hasSize(BIDS);
        assertThat(distinct).as("every expected value is unique, so exactly-once is checkable").hasSize(BIDS);
        countsExpected = new NexmarkRuns(KAFKA.broker(), input).finalValuePerKey(runStock(COUNTS, input));
        assertThat(countsExpected).as("bidders").hasSizeGreaterThan(100);
    }

    /** Runs {@code query} bounded through Flink's own connectors; its output topic. */
    private static String runStock(Query query, String input) throws Exception {
        String output = "sql-switch-oracle-" + query.name();
        KAFKA.broker().createTopic(output, PARALLELISM);
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        createTables(sql, query, false, input, output, true);
        sql.executeSql(query.insert()).await();
        return output;
    }

    @Test
    @Timeout(300)
    void aStockSqlJobsSavepointRestoresIntoTheColumnarPlan(@TempDir Path savepoints) throws Exception {
        switchBySavepoint(Q1, false, true, "sql-to-columnar", savepoints);
    }

    @Test
    @Timeout(300)
    void aColumnarSqlJobsSavepointRestoresIntoTheStockPlan(@TempDir Path savepoints) throws Exception {
        switchBySavepoint(Q1, true, false, "sql-to-stock", savepoints);
    }

    @Test
    @Timeout(300)
    void aStockAggregatesKeyedStateRestoresIntoTheColumnarPlan(@TempDir Path savepoints) throws Exception {
        switchBySavepoint(COUNTS, false, true, "sql-counts-to-columnar", savepoints);
    }

    @Test
    @Timeout(300)
    void aColumnarPlansKeyedStateRestoresIntoTheStockPlan(@TempDir Path savepoints) throws Exception {
        switchBySavepoint(COUNTS, true, false, "sql-counts-to-stock", savepoints);
    }

    /**
     * A plan compiled with the stage installed ({@code COMPILE PLAN}) is Flink's: Flink restores a compiled plan's
     * nodes from its own registry, which has none of the stage's. Executed, its scan and sink are the {@code
     * kafka-columnar} connectors' own, columnar decode and encode inside Flink's nodes, and it writes what stock does.
     */
    @Test
    @Timeout(300)
    void aPlanCompiledWithTheStageInstalledIsFlinksAndRunsTheConnectors() throws Exception {
        String output = "sql-compiled-q1-out";
        KAFKA.broker().createTopic(output, PARALLELISM);
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(300, CheckpointingMode.EXACTLY_ONCE);
        TableEnvironment sql = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        assertThat(ColumnarSql.install(sql).installed()).isTrue();
        createTables(sql, Q1, true, ORACLE_INPUT, output, true);
        // the stage's scan is admitted only where the connector's own scan is (its decision, and more)
        assertThat(sql.explainSql(Q1.insert())).as("the stage plans the query columnar")
                .contains("ColumnarScan(").contains("decode=[admitted: json value");

        CompiledPlan plan = sql.compilePlanSql(Q1.insert());

        assertThat(plan.asJsonString()).doesNotContain("stream-exec-columnar").doesNotContain("arrow-to-rows")
                .contains("stream-exec-table-source-scan").contains("\"connector\" : \"kafka-columnar\"");
        // the sink admitted its columnar encode (a fallback writes the same bytes)
        assertThat(plan.explain(ExplainDetail.JSON_EXECUTION_PLAN))
                .contains("ColumnarEncode[kafka-columnar[admitted: json value]]");
        plan.execute().await();
        TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), output).verify(q1Expected);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        ArrowMemoryChecks.assertReleased();
    }

    /**
     * Writes the first part of the input live, runs the query with the first plan until results are committed, stops
     * it with a savepoint, writes the rest, restores the savepoint into the second plan and stops that once every
     * result is committed (q1 writes a record per bid; the count, without mini-batch, an update per bid).
     */
    private static void switchBySavepoint(Query query, boolean firstColumnar, boolean secondColumnar, String name,
            Path savepoints) throws Exception {
        String input = name + "-in";
        String output = name + "-out";
        KAFKA.broker().createTopic(input, PARALLELISM);
        KAFKA.broker().createTopic(output, PARALLELISM);
        CountDownLatch firstStopped = new CountDownLatch(1);
        CompletableFuture<Long> filling = CompletableFuture.supplyAsync(() -> NexmarkTopic.fill(
                KAFKA.broker().bootstrapServers(), input, PARALLELISM, generator(), EVENTS, eventId -> {
                    if (eventId == FIRST_PART) {
                        await(firstStopped);
                    }
                }));
        try {
            JobClient first = start(query, firstColumnar, input, output, null);
            String savepoint;
            try {
                JobOutput.awaitCommitted(first, KAFKA.broker(), output, 100, "the first run commits some results");
                savepoint = first.stopWithSavepoint(false, savepoints.toUri().toString(),
                        SavepointFormatType.CANONICAL).get(2, TimeUnit.MINUTES);
            } finally {
                JobOutput.cancelIfRunning(first);
            }
            long atSavepoint = TopicVerifier.forTopic(KAFKA.broker(), output).read().totalRecords();
            assertThat(atSavepoint).as("the first run stopped part-way").isBetween(100L, BIDS - 1L);
            firstStopped.countDown();
            filling.get(2, TimeUnit.MINUTES);

            JobClient second = start(query, secondColumnar, input, output, savepoint);
            try {
                JobOutput.awaitCommitted(second, KAFKA.broker(), output, BIDS, "the restored run commits the rest");
                second.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(2, TimeUnit.MINUTES);
            } finally {
                JobOutput.cancelIfRunning(second);
            }
        } finally {
            firstStopped.countDown();
        }
        if (query.upsert()) {
            // an aggregate that started again from empty state would end with lower counts
            assertThat(TopicVerifier.forTopic(KAFKA.broker(), output).read().totalRecords())
                    .as("an update per bid, exactly once").isEqualTo(BIDS);
            assertThat(new NexmarkRuns(KAFKA.broker(), input).finalValuePerKey(output)).isEqualTo(countsExpected);
        } else {
            // a scan that started again from the earliest offsets instead of the savepoint's would write the first
            // part's results twice; a sink that lost the savepoint's transactions would miss some
            TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), output).verify(q1Expected);
            assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        }
        assertThat(TopicVerifier.awaitNoOpenTransactions(KAFKA.broker().bootstrapServers(), output,
                Duration.ofSeconds(30))).as("transactions left open after the switch").isEmpty();
        ArrowMemoryChecks.assertReleased();
    }

    /**
     * Submits the query, its plan columnar or stock, restored from {@code savepoint} if given, with generated uids and
     * the node ids of a fresh client JVM; a columnar plan must show what the query's plan is columnar in.
     */
    private static JobClient start(Query query, boolean columnar, String input, String output, String savepoint) {
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(300, CheckpointingMode.EXACTLY_ONCE);
        TableEnvironment sql = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        sql.getConfig().set("table.exec.uid.generation", "ALWAYS");
        if (savepoint != null) {
            sql.getConfig().set("execution.state-recovery.path", savepoint);
            sql.getConfig().set("execution.state-recovery.ignore-unclaimed-state", "false");
        }
        if (columnar) {
            assertThat(ColumnarSql.install(sql).installed()).isTrue();
        }
        createTables(sql, query, columnar, input, output, false);
        if (columnar) {
            String explain = sql.explainSql(query.insert());
            assertThat(query.columnarPlan()).as(explain).allMatch(explain::contains);
            assertThat(query.notInColumnarPlan()).as(explain).noneMatch(explain::contains);
        }
        ExecNodeContext.resetIdCounter();
        return sql.executeSql(query.insert()).getJobClient().orElseThrow();
    }

    /** The bid view over the Nexmark events and the query's result table, through Flink's or the columnar connector. */
    private static void createTables(TableEnvironment sql, Query query, boolean columnar, String input, String output,
            boolean bounded) {
        String suffix = columnar ? "-columnar" : "";
        String events = NexmarkGenerator.EVENT_TYPE.getFields().stream()
                .map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                .collect(Collectors.joining(", "));
        sql.executeSql("CREATE TABLE nexmark (" + events + ") WITH ('connector' = 'kafka" + suffix + "',"
                + " 'topic' = '" + input + "', 'properties.bootstrap.servers' = '" + KAFKA.broker().bootstrapServers()
                + "', 'properties.group.id' = '" + output + "', 'scan.startup.mode' = 'earliest-offset',"
                + (bounded ? " 'scan.bounded.mode' = 'latest-offset'," : "") + " 'format' = 'json')");
        sql.executeSql("CREATE VIEW bid AS SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url,"
                + " bid.`dateTime`, bid.extra FROM nexmark WHERE event_type = 2");
        String format = query.upsert() ? "'key.format' = 'json', 'value.format' = 'json'" : "'format' = 'json'";
        sql.executeSql("CREATE TABLE " + query.resultTable() + " WITH ('connector' = '"
                + (query.upsert() ? "upsert-kafka" : "kafka") + suffix + "', 'topic' = '" + output + "',"
                + " 'properties.bootstrap.servers' = '" + KAFKA.broker().bootstrapServers() + "', " + format + ","
                + " 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '" + output + "',"
                + " 'properties.transaction.timeout.ms' = '60000')");
    }

    private static NexmarkGenerator generator() {
        return new NexmarkGenerator(NexmarkConfig.defaults(17));
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(3, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the first run did not stop within 3 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
