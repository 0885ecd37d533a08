package io.columnarkafka.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
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
 * A SQL job moves between Flink's {@code kafka} connector and {@code kafka-columnar} with the planner stage (scan,
 * calc and sink on Arrow) through a savepoint, both ways: Nexmark q1 over a topic that fills live, EXACTLY_ONCE, with
 * {@code table.exec.uid.generation} {@code ALWAYS} and the node ids a fresh client JVM gives (Flink numbers a plan's
 * nodes from a counter per JVM), restored with unclaimed state refused. The stage's scan and sink take the uids of
 * Flink's scan and sink nodes, so the {@code KafkaSource}'s splits and enumerator state and the {@code KafkaSink}'s
 * writer and committer state carry over; the output, read {@code read_committed}, is what stock Flink writes without
 * a switch, every record exactly once.
 */
class SqlSwitchBySavepointITCase {
    private static final int PARALLELISM = 2;
    private static final long EVENTS = 20_000;
    /** The input is written live up to here until the first run has stopped, then to {@link #EVENTS}. */
    private static final long FIRST_PART = EVENTS / 2;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(PARALLELISM);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    /** Nexmark q1 (the suite's, over the bids alone). */
    private static final String Q1 = "INSERT INTO q1_out SELECT auction, bidder, 0.908 * price AS price, `dateTime`,"
            + " extra FROM bid";

    /** What stock Flink's q1 writes for all the events in one run, with no switch. */
    private static List<byte[]> expected;

    @BeforeAll
    static void runStockWithoutASwitch() throws Exception {
        String input = "sql-switch-oracle-in";
        KAFKA.broker().createTopic(input, PARALLELISM);
        NexmarkTopic.fill(KAFKA.broker().bootstrapServers(), input, PARALLELISM, generator(), EVENTS);
        String output = "sql-switch-oracle-out";
        KAFKA.broker().createTopic(output, PARALLELISM);
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        createTables(sql, "kafka", input, output, true);
        sql.executeSql(Q1).await();
        expected = new ArrayList<>();
        for (TopicRecord record : TopicVerifier.forTopic(KAFKA.broker(), output).keepRecords(true).read().records()) {
            expected.add(record.value());
        }
        Set<String> distinct = expected.stream().map(v -> new String(v, StandardCharsets.UTF_8))
                .collect(Collectors.toSet());
        assertThat(expected).as("q1 writes every bid").hasSize((int) (EVENTS * 46 / 50));
        assertThat(distinct).as("every expected value is unique, so exactly-once is checkable").hasSize(expected.size());
    }

    @Test
    @Timeout(300)
    void aStockSqlJobsSavepointRestoresIntoTheColumnarPlan(@TempDir Path savepoints) throws Exception {
        switchBySavepoint(false, true, "sql-to-columnar", savepoints);
    }

    @Test
    @Timeout(300)
    void aColumnarSqlJobsSavepointRestoresIntoTheStockPlan(@TempDir Path savepoints) throws Exception {
        switchBySavepoint(true, false, "sql-to-stock", savepoints);
    }

