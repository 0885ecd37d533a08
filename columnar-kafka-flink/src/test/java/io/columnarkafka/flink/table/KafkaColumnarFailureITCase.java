package io.columnarkafka.flink.table;

import static org.apache.flink.table.api.Expressions.$;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.columnarkafka.client.OversizedRecordException;
import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.flink.testing.FailOnceWhileCheckpointInFlight;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TransactionInfo;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.runtime.messages.webmonitor.ClusterOverview;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Failures through SQL, each run against Flink's {@code kafka} connector and ours: bad input fails with
 * Flink's error and commits nothing; an injected task failure under EXACTLY_ONCE commits the same records
 * as Flink, once each; a failure while a checkpoint is in flight aborts that checkpoint's transactions and
 * commits every row once. Every run's Arrow allocators close with nothing outstanding.
 */
class KafkaColumnarFailureITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(2);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final SqlRuns RUNS = new SqlRuns(KAFKA);

    private static final String EXACTLY_ONCE = "'sink.delivery-guarantee' = 'exactly-once',"
            + " 'sink.transactional-id-prefix' = '${t}tx', 'properties.transaction.timeout.ms' = '600000'";

    @Test
    void nullInNotNullKeyColumnFailsLikeFlinkAndCommitsNothing() {
        String ddl = "CREATE TABLE ${t}sink (id INT NOT NULL, name STRING) WITH ('connector' = '${connector}',"
                + " 'topic' = '${t}out', 'properties.bootstrap.servers' = '${servers}', 'key.format' = 'json',"
                + " 'key.fields' = 'id', 'value.format' = 'json', " + EXACTLY_ONCE + "${columnar})";
        String insert = "INSERT INTO ${t}sink SELECT * FROM (VALUES (1, 'a'), (CAST(NULL AS INT), 'b'), (3, 'c'))";
        sameFailure("not_null", ddl, insert, m -> m.contains("NOT NULL"), "out");
    }

    @Test
    void topicNotInTheListFailsLikeFlinkAndCommitsNothing() {
        String ddl = "CREATE TABLE ${t}sink (id INT, tp STRING METADATA FROM 'topic') WITH ("
                + " 'connector' = '${connector}', 'topic' = '${t}a;${t}b',"
                + " 'properties.bootstrap.servers' = '${servers}', 'format' = 'json', " + EXACTLY_ONCE + "${columnar})";
        String insert = "INSERT INTO ${t}sink SELECT * FROM (VALUES (1, '${t}a'), (2, 'elsewhere'), (3, '${t}b'))";
        String stock = SqlRuns.newPrefix("s_topic");
        String columnar = SqlRuns.newPrefix("c_topic");
        String stockError = failure("kafka", stock, ddl, insert, m -> m.contains("topic of the sink record"), "a", "b");
        String columnarError =
                failure("kafka-columnar", columnar, ddl, insert, m -> m.contains("topic of the sink record"), "a", "b");
        assertThat(stockError).isEqualTo(flinkTopicMessage(stock));
        assertThat(columnarError).isEqualTo(flinkTopicMessage(columnar));
    }

    @Test
    void invalidOptionsFailWithFlinksValidationErrors() {
        for (String options : List.of(
                "'sink.delivery-guarantee' = 'exactly-once'",
                "'sink.partitioner' = 'round-robin', 'key.fields' = 'id', 'key.format' = 'json'",
                "'no.such.option' = 'x'",
                "'value.json.timestamp-format.standard' = 'BOGUS'")) {
            String ddl = "CREATE TABLE ${t}sink (id INT, name STRING) WITH ('connector' = '${connector}',"
                    + " 'topic' = '${t}out', 'properties.bootstrap.servers' = '${servers}', 'value.format' = 'json', "
                    + options + "${columnar})";
            String insert = "INSERT INTO ${t}sink VALUES (1, 'a')";
            sameFailure("options", ddl, insert, null);
        }
    }

    /**
     * A row whose record is over the producer's {@code max.request.size} fails the job before any record of its
     * batch is sent: the error names the topic, the row in the batch, the size and the limit; {@code
     * read_committed} readers see only rows before the bad row's batch, and no record of that batch is in the log
     * at all. Columnar only: Flink's own sink lets the producer reject the record, which can stop the TaskManager
     * (docs/faults.md).
     */
    @Test
    void aRecordOverMaxRequestSizeFailsNamingTheRowAndNothingOfItsBatchIsSent(
            @InjectMiniCluster MiniCluster miniCluster) throws Exception {
        String prefix = SqlRuns.newPrefix("c_oversized");
        RUNS.createTopics(prefix, 1, List.of("out"));
        TableEnvironment tEnv = SqlRuns.tableEnvironment(1);
        tEnv.getConfig().set("execution.checkpointing.interval", "300ms");
        tEnv.getConfig().set("restart-strategy.type", "none");
        String ddl = "CREATE TABLE ${t}src (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100',"
                + " 'number-of-rows' = '300', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                + " 'fields.id.end' = '300')\n--\n"
                + "CREATE TABLE ${t}sink (id BIGINT, label STRING) WITH ('connector' = '${connector}',"
                + " 'topic' = '${t}out', 'properties.bootstrap.servers' = '${servers}', 'value.format' = 'json', "
                + EXACTLY_ONCE + "${columnar})";
        RUNS.createTables(tEnv, ddl, "kafka-columnar", prefix);
        String insert = RUNS.fill("INSERT INTO ${t}sink SELECT id, CASE WHEN id = 200 THEN REPEAT('x', 2097152)"
                + " ELSE CONCAT('row-', CAST(id AS STRING)) END FROM ${t}src", "kafka-columnar", prefix);
        assertThat(tEnv.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN))
                .contains("kafka-columnar[admitted: json value]");

        Throwable error = catchThrowable(() -> tEnv.executeSql(insert).await());
        String message = ExceptionUtils.findThrowable(error, OversizedRecordException.class)
                .map(Throwable::getMessage)
                .orElseThrow(() -> new AssertionError("no OversizedRecordException in "
                        + ExceptionUtils.stringifyException(error)));
        assertThat(ExceptionUtils.stringifyException(error)).doesNotContain("RecordTooLargeException");
        Matcher row = Pattern.compile("^topic '" + prefix + "out', row (\\d+) of the batch of (\\d+) rows: the Kafka"
                + " record is (\\d+) bytes as Kafka's producer counts it \\(key null, value (\\d+) bytes\\), more"
                + " than the producer's limit of 1048576 bytes \\(max.request.size\\); the batch failed before any"
                + " of its records was sent\\. Raise the producer property 'max.request.size'.*").matcher(message);
        assertThat(row.matches()).as(message).isTrue();
        int value = Integer.parseInt(row.group(4));
        assertThat(value).as("the bad row's value: 2 MiB and its JSON").isGreaterThan(2097152);
        assertThat(Integer.parseInt(row.group(3))).isEqualTo(RecordSizeLimit.upperBound(-1, value, null));
        long firstOfBatch = 200 - Long.parseLong(row.group(1));
        long endOfBatch = firstOfBatch + Long.parseLong(row.group(2));

        String topic = prefix + "out";
        TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), topic).keepRecords(true).read();
        List<Long> committedIds = committed.records().stream().map(r -> TestRows.idOf(r.value())).toList();
        assertThat(committedIds).as("read_committed: a prefix of the rows before the bad batch, once each")
                .isEqualTo(LongStream.rangeClosed(1, committedIds.size()).boxed().toList());
        assertThat((long) committedIds.size()).isLessThan(firstOfBatch);
        List<Long> loggedIds = TopicVerifier.forTopic(KAFKA.broker(), topic).readUncommitted().keepRecords(true)
                .read().records().stream().map(r -> TestRows.idOf(r.value())).toList();
        assertThat(loggedIds).as("no record of the bad row's batch (ids %d to %d) was sent", firstOfBatch,
                endOfBatch - 1).allMatch(id -> id < firstOfBatch);
        assertArrowMemoryReleased();
        ClusterOverview overview = miniCluster.requestClusterOverview().get();
        assertThat(overview.getNumTaskManagersConnected()).as("the TaskManager lives").isEqualTo(1);
    }

    @AfterEach
    void failAnyTime() {
        FailOnceAt.READY = () -> true;
    }

    @Test
    void exactlyOnceThroughAnInjectedFailureCommitsWhatFlinkCommits() throws Exception {
        String ddl = "CREATE TABLE ${t}sink (id BIGINT, label STRING) WITH ('connector' = '${connector}',"
                + " 'topic' = '${t}out', 'properties.bootstrap.servers' = '${servers}', 'key.format' = 'json',"
                + " 'key.fields' = 'id', 'value.format' = 'json', " + EXACTLY_ONCE + "${columnar})";
        String insert = "INSERT INTO ${t}sink SELECT FAIL_ONCE_AT(id, CAST(170 AS BIGINT)), CONCAT('row-', CAST(id AS STRING))"
                + " FROM ${t}src";
        String stock = SqlRuns.newPrefix("s_eo");
        String columnar = SqlRuns.newPrefix("c_eo");
        // Checkpoints every 5 s: normally none completes before the failure at row 170 (1.7 s of input), so
        // every row written before it is in the aborted transaction; the final checkpoint at the end of input
        // commits the replay. The failure waits until records it will abort are on the broker.
        runBothWithInjectedFailure(ddl, insert, "5s", stock, columnar, KafkaColumnarFailureITCase::hasOpenRecords);
        List<String> expected = RUNS.records(stock + "out", false, true);
        List<String> actual = RUNS.records(columnar + "out", false, true);
        assertThat(expected).hasSize(300).doesNotHaveDuplicates();
        assertThat(actual).isEqualTo(expected);
        assertThat(TopicVerifier.forTopic(KAFKA.broker(), columnar + "out").readUncommitted().read().totalRecords())
                .as("the failure really aborted written records").isGreaterThan(300);
    }

    @Test
    void exactlyOnceFailureWhileACheckpointIsInFlightAbortsItAndCommitsEveryRowOnce() throws Exception {
        // As the DataStream ExactlyOnceFailoverITCase: 360 ids at 30/s from two subtasks; once 3 checkpoints
        // completed, subtask 1 holds the next one open in its snapshot while subtask 0, past that barrier,
        // writes a few more rows into its next transaction and fails. The held checkpoint's pre-committed
        // transactions and the open ones are aborted (visible read_uncommitted) and their rows replayed.
        // Batches of 2 rows: the 2 rows subtask 0 passes after the barrier fill a batch, which is sent at once;
        // in a batch of 3 they would wait for the latency timer, which cannot fire while the failing map sleeps
        // on the task thread, and a held checkpoint whose transactions were empty (checkpoints back to back on
        // a loaded machine) then left no aborted record in the log (seen once, 360 records read_uncommitted).
        String prefix = SqlRuns.newPrefix("c_eo_inflight");
        RUNS.createTopics(prefix, 2, List.of("out"));
        FailOnceWhileCheckpointInFlight.reset();
        StreamExecutionEnvironment env = SinkJobs.environment(3);
        env.setParallelism(2);
        env.enableCheckpointing(250);
        DataStream<Long> ids = SinkJobs.batchIndexes(env, 360, 30, 2, "src")
                .map(new FailOnceWhileCheckpointInFlight<Long>(3)).setParallelism(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporaryView(prefix + "src", ids);
        String ddl = "CREATE TABLE ${t}sink (id BIGINT, label STRING) WITH ('connector' = '${connector}',"
                + " 'topic' = '${t}out', 'properties.bootstrap.servers' = '${servers}', 'value.format' = 'json', "
                + EXACTLY_ONCE + ", 'columnar.batch-size' = '2', 'columnar.max-latency' = '50ms')";
        RUNS.createTables(tEnv, ddl, "kafka-columnar", prefix);
        String insert = RUNS.fill("INSERT INTO ${t}sink SELECT f0, CONCAT('row-', CAST(f0 AS STRING)) FROM ${t}src",
                "kafka-columnar", prefix);
        assertThat(tEnv.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN))
                .contains("kafka-columnar[admitted: json value]");
        tEnv.executeSql(insert).await();

        assertThat(FailOnceWhileCheckpointInFlight.failed()).as("the failure was injected").isTrue();
        String topic = prefix + "out";
        TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), topic).verifyIds(0, 360, TestRows::idOf);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        assertThat(TopicVerifier.forTopic(KAFKA.broker(), topic).readUncommitted().read().totalRecords())
                .as("aborted records of the failed attempt are in the log; checkpoint in flight at failure: %d",
                        FailOnceWhileCheckpointInFlight.heldCheckpoint())
                .isGreaterThan(committed.totalRecords());
        List<TransactionInfo> transactions =
                TopicVerifier.listTransactions(KAFKA.broker().bootstrapServers(), prefix + "tx");
        assertThat(transactions).isNotEmpty().noneMatch(TransactionInfo::isOpen);
        SqlRuns.assertArrowMemoryReleased();
    }

    @Test
    void exactlyOnceBufferFlushLosesNothingAcrossCheckpointsAndAFailure() throws Exception {
        // upsert-kafka with buffer-flush whose max-rows and interval are never reached: rows leave the
        // buffer only at checkpoints (every 300 ms) and at the end of input. The failure at row 250 comes
        // after checkpoints whose rows were buffered; a buffer not flushed before the barrier would lose them
        // on restore. One key per row, so the content does not depend on when checkpoints fall (compared as
        // sets, with Flink's own run).
        String ddl = "CREATE TABLE ${t}sink (id BIGINT, label STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                + " 'connector' = 'upsert-${connector}', 'topic' = '${t}out',"
                + " 'properties.bootstrap.servers' = '${servers}', 'key.format' = 'json', 'value.format' = 'json',"
                + " 'sink.buffer-flush.max-rows' = '100000', 'sink.buffer-flush.interval' = '1h', "
                + EXACTLY_ONCE + "${columnar})";
        String insert = "INSERT INTO ${t}sink SELECT FAIL_ONCE_AT(id, CAST(250 AS BIGINT)),"
                + " CONCAT('row-', CAST(id AS STRING)) FROM ${t}src";
        String stock = SqlRuns.newPrefix("s_eo_flush");
        String columnar = SqlRuns.newPrefix("c_eo_flush");
        // The failure waits until a checkpoint has flushed buffered rows to the broker.
        runBothWithInjectedFailure(ddl, insert, "300ms", stock, columnar, KafkaColumnarFailureITCase::hasRecords);
        List<String> expected = new ArrayList<>(RUNS.records(stock + "out", false, true));
        List<String> actual = new ArrayList<>(RUNS.records(columnar + "out", false, true));
        Collections.sort(expected);
        Collections.sort(actual);
        assertThat(expected).hasSize(300).doesNotHaveDuplicates();
        assertThat(actual).isEqualTo(expected);
        // read_uncommitted also shows what the failure aborted: replays of committed rows, nothing else.
        List<TopicRecord> everything = TopicVerifier.forTopic(KAFKA.broker(), columnar + "out")
                .readUncommitted().keepRecords(true).read().records();
        assertThat(everything).as("read_uncommitted holds every committed record").hasSizeGreaterThanOrEqualTo(300);
        Set<String> committedValues = new HashSet<>();
        List<TopicRecord> committed =
                TopicVerifier.forTopic(KAFKA.broker(), columnar + "out").keepRecords(true).read().records();
        for (TopicRecord r : committed) {
            committedValues.add(new String(r.value(), StandardCharsets.UTF_8));
        }
        for (TopicRecord r : everything) {
            assertThat(committedValues).as("an uncommitted record is a replayed committed one")
                    .contains(new String(r.value(), StandardCharsets.UTF_8));
        }
    }

    /**
     * Runs the INSERT into the stock connector (topic prefix {@code stock}) and ours ({@code columnar}),
     * exactly once with the given checkpoint interval, each failing once at the row {@code FAIL_ONCE_AT}
     * names and restarting. The failure waits until {@code readyToFail} holds for the run's output topic,
     * so what it is to test is on the broker whatever the machine's load.
     *
     * <p>The input, table {@code <prefix>src (id BIGINT)}, is ids 1 to 300 at 100 per second from a FLIP-27
     * {@code DataGeneratorSource}, not SQL's {@code datagen} (a legacy {@code SourceFunction}): a FLIP-27 source
     * emits each row from the task's mailbox thread, the one that runs checkpoints, so while {@code FAIL_ONCE_AT}
     * waits no checkpoint can run, and once it throws the task fails without running another mail. Under
     * {@code datagen}, a checkpoint queued behind the legacy source's lock during the wait ran before the
     * failure and snapshot the source past the failing row, which was then never replayed (docs/faults.md).
     */
    private static void runBothWithInjectedFailure(String ddl, String insert, String checkpointInterval,
            String stock, String columnar, Predicate<String> readyToFail) throws Exception {
        for (String[] run : new String[][] {{"kafka", stock}, {"kafka-columnar", columnar}}) {
            FailOnceAt.FAILED.set(false);
            RUNS.createTopics(run[1], 1, List.of("out"));
            String topic = run[1] + "out";
            FailOnceAt.READY = () -> readyToFail.test(topic);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(1);
            StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
            DataStream<Long> indexes = SinkJobs.batchIndexes(env, 300, 100, 1, "src");
            tEnv.createTemporaryView(run[1] + "src", tEnv.fromDataStream(indexes).select($("f0").plus(1).as("id")));
            tEnv.getConfig().set("execution.checkpointing.interval", checkpointInterval);
            tEnv.getConfig().set("restart-strategy.type", "fixed-delay");
            tEnv.getConfig().set("restart-strategy.fixed-delay.attempts", "3");
            tEnv.getConfig().set("restart-strategy.fixed-delay.delay", "100ms");
            tEnv.createTemporarySystemFunction("FAIL_ONCE_AT", FailOnceAt.class);
            RUNS.createTables(tEnv, ddl, run[0], run[1]);
            String sql = RUNS.fill(insert, run[0], run[1]);
            if (run[0].endsWith("columnar")) {
                assertThat(tEnv.explainSql(sql, ExplainDetail.JSON_EXECUTION_PLAN))
                        .contains("kafka-columnar[admitted: json value, json key");
            }
            tEnv.executeSql(sql).await();
            assertThat(FailOnceAt.FAILED).as("failure injected in the %s run", run[0]).isTrue();
            SqlRuns.assertArrowMemoryReleased();
        }
    }

    /** Some records are on the broker, committed or not. */
    private static boolean hasRecords(String topic) {
        return TopicVerifier.forTopic(KAFKA.broker(), topic).readUncommitted().read().totalRecords() > 0;
    }

    /** Some records on the broker are not committed: a failure now aborts them. */
    private static boolean hasOpenRecords(String topic) {
        return TopicVerifier.forTopic(KAFKA.broker(), topic).readUncommitted().read().totalRecords()
                > TopicVerifier.forTopic(KAFKA.broker(), topic).readCommitted().read().totalRecords();
    }

    private static String flinkTopicMessage(String prefix) {
        return String.format(
                "The topic of the sink record is not valid. Expected topic to be in: %s but was: %s",
                new HashSet<>(List.of(prefix + "a", prefix + "b")), "elsewhere");
    }

    /** Runs both connectors, asserts the same error (table names aside) and nothing committed. */
    private static void sameFailure(
            String name, String ddl, String insert, Predicate<String> message, String... topics) {
        String stock = SqlRuns.newPrefix("s_" + name);
        String columnar = SqlRuns.newPrefix("c_" + name);
        String stockError = failure("kafka", stock, ddl, insert, message, topics);
        String columnarError = failure("kafka-columnar", columnar, ddl, insert, message, topics);
        assertThat(columnarError.replace(columnar, "<t>")).isEqualTo(stockError.replace(stock, "<t>"));
    }

    private static void assertArrowMemoryReleased() {
        try {
            SqlRuns.assertArrowMemoryReleased();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for Arrow memory to be released", e);
        }
    }

    /**
     * The message of the first cause matching {@code message} (null: every message of the cause chain
     * below the top-level one);
     * asserts the topics got no committed record.
     */
    private static String failure(String connector, String prefix, String ddl, String insert,
            Predicate<String> message, String... topics) {
        RUNS.createTopics(prefix, 1, List.of(topics));
        TableEnvironment tEnv = SqlRuns.tableEnvironment(1);
        Throwable error = catchThrowable(() -> {
            tEnv.executeSql(RUNS.fill(ddl, connector, prefix));
            tEnv.executeSql(RUNS.fill(insert, connector, prefix)).await();
        });
        assertThat(error).as("%s run fails", connector).isNotNull();
        assertArrowMemoryReleased();
        if (message == null) {
            StringBuilder chain = new StringBuilder();
            // The first message lists the table's options, which differ in 'connector' and 'columnar.*'.
            for (Throwable t = error.getCause(); t != null; t = t.getCause()) {
                chain.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
            }
            return chain.toString();
        }
        String found = ExceptionUtils.findThrowable(error, t -> t.getMessage() != null && message.test(t.getMessage()))
                .map(Throwable::getMessage)
                .orElseThrow(() -> new AssertionError("no matching cause in " + ExceptionUtils.stringifyException(error)));
        for (String topic : topics) {
            assertThat(TopicVerifier.forTopic(KAFKA.broker(), prefix + topic).read().totalRecords())
                    .as("committed records in %s after the failed %s run", topic, connector).isZero();
        }
        return found;
    }
}
