package io.columnarkafka.format.avro;

import java.util.Map;
import java.util.Set;

/**
 * Options of Flink's {@code avro} format (SQL prefix {@code avro.}), as given to {@code Formats.encoder}
 * without the prefix.
 *
 * <ul>
 *   <li>{@code timestamp_mapping.legacy} (default {@code true}): Flink's legacy mapping, where TIMESTAMP(0..3)
 *       is Avro {@code timestamp-millis} and TIMESTAMP_LTZ is unsupported; {@code false} maps TIMESTAMP to
 *       {@code local-timestamp-millis/micros} and TIMESTAMP_LTZ to {@code timestamp-millis/micros}.
 *   <li>{@code encoding} (default {@code binary}): only {@code binary} has a columnar encoder.
 *   <li>{@code codec}: accepted and ignored, as Flink's Kafka path ignores it (it is a file-sink option).
 * </ul>
 *
 * @param legacyTimestampMapping whether Flink's legacy timestamp mapping applies
 */
public record AvroFormatOptions(boolean legacyTimestampMapping) {
    private static final Set<String> KEYS = Set.of("timestamp_mapping.legacy", "encoding", "codec");

    /** Flink's defaults: legacy timestamp mapping, binary encoding. */
    public static AvroFormatOptions defaults() {
        return new AvroFormatOptions(true);
    }

    /**
     * Reads Flink's option keys without the {@code avro.} prefix.
     *
     * @throws IllegalArgumentException for an unknown key or value, or {@code encoding=json}
     */
    public static AvroFormatOptions fromMap(Map<String, String> options) {
        for (String key : options.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(
                        "unknown avro format option '" + key + "'; supported: " + KEYS);
            }
        }
        String encoding = options.getOrDefault("encoding", "binary");
        if (!encoding.equalsIgnoreCase("binary")) {
            throw new IllegalArgumentException("avro option 'encoding' = '" + encoding
                    + "': only 'binary' has a columnar encoder ('json' is Flink-only)");
        }
        return new AvroFormatOptions(bool(options, "timestamp_mapping.legacy", true));
    }

    static boolean bool(Map<String, String> options, String key, boolean fallback) {
        String value = options.get(key);
        if (value == null) {
            return fallback;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("avro option '" + key + "' must be true or false, not '" + value + "'");
    }
}
