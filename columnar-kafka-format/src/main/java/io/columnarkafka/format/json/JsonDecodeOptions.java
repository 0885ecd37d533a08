package io.columnarkafka.format.json;

import io.columnarkafka.format.json.JsonFormatOptions.TimestampFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The deserialization options of Flink's {@code json} format, with Flink's keys (without the {@code json.}
 * prefix), values and defaults. The serialization-only keys of the format are accepted and have no effect,
 * as in Flink, so one option map serves both directions.
 *
 * @param failOnMissingField {@code fail-on-missing-field}: reject a record that lacks a field
 * @param ignoreParseErrors {@code ignore-parse-errors}: a field that cannot be converted becomes null and a
 *     record that cannot be parsed yields no row
 * @param timestampFormat {@code timestamp-format.standard}: SQL (default) or ISO-8601
 */
public record JsonDecodeOptions(boolean failOnMissingField, boolean ignoreParseErrors, TimestampFormat timestampFormat) {

    public static final String FAIL_ON_MISSING_FIELD = "fail-on-missing-field";
    public static final String IGNORE_PARSE_ERRORS = "ignore-parse-errors";
    /** Flink 2.2's default, {@code true}, selects the streaming parser this decoder reproduces. */
    public static final String JSON_PARSER_ENABLED = "decode.json-parser.enabled";
    private static final Set<String> SERIALIZATION_ONLY = Set.of(
            JsonFormatOptions.MAP_NULL_KEY_MODE, JsonFormatOptions.MAP_NULL_KEY_LITERAL,
            JsonFormatOptions.DECIMAL_AS_PLAIN_NUMBER, JsonFormatOptions.IGNORE_NULL_FIELDS);
    private static final Set<String> KEYS = Set.of(
            FAIL_ON_MISSING_FIELD, IGNORE_PARSE_ERRORS, JsonFormatOptions.TIMESTAMP_FORMAT, JSON_PARSER_ENABLED);

    public JsonDecodeOptions {
        if (timestampFormat == null) {
            throw new IllegalArgumentException("timestamp format must not be null");
        }
        if (failOnMissingField && ignoreParseErrors) {
            // Flink's JsonFormatOptionsUtil.validateDecodingFormatOptions, word for word.
            throw new IllegalArgumentException(
                    FAIL_ON_MISSING_FIELD + " and " + IGNORE_PARSE_ERRORS + " shouldn't both be true.");
        }
    }

    /** Flink's defaults. */
    public static JsonDecodeOptions defaults() {
        return new JsonDecodeOptions(false, false, TimestampFormat.SQL);
    }

    /**
     * Reads options given as Flink's keys without the {@code json.} prefix.
     *
     * @throws IllegalArgumentException naming an unknown key or an invalid value, when both {@code
     *     fail-on-missing-field} and {@code ignore-parse-errors} are true, or for {@code
     *     decode.json-parser.enabled=false} (Flink's tree-based deserializer, whose coercions differ)
     */
    public static JsonDecodeOptions fromMap(Map<String, String> options) {
        boolean failOnMissing = false;
        boolean ignoreErrors = false;
        TimestampFormat timestampFormat = TimestampFormat.SQL;
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            switch (key) {
                case FAIL_ON_MISSING_FIELD:
                    failOnMissing = bool(key, value);
                    break;
                case IGNORE_PARSE_ERRORS:
                    ignoreErrors = bool(key, value);
                    break;
                case JsonFormatOptions.TIMESTAMP_FORMAT:
                    timestampFormat = switch (value.toUpperCase(Locale.ROOT)) {
                        case "SQL" -> TimestampFormat.SQL;
                        case "ISO-8601" -> TimestampFormat.ISO_8601;
                        default -> throw invalid(key, value, "SQL, ISO-8601");
                    };
                    break;
                case JSON_PARSER_ENABLED:
                    if (!bool(key, value)) {
                        throw new IllegalArgumentException("json option '" + key + "' = false selects Flink's"
                                + " tree-based JSON deserializer, which has no columnar decoder");
                    }
                    break;
                default:
                    if (!SERIALIZATION_ONLY.contains(key)) {
                        throw new IllegalArgumentException(
                                "unknown json option '" + key + "'; supported for decoding: " + KEYS);
                    }
            }
        }
        return new JsonDecodeOptions(failOnMissing, ignoreErrors, timestampFormat);
    }

    private static boolean bool(String key, String value) {
        if (value.equalsIgnoreCase("true")) {
            return true;
        } else if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw invalid(key, value, "true, false");
    }

    private static IllegalArgumentException invalid(String key, String value, String allowed) {
        return new IllegalArgumentException(
                "invalid value '" + value + "' for json option '" + key + "'; allowed: " + allowed);
    }
}
