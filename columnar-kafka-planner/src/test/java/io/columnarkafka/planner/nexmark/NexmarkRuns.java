package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.CountChar;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * Runs a Nexmark query of the benchmark's resources ({@code nexmark/qN.sql}, views from {@code views.sql})
 * over a topic of generated events, once as stock Flink ({@code kafka} in and out, the planner untouched)
 * and once columnar ({@code kafka-columnar} in and out, {@link ColumnarSql#install}), each job writing
 * EXACTLY_ONCE into a topic of its own with Flink's {@code fixed} partitioner (sink subtask i writes partition
 * i, so each partition's order is the order its source partition was read in), and reads both back
 * read_committed.
 *
 * <p>The source table is the suite's {@code ddl_kafka.sql} table, with its WATERMARK ({@code dateTime - INTERVAL
 * '4' SECOND} on the computed event time) for the event-time queries and without it for the others, which use
 * none (as the benchmark runs them).
 */
final class NexmarkRuns {
    private static final AtomicInteger RUN = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The suite's queries whose results are updates, written to an upsert table. */
    static final Set<String> UPSERT_QUERIES = Set.of("q4", "q9", "q15", "q16", "q17", "q18", "q19");

    private final KafkaBroker broker;
    private final String eventsTopic;
    private final boolean miniBatch;
    /** Session options set in both variants (e.g. the split distinct aggregate). */
    private final Map<String, String> options;

    NexmarkRuns(KafkaBroker broker, String eventsTopic) {
        this(broker, eventsTopic, false, Map.of());
    }

    private NexmarkRuns(KafkaBroker broker, String eventsTopic, boolean miniBatch, Map<String, String> options) {
        this.broker = broker;
        this.eventsTopic = eventsTopic;
        this.miniBatch = miniBatch;
        this.options = options;
    }

    /** These runs with mini-batch on ({@link #miniBatch(TableEnvironment)}), in both variants. */
    NexmarkRuns withMiniBatch() {
        return new NexmarkRuns(broker, eventsTopic, true, options);
    }

    /** These runs with the session option {@code key} set to {@code value}, in both variants. */
    NexmarkRuns withOption(String key, String value) {
        Map<String, String> more = new TreeMap<>(options);
        more.put(key, value);
        return new NexmarkRuns(broker, eventsTopic, miniBatch, Map.copyOf(more));
    }

    /** Mini-batch on as the Nexmark benchmark sets it: allow-latency 2 s, size 50,000. */
    static void miniBatch(TableEnvironment tEnv) {
        tEnv.getConfig().set("table.exec.mini-batch.enabled", "true");
        tEnv.getConfig().set("table.exec.mini-batch.allow-latency", "2 s");
        tEnv.getConfig().set("table.exec.mini-batch.size", "50000");
    }

    /** The source table over the events topic, through {@code connector}, with or without its watermark. */
    String sourceTable(String connector, String groupId, boolean watermark) {
        return sourceTable(connector, broker.bootstrapServers(), eventsTopic, groupId, watermark);
    }

    /** The source table over {@code topic} at {@code bootstrapServers}, through {@code connector}. */
    static String sourceTable(String connector, String bootstrapServers, String topic, String groupId,
            boolean watermark) {
        String columns = NexmarkGenerator.EVENT_TYPE.getFields().stream()
                .map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                .collect(Collectors.joining(",\n    "));
        return "CREATE TABLE nexmark (\n    " + columns + ",\n"
                + "    `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime`"
                + " WHEN event_type = 1 THEN auction.`dateTime` ELSE bid.`dateTime` END"
                + (watermark ? ",\n    WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND\n" : "\n")
                + ") WITH (" + sourceOptions(connector, bootstrapServers, topic, groupId) + ")";
    }

    /** The events source's options: the whole topic, json; also what a script's {@code ${SOURCE}} becomes. */
    private static String sourceOptions(String connector, String bootstrapServers, String topic, String groupId) {
        return "'connector' = '" + connector + "', 'topic' = '" + topic + "',"
                + " 'properties.bootstrap.servers' = '" + bootstrapServers + "',"
                + " 'properties.group.id' = '" + groupId + "', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json'";
    }

    /** The result table's options: EXACTLY_ONCE, json values (json keys for an upsert table), fixed partitions. */
    String sinkOptions(String connector, String topic, boolean upsert) {
        return sinkOptions(connector, broker.bootstrapServers(), topic, upsert);
    }

    static String sinkOptions(String connector, String bootstrapServers, String topic, boolean upsert) {
        String format = upsert ? "'key.format' = 'json', 'value.format' = 'json'"
                : "'format' = 'json', 'sink.partitioner' = 'fixed'";
        return "'connector' = '" + connector + "', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + bootstrapServers + "', " + format + ", 'sink.delivery-guarantee' = 'exactly-once',"
                + " 'sink.transactional-id-prefix' = '" + topic + "', 'properties.transaction.timeout.ms' = '60000'";
    }

    /** A finished run: its output topic and the INSERT's EXPLAIN. */
    record Run(String topic, String explain) {}

    /** A started run: its output topic, consumer group, the INSERT's EXPLAIN and the running job. */
    record Started(String topic, String groupId, String explain, TableResult job) {}

    /**
     * Runs {@code script} (a query file's statements, {@code ${SINK}} filled) through {@code connector} or its
     * upsert twin, with the columnar stage installed when asked; waits for the job to end.
     */
    Run run(String query, String script, boolean columnar, boolean upsert, int parallelism) throws Exception {
        return run(query, script, columnar, upsert, parallelism, false);
    }

