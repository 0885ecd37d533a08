package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.testkit.TopicRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An upsert table with {@code sink.buffer-flush.*} fed the planner stage's Arrow batches (a debezium-json changelog,
 * a columnar Calc), against stock Flink's {@code upsert-kafka} and its {@code ReducingUpsertWriter} on the same
 * topic; behind the exchanges Flink puts in front of the sink too, where the buffers show which subtask got each row.
 * Every columnar run asserts from EXPLAIN that the Arrow-fed sink took the buffer (no edge to rows); the Arrow
 * allocators are back at zero after each job.
 *
 * <p>The input is one partition, so one source subtask reads it all. Where one sink subtask writes every record, its
 * flushes at {@code max-rows} keys and at the end of input (the interval is an hour) are the same in both runs, and
 * each output partition's records, in order, show the buffer's contents and Flink's order (its {@code HashMap}'s,
 * the same in one JVM); where several do, each gets the same rows in both runs, so each key's records are the same.
 */
class ArrowSinkBufferFlushParityITCase {
    private static final int PARALLELISM = 2;
    private static final int KEYS = 41;
    private static final int EVENTS = 1500;
    private static final String INPUT = "buffer_flush_in";

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(3); // a sink at parallelism 3 too

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    /**
     * {@value #EVENTS} Debezium changes of {@value #KEYS} ids: every other change one of id 0 (a hot key, which a
     * buffer reduces between flushes), the others visiting ids 1 to 40 in a stride: a create (or snapshot read) for
     * an absent id, else a delete every eleventh change, else an update. Which rows a buffer reduces depends on which
     * keys share it, so on which sink subtask each row reaches.
     */
    @BeforeAll
    static void fillInput() {
        KAFKA.broker().createTopic(INPUT, 1);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        String[] rows = new String[KEYS];
        for (int i = 0; i < EVENTS; i++) {
            int id = i % 2 == 0 ? 0 : 1 + i / 2 * 7 % (KEYS - 1);
            String after = "{\"id\":" + id + ",\"name\":" + (i % 9 == 4 ? "null" : "\"n" + i % 6
                    + (i % 10 == 0 ? " \u00fc\uD83D\uDE00" : "") + "\"") + ",\"price\":" + (i * 13 % 97) + "}";
            String change;
            if (rows[id] == null) {
                change = "{\"op\":\"" + (i % 2 == 0 ? "c" : "r") + "\",\"before\":null,\"after\":" + after + "}";
            } else if (i % 11 == 3) {
                change = "{\"op\":\"d\",\"before\":" + rows[id] + ",\"after\":null}";
                after = null;
            } else {
                change = "{\"op\":\"u\",\"before\":" + rows[id] + ",\"after\":" + after + "}";
            }
            rows[id] = after;
            records.add(new ProducerRecord<>(INPUT, 0, 1_600_000_000_000L + i * 1_001L, utf8("{\"id\":" + id + "}"),
                    utf8(change)));
        }
        KAFKA.broker().produce(records);
    }

    /**
     * Flushes at 7 keys, with and without a filter (with one, UPDATE_BEFORE rows reach the sink: tombstones then
     * replaced in the buffer by their UPDATE_AFTER rows), each record's timestamp from the sink's {@code timestamp}
     * metadata column (the buffered row's, read from the batch's column after the physical ones): every partition's
     * records, in order, equal stock's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", " WHERE MOD(price, 3) <> 0"})
    void theBufferWritesStocksRecordsInStocksOrder(String where) throws Exception {
        assertStocksRecordsInOrder(where.isEmpty() ? "reduced" : "reduced_filtered", where, "");
    }

    /**
     * The same at {@code sink.parallelism} 1, where Flink's sink node puts no keyed shuffle but an edge to its one
     * subtask: every batch goes to it, the buffer and order as stock's.
     */
    @Test
    void atSinkParallelismOneTheOneBufferGetsEveryRow() throws Exception {
        assertStocksRecordsInOrder("reduced_single", "", ", 'sink.parallelism' = '1'");
    }

