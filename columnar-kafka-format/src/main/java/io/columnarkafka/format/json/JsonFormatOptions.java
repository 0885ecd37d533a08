package io.columnarkafka.format.json;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The serialization options of Flink's {@code json} format, with Flink's keys (without the {@code json.}
 * prefix), values and defaults.
 *
 * @param timestampFormat {@code timestamp-format.standard}: SQL (default) or ISO-8601
 * @param mapNullKeyMode {@code map-null-key.mode}: FAIL (default), DROP or LITERAL
 * @param mapNullKeyLiteral {@code map-null-key.literal}: the key written for a null key under LITERAL
 * @param decimalAsPlainNumber {@code encode.decimal-as-plain-number}
 * @param ignoreNullFields {@code encode.ignore-null-fields}
 */
public record JsonFormatOptions(
        TimestampFormat timestampFormat,
        MapNullKeyMode mapNullKeyMode,
        String mapNullKeyLiteral,
        boolean decimalAsPlainNumber,
        boolean ignoreNullFields)
        implements Serializable {

    public static final String TIMESTAMP_FORMAT = "timestamp-format.standard";
    public static final String MAP_NULL_KEY_MODE = "map-null-key.mode";
    public static final String MAP_NULL_KEY_LITERAL = "map-null-key.literal";
    public static final String DECIMAL_AS_PLAIN_NUMBER = "encode.decimal-as-plain-number";
    public static final String IGNORE_NULL_FIELDS = "encode.ignore-null-fields";
    /** Deserialization-only options of Flink's json format: accepted and without effect on bytes. */
    private static final Set<String> DESERIALIZATION_ONLY =
            Set.of("fail-on-missing-field", "ignore-parse-errors", "decode.json-parser.enabled");
    private static final Set<String> KEYS = Set.of(
            TIMESTAMP_FORMAT, MAP_NULL_KEY_MODE, MAP_NULL_KEY_LITERAL, DECIMAL_AS_PLAIN_NUMBER,
            IGNORE_NULL_FIELDS);

    public enum TimestampFormat { SQL, ISO_8601 }

    public enum MapNullKeyMode { FAIL, DROP, LITERAL }

    public JsonFormatOptions {
        if (timestampFormat == null || mapNullKeyMode == null || mapNullKeyLiteral == null) {
            throw new IllegalArgumentException("json options must not be null");
        }
    }

    /** Flink's defaults. */
    public static JsonFormatOptions defaults() {
        return new JsonFormatOptions(TimestampFormat.SQL, MapNullKeyMode.FAIL, "null", false, false);
    }

    /**
     * Reads options given as Flink's keys without the {@code json.} prefix.
     *
     * @throws IllegalArgumentException naming an unknown key or an invalid value
     */
    public static JsonFormatOptions fromMap(Map<String, String> options) {
        JsonFormatOptions o = defaults();
        TimestampFormat timestampFormat = o.timestampFormat;
        MapNullKeyMode mode = o.mapNullKeyMode;
        String literal = o.mapNullKeyLiteral;
        boolean plain = o.decimalAsPlainNumber;
        boolean ignoreNulls = o.ignoreNullFields;
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            switch (key) {
                case TIMESTAMP_FORMAT:
                    timestampFormat = switch (value.toUpperCase(Locale.ROOT)) {
                        case "SQL" -> TimestampFormat.SQL;
                        case "ISO-8601" -> TimestampFormat.ISO_8601;
                        default -> throw invalid(key, value, "SQL, ISO-8601");
                    };
                    break;
                case MAP_NULL_KEY_MODE:
                    try {
                        mode = MapNullKeyMode.valueOf(value.toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException ex) {
                        throw invalid(key, value, "FAIL, DROP, LITERAL");
                    }
                    break;
                case MAP_NULL_KEY_LITERAL:
                    literal = value;
                    break;
                case DECIMAL_AS_PLAIN_NUMBER:
                    plain = bool(key, value);
                    break;
                case IGNORE_NULL_FIELDS:
                    ignoreNulls = bool(key, value);
                    break;
                default:
                    if (!DESERIALIZATION_ONLY.contains(key)) {
                        throw new IllegalArgumentException(
                                "unknown json option '" + key + "'; supported: " + KEYS);
                    }
            }
        }
        return new JsonFormatOptions(timestampFormat, mode, literal, plain, ignoreNulls);
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
