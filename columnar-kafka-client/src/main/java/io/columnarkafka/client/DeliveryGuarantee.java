package io.columnarkafka.client;

import java.util.Locale;

/** What {@link ArrowKafkaSink} promises about each record, spelled as Flink's {@code sink.delivery-guarantee}. */
public enum DeliveryGuarantee {
    /** Records are sent and not waited for; a failure may lose records that {@code writeBatch} accepted. */
    NONE,
    /** {@code flush} waits for every acknowledgement and surfaces send errors; a replay after a failure duplicates. */
    AT_LEAST_ONCE,
    /** Each epoch is one Kafka transaction: {@code read_committed} consumers see every committed epoch once. */
    EXACTLY_ONCE;

    /** {@code none}, {@code at-least-once} or {@code exactly-once} (case and {@code _}/{@code -} ignored). */
    public static DeliveryGuarantee parse(String value) {
        String normalized = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (DeliveryGuarantee guarantee : values()) {
            if (guarantee.name().equals(normalized)) {
                return guarantee;
            }
        }
        throw new IllegalArgumentException(
                "delivery guarantee '" + value + "' is not one of none, at-least-once, exactly-once");
    }

    /** The spelling {@link #parse} reads, e.g. {@code exactly-once}. */
    public String spelling() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
