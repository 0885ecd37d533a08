package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.testkit.TopicRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A debezium-json changelog through the planner stage, against stock Flink on the same topic: inserts and snapshot
 * reads, updates (one record, an UPDATE_BEFORE and an UPDATE_AFTER row), deletes, tombstones (no row), nulls and
 * non-BMP text. The stage's Arrow batches carry each row's kind in a column after the fields: a columnar Calc that
 * filters and computes keeps each passing row's kind, a changelog format's sink writes by it (the committed records,
 * per partition in order, equal stock's), an upsert table writes tombstones by it, and the edge in front of Flink's group aggregate gives each row its kind
 * (the final value per key equals stock's). Every columnar run asserts its plan from EXPLAIN; the Arrow allocators are
 * back at zero after each job.
 */
class ChangelogPlanParityITCase {
    private static final int PARALLELISM = 2;
    private static final int IDS = 40;
    private static final int EVENTS = 1200;
    private static final String INPUT = "changelog_plan_in";
    /** Mostly new ids, a change or delete of a recent one now and then: rows last, and fill many windows. */
    private static final String WINDOWED_INPUT = "changelog_windows_in";
    /** Mini-batch with bundles of 100 rows: several flushes per source subtask's 600 or so rows. */
    private static final Map<String, String> MINI_BATCH = Map.of("table.exec.mini-batch.enabled", "true",
            "table.exec.mini-batch.allow-latency", "2 s", "table.exec.mini-batch.size", "100");

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(PARALLELISM);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    /** {@value #EVENTS} change events of ids 0..39, each id's in partition {@code id % 2}, in order. */
    @BeforeAll
    static void fillInput() {
        KAFKA.broker().createTopic(INPUT, PARALLELISM);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        int[] current = new int[IDS];
        Arrays.fill(current, -1);
        for (int i = 0; i < EVENTS; i++) {
            int id = i % IDS;
            String value;
            boolean delete = current[id] >= 0 && i % 13 == 5;
            if (current[id] < 0) {
                value = i % 2 == 0 ? "{\"before\":null,\"after\":" + row(id, i) + ",\"op\":\"c\",\"ts_ms\":" + i + "}"
                        : "{\"op\":\"r\",\"after\":" + row(id, i) + "}";
                current[id] = i;
            } else if (delete) {
                value = "{\"before\":" + row(id, current[id]) + ",\"after\":null,\"op\":\"d\"}";
                current[id] = -1;
            } else {
                value = "{\"op\":\"u\",\"before\":" + row(id, current[id]) + ",\"after\":" + row(id, i) + "}";
                current[id] = i;
            }
            byte[] key = utf8("{\"id\":" + id + "}");
            records.add(new ProducerRecord<>(INPUT, id % PARALLELISM, key, utf8(value)));
            if (delete && i % 2 == 1) {
                records.add(new ProducerRecord<>(INPUT, id % PARALLELISM, key, null)); // Debezium's tombstone
            }
        }
        KAFKA.broker().produce(records);
    }

    /**
     * {@value #EVENTS} change events into {@link #WINDOWED_INPUT}, event {@code i} at minute {@code i}: a create of id
     * {@code i}, but every fifth an update of id {@code i - 7} and every eleventh a delete of id {@code i - 13}
     * (those rows' old versions at most 13 minutes old), each id's in partition {@code id % 2}, in order.
     */
    @BeforeAll
    static void fillWindowedInput() {
        KAFKA.broker().createTopic(WINDOWED_INPUT, PARALLELISM);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        Map<Integer, Integer> current = new HashMap<>();
        for (int i = 0; i < EVENTS; i++) {
            int id;
            String value;
            if (i % 5 == 3 && current.containsKey(i - 7)) {
                id = i - 7;
                value = "{\"op\":\"u\",\"before\":" + row(id, current.get(id)) + ",\"after\":" + row(id, i) + "}";
                current.put(id, i);
            } else if (i % 11 == 6 && current.containsKey(i - 13)) {
                id = i - 13;
                value = "{\"before\":" + row(id, current.remove(id)) + ",\"after\":null,\"op\":\"d\"}";
            } else {
                id = i;
                value = "{\"before\":null,\"after\":" + row(id, i) + ",\"op\":\"c\"}";
                current.put(id, i);
            }
            records.add(new ProducerRecord<>(WINDOWED_INPUT, id % PARALLELISM, utf8("{\"id\":" + id + "}"),
                    utf8(value)));
        }
        KAFKA.broker().produce(records);
    }

    /**
     * A row: names repeat (for the aggregate), some null, some non-BMP; prices spread; event {@code i} at minute
     * {@code i} of 2020-01-01 (20 hours in all, rising in each partition), with 1–3 fraction digits.
     */
    private static String row(int id, int i) {
        String name = i % 9 == 4 ? "null" : "\"n" + (i % 5) + (i % 10 == 0 ? " \u00fc\uD83D\uDE00" : "") + "\"";
        return "{\"id\":" + id + ",\"name\":" + name + ",\"price\":" + (i * 7 % 101) + ",\"ts\":\"2020-01-01 "
                + String.format("%02d:%02d", i / 60, i % 60) + ":05." + (i % 1000) + "\"}";
    }

    /**
     * A filtering, computing columnar Calc into a changelog format's sink (a json key, the value format each of two
     * envelopes): every row that passes is written by its kind, as Flink's serializer writes it; no row on the way.
     */
    @ParameterizedTest
    @ValueSource(strings = {"debezium-json", "canal-json"})
    void aCalcOverTheChangelogIntoAChangelogFormatWritesStocksRecords(String format) throws Exception {
        String name = format.replace("-json", "_changes");
        String insert = "INSERT INTO ${out} SELECT id, UPPER(name), price * 2, ts FROM changes"
                + " WHERE MOD(price, 3) <> 0";
        String sink = "CREATE TABLE ${out} (id BIGINT, name STRING, doubled BIGINT, ts TIMESTAMP(3)) WITH ("
                + "'key.format' = 'json', 'key.fields' = 'id', 'value.format' = '" + format + "', ${sink})";
        List<String> stock = records(run(false, name, "", sink, insert).topic());
        Run columnar = run(true, name, "", sink, insert);
        assertThat(columnar.plan()).doesNotContain("ArrowToRows(").contains("ColumnarScan(")
                .contains("ColumnarCalc(").contains("ColumnarSink(").contains("rowKinds=[from batches]");
        assertThat(stock).as("stock's records").hasSizeGreaterThan(EVENTS / 2)
                .anyMatch(r -> r.contains(format.equals("debezium-json") ? "\"op\":\"d\"" : "\"type\":\"DELETE\""));
        assertThat(records(columnar.topic())).isEqualTo(stock);
    }

    /**
     * The same Calc into a debezium-json sink with a custom partitioner ({@link SubtaskShareRowPartitioner}), which
     * Flink calls with each consumed row of its kind (an UPDATE_BEFORE row's, a DELETE row's): the Arrow-fed sink's
     * writer calls it with a view of the batch, its kind from the batch's row-kind column. Each subtask writes
     * partitions of its own: every partition's records, in order, equal stock's.
     */
    @Test
    void aCustomPartitionerSeesEachChangelogRowWithItsKind() throws Exception {
        String insert = "INSERT INTO ${out} SELECT id, UPPER(name), price * 2, ts FROM changes"
                + " WHERE MOD(price, 3) <> 0";
        String sink = "CREATE TABLE ${out} (id BIGINT, name STRING, doubled BIGINT, ts TIMESTAMP(3)) WITH ("
                + "'key.format' = 'json', 'key.fields' = 'id', 'value.format' = 'debezium-json', ${sink})";
        String partitioner = SubtaskShareRowPartitioner.class.getName();
        List<String> stock = records(run(false, Map.of(), INPUT, "partitioned_changes", "", sink, insert, partitioner).topic());
        Run columnar = run(true, Map.of(), INPUT, "partitioned_changes", "", sink, insert, partitioner);
        assertThat(columnar.plan()).doesNotContain("ArrowToRows(").contains("ColumnarCalc(")
                .contains("custom partitioner " + partitioner + ", Arrow input], rowKinds=[from batches]");
        assertThat(stock).as("stock's records, in each of 4 partitions, deletes among them")
                .anyMatch(r -> r.contains("\"op\":\"d\""))
                .extracting(r -> r.substring(0, r.indexOf(' '))).containsOnly("p0", "p1", "p2", "p3");
        assertThat(records(columnar.topic())).isEqualTo(stock);
    }

    /**
     * A computing columnar Calc into an upsert table (the changes table declares its key, so Flink puts no upsert
     * materializer in front): each DELETE and UPDATE_BEFORE row is a tombstone under its key, every other row its
     * value, as Flink's upsert serializer writes them; each key's committed records, in order, equal stock's. Without a
     * filter Flink drops the UPDATE_BEFORE rows first ({@code DropUpdateBefore}, columnar on the row kinds); with one
     * (on a column an update may change) they reach the sink.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", " WHERE MOD(price, 3) <> 0"})
    void aCalcOverTheChangelogIntoAnUpsertTableWritesStocksTombstones(String where) throws Exception {
        String source = ", PRIMARY KEY (id) NOT ENFORCED";
        String insert = "INSERT INTO ${out} SELECT id, UPPER(name), price * 2, ts FROM changes" + where;
        String sink = "CREATE TABLE ${out} (id BIGINT, name STRING, doubled BIGINT, ts TIMESTAMP(3),"
                + " PRIMARY KEY (id) NOT ENFORCED) WITH ('key.format' = 'json', 'value.format' = 'json', ${sink})";
        String name = where.isEmpty() ? "latest" : "latest_filtered";
        Map<String, List<String>> stock = recordsPerKey(run(false, name, source, sink, insert).topic());
        Run columnar = run(true, name, source, sink, insert);
        assertThat(columnar.plan()).doesNotContain("ArrowToRows(").contains("ColumnarCalc(")
                .contains("encode=[admitted: json value, json key, upsert tombstones, Arrow input],"
                        + " rowKinds=[from batches]");
        assertThat(columnar.plan().contains("ColumnarDropUpdateBefore")).as("UPDATE_BEFORE rows dropped first")
                .isEqualTo(where.isEmpty());
        assertThat(stock).as("stock's records: every id's, tombstones among them").hasSize(IDS)
                .allSatisfy((key, values) -> assertThat(values).contains("null").anyMatch(v -> !v.equals("null")));
        assertThat(recordsPerKey(columnar.topic())).isEqualTo(stock);
    }

    /**
     * A filter over the changelog into Flink's group aggregate, which retracts each update's UPDATE_BEFORE row: the
     * edge in front of it gives each row its kind from the batches; the final value per key equals stock's.
     */
    @Test
    void theEdgeToAnAggregateGivesEachRowItsKind() throws Exception {
        String insert = "INSERT INTO ${out} SELECT name, COUNT(*), SUM(price) FROM changes"
                + " WHERE price > 3 AND name IS NOT NULL GROUP BY name";
        String sink = "CREATE TABLE ${out} (name STRING, n BIGINT, total BIGINT, PRIMARY KEY (name) NOT ENFORCED)"
                + " WITH ('key.format' = 'json', 'value.format' = 'json', ${sink})";
        Map<String, String> stock = finalValuePerKey(run(false, "totals", "", sink, insert).topic());
        Run columnar = run(true, "totals", "", sink, insert);
        assertThat(columnar.plan()).contains("ColumnarScan(").contains("ColumnarCalc(")
                .contains("rowKinds=[from batches]");
        assertThat(stock).as("stock's totals: one per name, n0 to n4 and a non-BMP one").hasSize(6);
        assertThat(finalValuePerKey(columnar.topic())).isEqualTo(stock);
    }

    /**
     * With mini-batch, Flink's two-phase group aggregate over the changelog: its local phase runs on the Calc's
     * batches (Flink's retracting COUNT, SUM of a BIGINT and of a DECIMAL, AVG, a FILTER, each row accumulated or
     * retracted by its kind), no edge in the plan; the final value per key equals stock's.
     */
    @Test
    void withMiniBatchTheLocalAggregateOverTheChangelogRetractsOnTheBatches() throws Exception {
        String insert = "INSERT INTO ${out} SELECT name, COUNT(*), SUM(price), AVG(price), COUNT(ts) FILTER (WHERE"
                + " price > 50), SUM(CAST(price AS DECIMAL(10, 2)) * 1.25) FROM changes WHERE name IS NOT NULL"
                + " GROUP BY name";
        String sink = "CREATE TABLE ${out} (name STRING, n BIGINT, total BIGINT, mean BIGINT, dear BIGINT,"
                + " amount DECIMAL(38, 4), PRIMARY KEY (name) NOT ENFORCED) WITH ('key.format' = 'json',"
                + " 'value.format' = 'json', ${sink})";
        Map<String, String> stock = finalValuePerKey(run(false, MINI_BATCH, "minibatch_totals", "", sink, insert).topic());
        Run columnar = run(true, MINI_BATCH, "minibatch_totals", "", sink, insert);
        assertThat(columnar.plan()).doesNotContain("ArrowToRows(")
                .containsPattern("ColumnarLocalGroupAggregate\\(groupBy=\\[name\\], .*local=\\[vectorised\\]\\)\\n"
                        + "[ :]*\\+- ColumnarCalc\\(");
        assertThat(stock).as("stock's totals: one per name, n0 to n4 and a non-BMP one").hasSize(6);
        assertThat(finalValuePerKey(columnar.topic())).isEqualTo(stock);
    }

    /**
     * With mini-batch, MAX and MIN over the changelog (Flink's retracting ones: each value's row count in a MapView,
     * the extreme given up when its last row is retracted) of a BIGINT, a VARCHAR and a DECIMAL, per computed key:
     * the local phase on the Calc's batches, no edge; the final value per key equals stock's.
     */
    @Test
    void withMiniBatchMaxAndMinOverTheChangelogCountEachValuesRows() throws Exception {
        String insert = "INSERT INTO ${out} SELECT MOD(id, 4), MAX(price), MIN(price), MAX(name), MIN(name) FILTER"
                + " (WHERE price > 20), MIN(CAST(price AS DECIMAL(10, 2)) * 1.25), COUNT(*) FROM changes"
                + " GROUP BY MOD(id, 4)";
        String sink = "CREATE TABLE ${out} (g BIGINT, top BIGINT, bottom BIGINT, last_name STRING, first_name STRING,"
                + " least DECIMAL(14, 4), n BIGINT, PRIMARY KEY (g) NOT ENFORCED) WITH ('key.format' = 'json',"
                + " 'value.format' = 'json', ${sink})";
        Map<String, String> stock = finalValuePerKey(run(false, MINI_BATCH, "minibatch_extremes", "", sink, insert)
                .topic());
        Run columnar = run(true, MINI_BATCH, "minibatch_extremes", "", sink, insert);
        assertThat(columnar.plan()).doesNotContain("ArrowToRows(")
                .containsPattern("ColumnarLocalGroupAggregate\\(groupBy=\\[EXPR\\$0\\], select=\\[.*MAX_RETRACT\\(name\\)"
                        + ".*local=\\[vectorised\\]\\)");
        assertThat(stock).as("stock's extremes: one per key").hasSize(4);
        assertThat(finalValuePerKey(columnar.topic())).isEqualTo(stock);
    }

    /**
     * With mini-batch and Flink's split of distinct aggregates, two COUNT(DISTINCT ...) over the changelog: the
     * bucket Calc, Flink's {@code Expand} (a copy per distinct column, each keeping its row's kind), the filter Calc
     * and the partial phase's local aggregate (retracting the distinct values' row counts) all on the batches, no
     * edge; the final value per key equals stock's.
     */
    @Test
    void withASplitDistinctAggregateTheExpandAndLocalPhaseOverTheChangelogAreColumnar() throws Exception {
        Map<String, String> split = new HashMap<>(MINI_BATCH);
        split.put("table.optimizer.distinct-agg.split.enabled", "true");
        String insert = "INSERT INTO ${out} SELECT name, COUNT(DISTINCT id), COUNT(DISTINCT price), COUNT(*) FROM"
                + " changes WHERE name IS NOT NULL GROUP BY name";
        String sink = "CREATE TABLE ${out} (name STRING, ids BIGINT, prices BIGINT, n BIGINT, PRIMARY KEY (name)"
                + " NOT ENFORCED) WITH ('key.format' = 'json', 'value.format' = 'json', ${sink})";
        Map<String, String> stock = finalValuePerKey(run(false, split, "split_distincts", "", sink, insert).topic());
        Run columnar = run(true, split, "split_distincts", "", sink, insert);
        assertThat(columnar.plan()).doesNotContain("ArrowToRows(").contains("ColumnarExpand(")
                .containsPattern("ColumnarLocalGroupAggregate\\(groupBy=\\[name, [^\\]]*\\], partialFinalType=\\[PARTIAL\\],"
                        + " .*local=\\[vectorised\\]\\)");
        assertThat(stock).as("stock's counts: one per name").hasSize(6);
        assertThat(finalValuePerKey(columnar.topic())).isEqualTo(stock);
    }

    /**
     * A window aggregate over the changelog (Flink plans it two-phase, retracting): its local phase on the batches,
     * COUNT(*), SUM and a COUNT(DISTINCT) per name, each row accumulated or retracted by its kind. One window of 365
     * days holds every change (2020-01-01), so it fires at the end of input alone and no row is late, whatever
     * the periodic watermarks did: the final value per key equals stock's.
     */
    @Test
    void aWindowAggregateOverTheChangelogRetractsOnTheBatches() throws Exception {
        String source = ", WATERMARK FOR ts AS ts - INTERVAL '1' SECOND";
        String insert = "INSERT INTO ${out} SELECT name, window_start, COUNT(*), SUM(price), COUNT(DISTINCT id) FROM"
                + " TABLE(TUMBLE(TABLE changes, DESCRIPTOR(ts), INTERVAL '365' DAY(3))) WHERE name IS NOT NULL"
                + " GROUP BY name, window_start, window_end";
        String sink = "CREATE TABLE ${out} (name STRING, ws TIMESTAMP(3), n BIGINT, total BIGINT, ids BIGINT,"
                + " PRIMARY KEY (name, ws) NOT ENFORCED) WITH ('key.format' = 'json', 'value.format' = 'json',"
                + " ${sink})";
        Map<String, String> stock = finalValuePerKey(run(false, "window_totals", source, sink, insert).topic());
        Run columnar = run(true, "window_totals", source, sink, insert);
        assertThat(columnar.plan()).doesNotContain("ArrowToRows(")
                .containsPattern("ColumnarLocalWindowAggregate\\(.*local=\\[vectorised\\]");
        assertThat(stock).as("stock's windows: one per name").hasSize(6);
        assertThat(finalValuePerKey(columnar.topic())).isEqualTo(stock);
    }

    /**
     * Window aggregates over the changelog with many windows, fired as the watermark passes them: TUMBLE, HOP and
     * CUMULATE, each with COUNT(*), SUM, a retracting MAX and a COUNT(DISTINCT) per name, on the local phase's
     * batches, over {@link #WINDOWED_INPUT}, where rows last (over {@link #INPUT} every id changes again within 40
     * minutes, which leaves all but the last windows empty). Each partition's rows rise by a minute an event, and an
     * update's or delete's old row is at most 13 minutes older than the newest, so with a watermark two hours behind
     * no row is late, whenever the periodic watermarks come: every window's final value equals stock's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"TUMBLE(TABLE changes, DESCRIPTOR(ts), INTERVAL '1' HOUR)",
            "HOP(TABLE changes, DESCRIPTOR(ts), INTERVAL '20' MINUTE, INTERVAL '1' HOUR)",
            "CUMULATE(TABLE changes, DESCRIPTOR(ts), INTERVAL '15' MINUTE, INTERVAL '2' HOUR)"})
    void manyWindowsOverTheChangelogFireAsTheWatermarkPassesThem(String window) throws Exception {
        String source = ", WATERMARK FOR ts AS ts - INTERVAL '2' HOUR";
        String insert = "INSERT INTO ${out} SELECT name, window_start, window_end, COUNT(*), SUM(price), MAX(price),"
                + " COUNT(DISTINCT id) FROM TABLE(" + window + ") WHERE name IS NOT NULL"
                + " GROUP BY name, window_start, window_end";
        String sink = "CREATE TABLE ${out} (name STRING, ws TIMESTAMP(3), we TIMESTAMP(3), n BIGINT, total BIGINT,"
                + " highest BIGINT, ids BIGINT, PRIMARY KEY (name, ws, we) NOT ENFORCED) WITH ("
                + "'key.format' = 'json', 'value.format' = 'json', ${sink})";
        String name = "windows_" + window.substring(0, window.indexOf('(')).toLowerCase(Locale.ROOT);
        Map<String, String> stock = finalValuePerKey(
                run(false, Map.of(), WINDOWED_INPUT, name, source, sink, insert, "fixed").topic());
        Run columnar = run(true, Map.of(), WINDOWED_INPUT, name, source, sink, insert, "fixed");
        assertThat(columnar.plan()).doesNotContain("ArrowToRows(")
                .containsPattern("ColumnarLocalWindowAggregate\\(.*local=\\[vectorised\\]");
        assertThat(stock).as("stock's windows: 20 hours of events, 6 names").hasSizeGreaterThan(6 * 15);
        assertThat(finalValuePerKey(columnar.topic())).isEqualTo(stock);
    }

    /**
     * The changes table with a metadata column (the record's partition) and a watermark: the Arrow scan fills the
     * metadata column before the row-kind column and evaluates the watermark over the same batches; the committed
     * records equal stock's.
     */
    @Test
    void aMetadataColumnAndAWatermarkOverTheChangelog() throws Exception {
        String source = ", part INT METADATA FROM 'partition' VIRTUAL, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND";
        String insert = "INSERT INTO ${out} SELECT id, name, part, ts FROM changes WHERE price > 50";
        String sink = "CREATE TABLE ${out} (id BIGINT, name STRING, part INT, ts TIMESTAMP(3)) WITH ("
                + "'format' = 'debezium-json', ${sink})";
        List<String> stock = records(run(false, "parts", source, sink, insert).topic());
        Run columnar = run(true, "parts", source, sink, insert);
        assertThat(columnar.plan()).doesNotContain("ArrowToRows(").contains("ColumnarSink(")
                .contains("metadata=[partition], watermark=[-(ts, 1000:INTERVAL SECOND)]")
                .contains("watermark=[columnar]");
        assertThat(stock).as("stock's records, of both partitions").hasSizeGreaterThan(EVENTS / 4)
                .anyMatch(r -> r.contains("\"part\":1"));
        assertThat(records(columnar.topic())).isEqualTo(stock);
    }

    private record Run(String topic, String plan) {}

    /**
     * Runs {@code insert} through stock's connectors or the stage's: the changes table over the input (its columns
     * followed by {@code sourceExtras}), the sink
     * {@code sinkDdl} over a topic of its own ({@code ${out}} its name, {@code ${sink}} its connector options:
     * {@code upsert-kafka} for a primary key, else {@code kafka} with Flink's fixed partitioner).
     */
    private static Run run(boolean columnar, String name, String sourceExtras, String sinkDdl, String insert)
            throws Exception {
        return run(columnar, Map.of(), name, sourceExtras, sinkDdl, insert);
    }

    /** {@link #run(boolean, String, String, String, String)}, with the table options {@code options}. */
    private static Run run(boolean columnar, Map<String, String> options, String name, String sourceExtras,
            String sinkDdl, String insert) throws Exception {
        return run(columnar, options, INPUT, name, sourceExtras, sinkDdl, insert, "fixed");
    }

    /**
     * {@link #run(boolean, Map, String, String, String, String)} over the topic {@code input}, with the {@code kafka}
     * sink's {@code partitioner}; its topic has a partition per subtask, two for a custom partitioner.
     */
    private static Run run(boolean columnar, Map<String, String> options, String input, String name,
            String sourceExtras, String sinkDdl, String insert, String partitioner) throws Exception {
        String variant = columnar ? "columnar" : "stock";
        String out = name + "_" + variant;
        KAFKA.broker().createTopic(out, partitioner.equals("fixed") ? PARALLELISM : 2 * PARALLELISM);
        StreamExecutionEnvironment env = SinkJobs.environment(0); // a failure fails the test, no restarts
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(500, CheckpointingMode.EXACTLY_ONCE);
        TableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        if (columnar) {
            assertThat(ColumnarSql.install(tEnv).installed()).isTrue();
        }
        options.forEach(tEnv.getConfig()::set);
        String connector = columnar ? "kafka-columnar" : "kafka";
        String servers = KAFKA.broker().bootstrapServers();
        tEnv.executeSql("CREATE TABLE changes (id BIGINT, name STRING, price BIGINT, ts TIMESTAMP(3)" + sourceExtras
                + ") WITH ("
                + "'connector' = '" + connector + "', 'topic' = '" + input + "', 'properties.bootstrap.servers' = '"
                + servers + "', 'properties.group.id' = '" + out + "', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'debezium-json')");
        boolean upsert = sinkDdl.contains("PRIMARY KEY");
        String sinkOptions = "'connector' = '" + (upsert ? "upsert-" : "") + connector + "', 'topic' = '" + out
                + "', 'properties.bootstrap.servers' = '" + servers + "'"
                + (upsert ? "" : ", 'sink.partitioner' = '" + partitioner + "'")
                + ", 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '" + out
                + "', 'properties.transaction.timeout.ms' = '60000'";
        tEnv.executeSql(sinkDdl.replace("${out}", out).replace("${sink}", sinkOptions));
        String statement = insert.replace("${out}", out);
        String explain = tEnv.explainSql(statement);
        tEnv.executeSql(statement).await();
        ArrowMemoryChecks.assertReleased();
        return new Run(out, explain.substring(explain.indexOf("== Optimized Execution Plan ==")));
    }

    /** The topic's committed records, per partition in offset order. */
    private static List<String> records(String topic) {
        List<String> out = new ArrayList<>();
        for (TopicRecord r : committed(topic)) {
            out.add("p" + r.partition() + " key=" + r.keyAsString() + " value=" + r.valueAsString());
        }
        return out;
    }

    /** Each key's values in offset order ("null" for a tombstone). */
    private static Map<String, List<String>> recordsPerKey(String topic) {
        Map<String, List<String>> values = new TreeMap<>();
        for (TopicRecord r : committed(topic)) {
            values.computeIfAbsent(r.keyAsString(), k -> new ArrayList<>())
                    .add(r.value() == null ? "null" : r.valueAsString());
        }
        return values;
    }

    private static Map<String, String> finalValuePerKey(String topic) {
        return CommittedRecords.finalValuePerKey(KAFKA.broker(), topic);
    }

    private static List<TopicRecord> committed(String topic) {
        return CommittedRecords.inOffsetOrder(KAFKA.broker(), topic);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
