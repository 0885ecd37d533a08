package io.columnarkafka.format.protobuf;

import java.util.Map;

/**
 * The options of Flink's {@code protobuf} format when reading, by Flink's keys without the {@code protobuf.}
 * prefix (Flink's {@code PbFormatOptions}): {@code message-class-name} (required), {@code ignore-parse-errors}
 * (default false: a record that fails fails the job; true: it yields no row) and {@code read-default-values}
 * (default false; see {@link PbReaderPlan} for what it changes). {@code write-null-string-literal} is accepted
 * and has no effect on reading, as in Flink.
 */
public record ProtobufDecodeOptions(ProtobufFormatOptions format, boolean ignoreParseErrors,
        boolean readDefaultValues) {
    public static final String IGNORE_PARSE_ERRORS = "ignore-parse-errors";
    public static final String READ_DEFAULT_VALUES = "read-default-values";

    /** Options from Flink's keys (without the format prefix); unknown keys and values other than true/false are rejected. */
    public static ProtobufDecodeOptions fromMap(Map<String, String> options) {
        return new ProtobufDecodeOptions(ProtobufFormatOptions.fromMap(options),
                bool(options, IGNORE_PARSE_ERRORS), bool(options, READ_DEFAULT_VALUES));
    }

    private static boolean bool(Map<String, String> options, String key) {
        String value = options.getOrDefault(key, "false");
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException(
                "invalid value '" + value + "' for protobuf option '" + key + "'; allowed: true, false");
    }
}
