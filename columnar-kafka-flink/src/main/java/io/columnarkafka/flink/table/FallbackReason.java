package io.columnarkafka.flink.table;

/**
 * Why a Kafka table sink runs on Flink's stock serializers instead of the columnar encoders, or a Kafka table
 * scan on Flink's stock {@code KafkaDynamicSource} instead of the columnar decoders.
 */
public enum FallbackReason {
    /** The value format is not admitted by the SQL gate ({@link SqlFormat}): no encoder, or no SQL parity test. */
    UNSUPPORTED_VALUE_FORMAT,
    /** The key format is not admitted by the SQL gate ({@link SqlFormat}). */
    UNSUPPORTED_KEY_FORMAT,
    /** A column type the columnar path cannot write byte for byte as Flink does. */
    UNSUPPORTED_TYPE,
    /** A format or connector option the columnar path does not reproduce. */
    UNSUPPORTED_OPTION,
    /** A writable metadata column the columnar sink does not write, or a readable one the columnar scan does not read. */
    UNSUPPORTED_METADATA,
    /** Flink's sink or source could not be inspected (an unexpected connector version). */
    UNSUPPORTED_CONNECTOR,
    /**
     * A watermark shape an Arrow-emitting scan does not reproduce: per-row emission ({@code on-event}) inside a
     * batch. The connector's row scan reproduces every watermark.
     */
    UNSUPPORTED_WATERMARK,
    /** An {@code upsert-kafka} scan: tombstones as DELETE rows are not yet proven on the columnar path. */
    UNSUPPORTED_CHANGELOG
}
