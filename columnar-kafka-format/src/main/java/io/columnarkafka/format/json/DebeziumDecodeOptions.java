package io.columnarkafka.format.json;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The decoding options of Flink's {@code debezium-json} format (keys without the {@code debezium-json.}
 * prefix), as {@code DebeziumJsonFormatFactory} accepts them, plus this project's {@value
 * ChangelogJsonBatchEncoder#ROW_KIND_COLUMN}.
 *
 * @param json the options of the JSON deserializer inside ({@code ignore-parse-errors}, {@code
 *     timestamp-format.standard}; Flink never sets {@code fail-on-missing-field} for it)
 * @param schemaInclude {@code schema-include}: the change event is the {@code payload} field of the record
 * @param rowKindColumn the TINYINT column that receives each row's {@code RowKind.toByteValue()}
 */
public record DebeziumDecodeOptions(JsonDecodeOptions json, boolean schemaInclude, String rowKindColumn) {
    public static final String SCHEMA_INCLUDE = "schema-include";
    /** Flink's debezium-json keys besides {@value #SCHEMA_INCLUDE}; the {@code map-null-key.*} and
     * {@code encode.*} ones only serialize. */
    private static final Set<String> FLINK_KEYS = Set.of(JsonDecodeOptions.IGNORE_PARSE_ERRORS,
            JsonFormatOptions.TIMESTAMP_FORMAT, JsonFormatOptions.MAP_NULL_KEY_MODE,
            JsonFormatOptions.MAP_NULL_KEY_LITERAL, JsonFormatOptions.DECIMAL_AS_PLAIN_NUMBER,
            JsonFormatOptions.IGNORE_NULL_FIELDS);

    /**
     * Reads the options.
     *
     * @throws IllegalArgumentException for a key debezium-json does not have (e.g. {@code
     *     fail-on-missing-field}), an invalid value, or no {@value ChangelogJsonBatchEncoder#ROW_KIND_COLUMN}
     */
    public static DebeziumDecodeOptions fromMap(Map<String, String> options) {
        Map<String, String> json = new HashMap<>();
        boolean schemaInclude = false;
        String rowKindColumn = null;
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey();
            if (key.equals(SCHEMA_INCLUDE)) {
                schemaInclude = switch (e.getValue().toLowerCase(java.util.Locale.ROOT)) {
                    case "true" -> true;
                    case "false" -> false;
                    default -> throw new IllegalArgumentException("invalid value '" + e.getValue()
                            + "' for debezium-json option '" + SCHEMA_INCLUDE + "'; allowed: true, false");
                };
            } else if (key.equals(ChangelogJsonBatchEncoder.ROW_KIND_COLUMN)) {
                rowKindColumn = e.getValue();
            } else if (FLINK_KEYS.contains(key)) {
                json.put(key, e.getValue());
            } else {
                throw new IllegalArgumentException("unknown debezium-json option '" + key + "'; supported: "
                        + FLINK_KEYS + ", " + SCHEMA_INCLUDE + ", " + ChangelogJsonBatchEncoder.ROW_KIND_COLUMN);
            }
        }
        if (rowKindColumn == null || rowKindColumn.isEmpty()) {
            throw new IllegalArgumentException("debezium-json decoding needs option '"
                    + ChangelogJsonBatchEncoder.ROW_KIND_COLUMN + "': the name of the TINYINT column that receives"
                    + " each row's RowKind byte (0 +I, 1 -U, 2 +U, 3 -D)");
        }
        return new DebeziumDecodeOptions(JsonDecodeOptions.fromMap(json), schemaInclude, rowKindColumn);
    }
}