    private static void assertStocksRecordsInOrder(String name, String where, String options) throws Exception {
        String insert = "INSERT INTO ${out} SELECT id, UPPER(name), price * 2, ts FROM changes" + where;
        String sinkOptions = "'sink.buffer-flush.max-rows' = '7', 'sink.buffer-flush.interval' = '1 h',"
                + " 'sink.delivery-guarantee' = 'at-least-once'" + options;
        List<String> stock = records(await(start(false, name, Map.of(), sinkOptions, insert, true)));
        String columnar = await(start(true, name, Map.of(), sinkOptions, insert, true));
        assertThat(stock).as("stock's records in 3 partitions, tombstones among them")
                .anyMatch(r -> r.endsWith("value=null"))
                .allMatch(r -> r.contains(" ts=16")).extracting(r -> r.substring(0, 2)).contains("p0", "p1", "p2");
        assertThat(records(columnar)).isEqualTo(stock);
    }

    /**
     * Where Flink moves the rows to the sink's subtasks, the batches are moved so: round-robin (sink parallelism 3 over
     * the input's 2: with buffer-flush Flink's provider reports no parallelism, so its sink node shuffles nothing under
     * AUTO), by the primary key under FORCE (at the input's parallelism, over the key groups of a max parallelism of
     * 200, not the default 128; and at sink parallelism 3). Each sink subtask gets the rows Flink's gets, so its
     * buffer holds the same keys and flushes at the same rows: each key's records equal stock's, as multisets (the
     * subtasks share the output partitions, and round-robin parts a key's rows among them).
     */
    @ParameterizedTest
    @CsvSource({"round_robin, AUTO, 3, 'round-robin where'", "forced, FORCE, , 'by the primary key where'",
            "forced_3, FORCE, 3, 'by the primary key or round-robin where'"})
    void eachBufferGetsTheRowsFlinksGets(String name, String shuffle, String parallelism, String exchange)
            throws Exception {
        Map<String, String> session = Map.of("table.exec.sink.keyed-shuffle", shuffle, "pipeline.max-parallelism",
                "200");
        String insert = "INSERT INTO ${out} SELECT id, UPPER(name), price * 2, ts FROM changes";
        String options = "'sink.buffer-flush.max-rows' = '7', 'sink.buffer-flush.interval' = '1 h',"
                + " 'sink.delivery-guarantee' = 'at-least-once'"
                + (parallelism == null ? "" : ", 'sink.parallelism' = '" + parallelism + "'");
        Map<String, List<String>> stock = recordsPerKey(await(start(false, name, session, options, insert, true)));
        Started columnar = start(true, name, session, options, insert, true);
        assertThat(columnar.plan()).contains("exchange=[" + exchange);
        assertThat(stock).as("stock's records of every id").hasSize(KEYS);
        assertThat(recordsPerKey(await(columnar))).isEqualTo(stock);
    }