    /**
     * Writes the first part of the input live, runs q1 with the first plan until results are committed, stops it
     * with a savepoint, writes the rest, restores the savepoint into the second plan and stops that once every
     * result is committed.
     */
    private static void switchBySavepoint(boolean firstColumnar, boolean secondColumnar, String name, Path savepoints)
            throws Exception {
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
            JobClient first = start(firstColumnar, input, output, null);
            String savepoint;
            try {
                awaitCommitted(first, output, 100, "the first run commits some results");
                savepoint = first.stopWithSavepoint(false, savepoints.toUri().toString(),
                        SavepointFormatType.CANONICAL).get(2, TimeUnit.MINUTES);
            } finally {
                cancelIfRunning(first);
            }
            long atSavepoint = TopicVerifier.forTopic(KAFKA.broker(), output).read().totalRecords();
            assertThat(atSavepoint).as("the first run stopped part-way").isBetween(100L, expected.size() - 1L);
            firstStopped.countDown();
            filling.get(2, TimeUnit.MINUTES);

            JobClient second = start(secondColumnar, input, output, savepoint);
            try {
                awaitCommitted(second, output, expected.size(), "the restored run commits the rest");
                second.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(2, TimeUnit.MINUTES);
            } finally {
                cancelIfRunning(second);
            }
        } finally {
            firstStopped.countDown();
        }
        // a scan that started again from the earliest offsets instead of the savepoint's would write the first
        // part's results twice; a sink that lost the savepoint's transactions would miss some
        TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), output).verify(expected);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        assertThat(TopicVerifier.awaitNoOpenTransactions(KAFKA.broker().bootstrapServers(), output,
                Duration.ofSeconds(30))).as("transactions left open after the switch").isEmpty();
        ArrowMemoryChecks.assertReleased();
    }

    /**
     * Submits q1, its plan columnar or stock, restored from {@code savepoint} if given, with generated uids and the
     * node ids of a fresh client JVM; a columnar plan must be columnar from scan to sink.
     */
    private static JobClient start(boolean columnar, String input, String output, String savepoint) {
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
        createTables(sql, columnar ? "kafka-columnar" : "kafka", input, output, false);
        if (columnar) {
            assertThat(sql.explainSql(Q1)).contains("ColumnarScan(").contains("ColumnarCalc(")
                    .contains("ColumnarSink(").doesNotContain("ArrowToRows(");
        }
        ExecNodeContext.resetIdCounter();
        return sql.executeSql(Q1).getJobClient().orElseThrow();
    }

    /** The bid view over the Nexmark events and q1's result table, through {@code connector}, EXACTLY_ONCE. */
    private static void createTables(TableEnvironment sql, String connector, String input, String output,
            boolean bounded) {
        String events = NexmarkGenerator.EVENT_TYPE.getFields().stream()
                .map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                .collect(Collectors.joining(", "));
        sql.executeSql("CREATE TABLE nexmark (" + events + ") WITH ('connector' = '" + connector + "',"
                + " 'topic' = '" + input + "', 'properties.bootstrap.servers' = '" + KAFKA.broker().bootstrapServers()
                + "', 'properties.group.id' = '" + output + "', 'scan.startup.mode' = 'earliest-offset',"
                + (bounded ? " 'scan.bounded.mode' = 'latest-offset'," : "") + " 'format' = 'json')");
        sql.executeSql("CREATE VIEW bid AS SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url,"
                + " bid.`dateTime`, bid.extra FROM nexmark WHERE event_type = 2");
        sql.executeSql("CREATE TABLE q1_out (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), `dateTime`"
                + " TIMESTAMP(3), extra STRING) WITH ('connector' = '" + connector + "', 'topic' = '" + output + "',"
                + " 'properties.bootstrap.servers' = '" + KAFKA.broker().bootstrapServers() + "', 'format' = 'json',"
                + " 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '" + output + "',"
                + " 'properties.transaction.timeout.ms' = '60000')");
    }

    private static NexmarkGenerator generator() {
        return new NexmarkGenerator(NexmarkConfig.defaults(17));
    }

    /** Waits until {@code output} holds {@code count} committed records; fails at once, with its cause, if the job fails. */
    private static void awaitCommitted(JobClient job, String output, long count, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (TopicVerifier.forTopic(KAFKA.broker(), output).read().totalRecords() < count) {
            if (job.getJobStatus().get().isGloballyTerminalState()) {
                job.getJobExecutionResult().get(); // throws the job's failure
                throw new AssertionError(what + ": the job ended first");
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within 120 s");
            }
            Thread.sleep(100);
        }
    }

    private static void cancelIfRunning(JobClient job) throws Exception {
        if (!job.getJobStatus().get().isGloballyTerminalState()) {
            job.cancel().get();
        }
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
