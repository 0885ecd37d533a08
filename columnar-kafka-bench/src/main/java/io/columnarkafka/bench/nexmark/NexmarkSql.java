package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.SqlOptions;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.table.types.logical.RowType;

/** The SQL around the queries: the suite's Kafka source table and views, and the result tables' options. */
final class NexmarkSql {
    /** The result tables' producer {@code transaction.timeout.ms}. */
    static final String TRANSACTION_TIMEOUT_MS = "120000";

    private NexmarkSql() {}

    /**
     * The suite's {@code ddl_kafka.sql} table: the generator's columns, the computed event time and a 4 s
     * watermark, read bounded (from the earliest to the latest offset at start) in Flink's {@code json} format.
     */
    static String sourceTable(String connector, String bootstrapServers, String topic, String groupId) {
        return sourceTable(connector, bootstrapServers, topic, groupId, true, ClientSettings.DEFAULTS);
    }

    /**
     * The source table, with or without its watermark: queries that use no event time run without one on both
     * variants when the columnar planner stage is measured, so their plans stay as measured (the columnar scan
     * takes the watermark of the event-time queries). {@code clients} may set the consumer's {@code
     * max.poll.records}: the records per fetch, which is also the most rows of a columnar scan's batch; and the
     * columnar table's {@code columnar.scan.max-batch-rows}.
     */
    static String sourceTable(String connector, String bootstrapServers, String topic, String groupId,
                              boolean watermark, ClientSettings clients) {
        return sourceTable(connector, bootstrapServers, topic, groupId, watermark, clients, true);
    }

    /**
     * The source table, read bounded (to the latest offsets at start) or, for a fixed-rate run whose input is
     * written while the job runs, unbounded.
     */
    static String sourceTable(String connector, String bootstrapServers, String topic, String groupId,
                              boolean watermark, ClientSettings clients, boolean bounded) {
        RowType type = NexmarkGenerator.EVENT_TYPE;
        String columns = type.getFields().stream()
                .map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                .collect(Collectors.joining(",\n    "));
        return "CREATE TABLE nexmark (\n    " + columns + ",\n"
                + "    `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime`"
                + " WHEN event_type = 1 THEN auction.`dateTime` ELSE bid.`dateTime` END"
                + (watermark ? ",\n    WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND\n" : "\n")
                + ") WITH (" + SqlOptions.of(sourceOptions(connector, bootstrapServers, topic, groupId, clients, bounded))
                + ")";
    }

    private static Map<String, String> sourceOptions(String connector, String bootstrapServers, String topic,
                                                     String groupId, ClientSettings clients, boolean bounded) {
        Map<String, String> options = new java.util.HashMap<>(Map.of(
                "connector", connector,
                "topic", topic,
                "properties.bootstrap.servers", bootstrapServers,
                "properties.group.id", groupId,
                "scan.startup.mode", "earliest-offset",
                "format", "json"));
        if (bounded) {
            options.put("scan.bounded.mode", "latest-offset");
        }
        clients.addSourceOptions(connector, options);
        return options;
    }

    /** The suite's {@code ddl_views.sql}: person, auction and bid views over the source table. */
    static List<String> views() {
        return statements(resource("nexmark/views.sql"));
    }

    /**
     * A result table writing EXACTLY_ONCE: values (and, for upsert tables, keys) in Flink's {@code json}
     * format, one transactional-id prefix per run, the producer settings of {@code clients} and the variant's own
     * {@code extra} options.
     */
    static String sinkOptions(String connector, boolean upsert, String bootstrapServers, String topic,
                              String transactionalIdPrefix, ClientSettings clients, Map<String, String> extra) {
        java.util.Map<String, String> options = new java.util.TreeMap<>();
        options.put("connector", connector);
        options.put("topic", topic);
        options.put("properties.bootstrap.servers", bootstrapServers);
        options.put("sink.delivery-guarantee", "exactly-once");
        options.put("sink.transactional-id-prefix", transactionalIdPrefix);
        options.put("properties.transaction.timeout.ms", TRANSACTION_TIMEOUT_MS);
        clients.addSinkOptions(options);
        options.putAll(extra);
        if (upsert) {
            options.put("key.format", "json");
            options.put("value.format", "json");
        } else {
            options.put("format", "json");
        }
        return SqlOptions.of(options);
    }

    static String resource(String name) {
        return NexmarkQuery.read(NexmarkSql.class.getClassLoader().getResourceAsStream(name), name);
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
