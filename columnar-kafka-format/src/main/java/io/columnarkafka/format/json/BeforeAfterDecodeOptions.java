package io.columnarkafka.format.json;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The decoding options of Flink's {@code debezium-json} and {@code ogg-json} formats (keys without the format
 * prefix), as {@code DebeziumJsonFormatFactory} and {@code OggJsonFormatFactory} accept them, plus this
 * project's {@value ChangelogJsonBatchEncoder#ROW_KIND_COLUMN}.
 *
 * @param json the options of the JSON deserializer inside ({@code ignore-parse-errors}, {@code
 *     timestamp-format.standard}; Flink never sets {@code fail-on-missing-field} for it)
 * @param schemaInclude debezium-json's {@code schema-include}: the change event is the record's {@code payload}
 * @param rowKindColumn the TINYINT column that receives each row's {@code RowKind.toByteValue()}
 */
public record BeforeAfterDecodeOptions(JsonDecodeOptions json, boolean schemaInclude, String rowKindColumn) {
    public static final String SCHEMA_INCLUDE = "schema-include";
    /** The formats' keys besides {@value #SCHEMA_INCLUDE}; {@code map-null-key.*} and {@code encode.*} only serialize. */
    private static final Set<String> FLINK_KEYS = Set.of(JsonDecodeOptions.IGNORE_PARSE_ERRORS,
            JsonFormatOptions.TIMESTAMP_FORMAT, JsonFormatOptions.MAP_NULL_KEY_MODE,
            JsonFormatOptions.MAP_NULL_KEY_LITERAL, JsonFormatOptions.DECIMAL_AS_PLAIN_NUMBER,
            JsonFormatOptions.IGNORE_NULL_FIELDS);

    /**
     * Reads the options of {@code events}' format.
     *
     * @throws IllegalArgumentException for a key the format does not have (e.g. {@code fail-on-missing-field},
     *     ogg-json's {@code schema-include}), an invalid value, or no {@value ChangelogJsonBatchEncoder#ROW_KIND_COLUMN}
     */
    public static BeforeAfterDecodeOptions fromMap(BeforeAfterEvents events, Map<String, String> options) {
        Map<String, String> json = new HashMap<>();
        Map<String, String> own = new HashMap<>();
        String rowKindColumn = sortKeys(events.identifier, options,
                events.hasSchemaInclude ? Set.of(SCHEMA_INCLUDE) : Set.of(), json, own);
        boolean schemaInclude = false;
        String value = own.get(SCHEMA_INCLUDE);
        if (value != null) {
            schemaInclude = switch (value.toLowerCase(java.util.Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException("invalid value '" + value
                        + "' for " + events.identifier + " option '" + SCHEMA_INCLUDE + "'; allowed: true, false");
            };
        }
        return new BeforeAfterDecodeOptions(JsonDecodeOptions.fromMap(json), schemaInclude, rowKindColumn);
    }

    /**
     * Sorts the options of a changelog JSON format {@code identifier} (keys without its prefix), as every such
     * decoder reads them: the JSON deserializer's keys into {@code json}, the format's {@code ownKeys} into
     * {@code own}; returns the {@value ChangelogJsonBatchEncoder#ROW_KIND_COLUMN}.
     *
     * @throws IllegalArgumentException for a key the format does not have, or no row-kind column
     */
    static String sortKeys(String identifier, Map<String, String> options, Set<String> ownKeys,
            Map<String, String> json, Map<String, String> own) {
        String rowKindColumn = null;
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey();
            if (ownKeys.contains(key)) {
                own.put(key, e.getValue());
            } else if (key.equals(ChangelogJsonBatchEncoder.ROW_KIND_COLUMN)) {
                rowKindColumn = e.getValue();
            } else if (FLINK_KEYS.contains(key)) {
                json.put(key, e.getValue());
            } else {
                throw new IllegalArgumentException("unknown " + identifier + " option '" + key + "'; supported: "
                        + FLINK_KEYS + (ownKeys.isEmpty() ? "" : ", " + String.join(", ", new java.util.TreeSet<>(ownKeys)))
                        + ", " + ChangelogJsonBatchEncoder.ROW_KIND_COLUMN);
            }
        }
        if (rowKindColumn == null || rowKindColumn.isEmpty()) {
            throw new IllegalArgumentException(identifier + " decoding needs option '"
                    + ChangelogJsonBatchEncoder.ROW_KIND_COLUMN + "': the name of the TINYINT column that receives"
                    + " each row's RowKind byte (0 +I, 1 -U, 2 +U, 3 -D)");
        }
        return rowKindColumn;
    }
}