    /** As above; with {@code watermark}, the source table declares the suite's watermark. */
    Run run(String query, String script, boolean columnar, boolean upsert, int parallelism, boolean watermark)
            throws Exception {
        Started started = start(query, script, columnar, upsert, parallelism,
                StreamExecutionEnvironment.getExecutionEnvironment(), 500, watermark);
        started.job().await();
        ArrowMemoryChecks.assertReleased();
        return new Run(started.topic(), started.explain());
    }

    /** As {@link #run}, on {@code env}, checkpointing every {@code checkpointMillis}; returns once submitted. */
    Started start(String query, String script, boolean columnar, boolean upsert, int parallelism,
            StreamExecutionEnvironment env, long checkpointMillis, boolean watermark) throws Exception {
        String topic = query + "_" + (columnar ? "columnar" : "stock") + "_" + RUN.incrementAndGet();
        broker.createTopic(topic, parallelism);
        env.setParallelism(parallelism);
        env.enableCheckpointing(checkpointMillis, CheckpointingMode.EXACTLY_ONCE);
        TableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        if (columnar) {
            assertThat(ColumnarSql.install(tEnv).installed()).isTrue();
        }
        options.forEach(tEnv.getConfig()::set);
        if (miniBatch) {
            miniBatch(tEnv);
        }
        tEnv.createTemporarySystemFunction("count_char", CountChar.class); // q14's UDF, as the benchmark has it
        String connector = columnar ? "kafka-columnar" : "kafka";
        tEnv.executeSql(sourceTable(connector, topic, watermark));
        for (String view : statements(resource("views.sql"))) {
            tEnv.executeSql(view);
        }
        String sinkConnector = upsert ? "upsert-" + connector : connector;
        String insert = null;
        // ${SOURCE}: the events again, e.g. under a schema of narrower types than the events table's; ${ROW_SOURCE}:
        // the events through Flink's own kafka connector in both variants, a row scan, so what reads it is Flink's.
        for (String statement : statements(script.replace("${SINK}", sinkOptions(sinkConnector, topic, upsert))
                .replace("${SOURCE}", sourceOptions(connector, broker.bootstrapServers(), eventsTopic, topic))
                .replace("${ROW_SOURCE}", sourceOptions("kafka", broker.bootstrapServers(), eventsTopic, topic)))) {
            if (statement.toUpperCase().startsWith("INSERT")) {
                insert = statement;
            } else {
                tEnv.executeSql(statement);
            }
        }
        String explain = tEnv.explainSql(insert);
        return new Started(topic, topic, explain, tEnv.executeSql(insert));
    }

    /** The topic's committed records, per partition in offset order: {@code p<n> key=<b64> value=<b64>}. */
    List<String> records(String topic) {
        List<TopicRecord> records = new ArrayList<>(
                TopicVerifier.forTopic(broker, topic).readCommitted().keepRecords(true).read().records());
        records.sort(Comparator.comparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset));
        List<String> out = new ArrayList<>(records.size());
        for (TopicRecord r : records) {
            out.add("p" + r.partition() + " key=" + base64(r.key()) + " value=" + base64(r.value()));
        }
        return out;
    }

    /**
     * An upsert topic's final value per key ({@code null} for a tombstone), read in each partition's offset order:
     * what the table holds, whatever updates led there (with mini-batch, how many intermediate updates an
     * aggregate emits depends on where the mini-batches end).
     */
    Map<String, String> finalValuePerKey(String topic) {
        return finalValuePerKey(topic, List.of());
    }

    /**
     * As {@link #finalValuePerKey(String)}, each JSON value without {@code openOnTie}: the columns a ROW_NUMBER
     * Top-N leaves open when rows tie on its ORDER BY (SQL ranks ties in no defined order, so which tied row got
     * which rank depends on arrival order, in stock Flink too). The key and the ORDER BY columns stay compared.
     */
    Map<String, String> finalValuePerKey(String topic, List<String> openOnTie) {
        Map<String, String> values = new TreeMap<>();
        for (TopicRecord r : TopicVerifier.forTopic(broker, topic).readCommitted().keepRecords(true).read().records()
                .stream().sorted(Comparator.comparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset))
                .toList()) {
            values.put(base64(r.key()), openOnTie.isEmpty() ? base64(r.value()) : without(openOnTie, r.value()));
        }
        return values;
    }

    private static String without(List<String> fields, byte[] value) {
        if (value == null) {
            return "null";
        }
        try {
            ObjectNode node = (ObjectNode) JSON.readTree(value);
            for (String field : fields) {
                assertThat(node.has(field)).as("column %s in %s", field, node).isTrue();
            }
            node.remove(fields);
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new IllegalStateException("not a JSON object: " + new String(value, StandardCharsets.UTF_8), e);
        }
    }

    private static String base64(byte[] bytes) {
        return bytes == null ? "null" : Base64.getEncoder().encodeToString(bytes);
    }

    static String resource(String name) {
        try (InputStream in = NexmarkRuns.class.getClassLoader().getResourceAsStream("nexmark/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource nexmark/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read nexmark/" + name, e);
        }
    }

    /** Statements of a script, split at semicolons that end a line. */
    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        for (String statement : script.split(";\\s*(\\n|$)")) {
            if (!statement.isBlank()) {
                statements.add(statement.trim());
            }
        }
        return statements;
    }
}
