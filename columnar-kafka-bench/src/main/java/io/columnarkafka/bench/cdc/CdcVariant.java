package io.columnarkafka.bench.cdc;

import java.util.Locale;

/**
 * Which connectors a CDC cell reads and writes through: stock Flink's {@code kafka} / {@code upsert-kafka}, or
 * {@code kafka-columnar} / {@code upsert-kafka-columnar} with the columnar planner stage installed.
 */
enum CdcVariant {
    STOCK("kafka"),
    COLUMNAR("kafka-columnar");

    private final String connector;

    CdcVariant(String connector) {
        this.connector = connector;
    }

    /** The source table's connector, and the sink's unless it is an upsert table. */
    String connector() {
        return connector;
    }

    String connector(boolean upsert) {
        return (upsert ? "upsert-" : "") + connector;
    }

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