    /**
     * Exactly once, with checkpoints every 200 ms, over the unbounded topic, {@code max-rows} and the interval never
     * reached: rows leave the buffer only at checkpoints, so every key's final record is committed while the job
     * runs only if the buffer is written before the barrier reaches the writer (its rows are then in the
     * transaction the checkpoint commits). The committed final value per key equals stock's (bounded) run's.
     */
    @Test
    void theBufferIsWrittenBeforeEachCheckpoint() throws Exception {
        String insert = "INSERT INTO ${out} SELECT id, UPPER(name), price * 2, ts FROM changes";
        String options = "'sink.buffer-flush.max-rows' = '100000', 'sink.buffer-flush.interval' = '1 h',"
                + " 'sink.delivery-guarantee' = 'exactly-once', 'properties.transaction.timeout.ms' = '60000'";
        Map<String, String> stock =
                finalValuePerKey(await(start(false, "checkpointed", Map.of(), options, insert, true)));
        String out = "checkpointed_columnar";
        JobClient job =
                start(true, "checkpointed", Map.of(), options, insert, false).result().getJobClient().orElseThrow();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!finalValuePerKey(out).equals(stock) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(job.getJobStatus().get().isTerminalState()).as("the job still runs").isFalse();
            assertThat(finalValuePerKey(out)).isEqualTo(stock);
        } finally {
            job.cancel().get();
        }
        ArrowMemoryChecks.assertReleased();
    }

    /** A job started; {@code plan} its optimized plan, for a columnar run, else null. */
    private record Started(String topic, TableResult result, String plan) {}

    /**
     * Starts {@code insert} through stock's connectors or the stage's, with the job and table options {@code session}:
     * the changes table over the input ({@code bounded}: up to its end), into an upsert table over a topic of 3
     * partitions ({@code ${out}} its name) with the sink options {@code sinkOptions}; with exactly once, checkpoints
     * every 200 ms. A columnar run asserts its plan.
     */
    private static Started start(boolean columnar, String name, Map<String, String> session, String sinkOptions,
            String insert, boolean bounded) throws Exception {
        String out = name + "_" + (columnar ? "columnar" : "stock");
        KAFKA.broker().createTopic(out, 3);
        Configuration conf = Configuration.fromMap(session);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none"); // a failure fails the test
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        if (sinkOptions.contains("exactly-once")) {
            env.enableCheckpointing(200, CheckpointingMode.EXACTLY_ONCE);
        }
        TableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        if (columnar) {
            assertThat(ColumnarSql.install(tEnv).installed()).isTrue();
        }
        String connector = columnar ? "kafka-columnar" : "kafka";
        String servers = KAFKA.broker().bootstrapServers();
        tEnv.executeSql("CREATE TABLE changes (id BIGINT, name STRING, price BIGINT, ts TIMESTAMP_LTZ(3) METADATA FROM"
                + " 'timestamp' VIRTUAL, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = '" + connector + "',"
                + " 'topic' = '" + INPUT + "', 'properties.bootstrap.servers' = '" + servers + "',"
                + " 'properties.group.id' = '" + out + "', 'scan.startup.mode' = 'earliest-offset'"
                + (bounded ? ", 'scan.bounded.mode' = 'latest-offset'" : "") + ", 'format' = 'debezium-json')");
        tEnv.executeSql("CREATE TABLE " + out + " (id BIGINT, name STRING, doubled BIGINT, ts TIMESTAMP_LTZ(3) METADATA"
                + " FROM 'timestamp', PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-" + connector + "',"
                + " 'topic' = '" + out + "',"
                + " 'properties.bootstrap.servers' = '" + servers + "', 'key.format' = 'json', 'value.format' = 'json',"
                + " 'sink.transactional-id-prefix' = '" + out + "', " + sinkOptions + ")");
        session.forEach(tEnv.getConfig()::set);
        String statement = insert.replace("${out}", out);
        String plan = null;
        if (columnar) {
            String explain = tEnv.explainSql(statement);
            plan = explain.substring(explain.indexOf("== Optimized Execution Plan =="));
            assertThat(plan)
                    .doesNotContain("ArrowToRows(").contains("ColumnarScan(").contains("ColumnarCalc(")
                    .containsPattern("ColumnarSink\\(.*upsert tombstones, buffer-flush \\d+ rows / 3600000 ms,"
                            + " Arrow input\\]");
        }
        return new Started(out, tEnv.executeSql(statement), plan);
    }

    /** Waits for a bounded run's end; its output topic. */
    private static String await(Started started) throws Exception {
        started.result().await();
        ArrowMemoryChecks.assertReleased();
        return started.topic();
    }

    /** The topic's committed records, per partition in offset order ("null" for a tombstone's value). */
    private static List<String> records(String topic) {
        List<String> out = new ArrayList<>();
        for (TopicRecord r : CommittedRecords.inOffsetOrder(KAFKA.broker(), topic)) {
            out.add("p" + r.partition() + " key=" + r.keyAsString() + " ts=" + r.timestamp() + " value="
                    + (r.value() == null ? "null" : r.valueAsString()));
        }
        return out;
    }

    /** Each key's records (timestamp and value, "null" for a tombstone), sorted. */
    private static Map<String, List<String>> recordsPerKey(String topic) {
        Map<String, List<String>> records = new TreeMap<>();
        for (TopicRecord r : CommittedRecords.inOffsetOrder(KAFKA.broker(), topic)) {
            records.computeIfAbsent(r.keyAsString(), k -> new ArrayList<>())
                    .add(r.timestamp() + " " + (r.value() == null ? "null" : r.valueAsString()));
        }
        records.values().forEach(values -> values.sort(null));
        return records;
    }

    private static Map<String, String> finalValuePerKey(String topic) {
        return CommittedRecords.finalValuePerKey(KAFKA.broker(), topic);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
