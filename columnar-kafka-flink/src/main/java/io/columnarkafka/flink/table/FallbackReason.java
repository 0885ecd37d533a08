package io.columnarkafka.flink.table;

/** Why a Kafka table sink runs on Flink's stock serializers instead of the columnar encoders. */
public enum FallbackReason {
    /** The value format is not admitted by the SQL gate ({@link SqlFormat}): no encoder, or no SQL parity test. */
    UNSUPPORTED_VALUE_FORMAT,
    /** The key format is not admitted by the SQL gate ({@link SqlFormat}). */
    UNSUPPORTED_KEY_FORMAT,
    /** A column type the columnar path cannot write byte for byte as Flink does. */
    UNSUPPORTED_TYPE,
    /** A format or connector option the columnar path does not reproduce. */
    UNSUPPORTED_OPTION,
    /** A writable metadata column the columnar path does not write. */
    UNSUPPORTED_METADATA,
    /** Flink's sink could not be inspected (an unexpected connector version). */
    UNSUPPORTED_CONNECTOR
}
