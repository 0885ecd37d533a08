package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.SqlOptions;
import java.util.Map;
import java.util.TreeMap;

/** The tables around the CDC queries: the Debezium source table and the result tables' connector options. */
final class CdcSql {
    /** The result tables' producer {@code transaction.timeout.ms}. */
    private static final String TRANSACTION_TIMEOUT_MS = "120000";

    private CdcSql() {}

    /**
     * The {@code orders} table over the Debezium topic, keyed by {@code id} as the database table is, read bounded
     * (from the earliest offsets to the latest at start) in Flink's {@code debezium-json} format.
     */
    static String sourceTable(CdcVariant variant, String bootstrapServers, String topic, String groupId) {
        Map<String, String> options = new TreeMap<>(Map.of(
                "connector", variant.connector(),
                "topic", topic,
                "properties.bootstrap.servers", bootstrapServers,
                "properties.group.id", groupId,
                "scan.startup.mode", "earliest-offset",
                "scan.bounded.mode", "latest-offset",
                "format", "debezium-json"));
        return "CREATE TABLE orders (" + OrderRow.COLUMNS + ", PRIMARY KEY (id) NOT ENFORCED) WITH ("
                + SqlOptions.of(options) + ")";
    }

    /** A result table's connector options: EXACTLY_ONCE, one transactional-id prefix per cell. */
    static String sinkOptions(CdcVariant variant, CdcQuery query, String bootstrapServers, String topic,
                              String transactionalIdPrefix) {
        return SqlOptions.of(Map.of(
                "connector", variant.connector(query.upsert()),
                "topic", topic,
                "properties.bootstrap.servers", bootstrapServers,
                "sink.delivery-guarantee", "exactly-once",
                "sink.transactional-id-prefix", transactionalIdPrefix,
                "properties.transaction.timeout.ms", TRANSACTION_TIMEOUT_MS));
    }
}
