package io.columnarkafka.format.json;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The decoding options of Flink's {@code canal-json} and {@code maxwell-json} formats (keys without the format
 * prefix), as {@code CanalJsonFormatFactory} and {@code MaxwellJsonFormatFactory} accept them, plus this
 * project's {@value ChangelogJsonBatchEncoder#ROW_KIND_COLUMN}.
 *
 * @param json the options of the JSON deserializer inside ({@code ignore-parse-errors}, {@code
 *     timestamp-format.standard}; Flink never sets {@code fail-on-missing-field} for it)
 * @param databaseInclude canal-json's {@code database.include}: only events whose {@code database} matches it
 *     whole; null for all
 * @param tableInclude canal-json's {@code table.include}, likewise for {@code table}
 * @param rowKindColumn the TINYINT column that receives each row's {@code RowKind.toByteValue()}
 */
public record DataOldDecodeOptions(JsonDecodeOptions json, Pattern databaseInclude, Pattern tableInclude,
        String rowKindColumn) {
    public static final String DATABASE_INCLUDE = "database.include";
    public static final String TABLE_INCLUDE = "table.include";

    /**
     * Reads the options of {@code events}' format.
     *
     * @throws IllegalArgumentException for a key the format does not have (e.g. {@code fail-on-missing-field},
     *     maxwell-json's {@code database.include}), an invalid value or pattern, or no {@value
     *     ChangelogJsonBatchEncoder#ROW_KIND_COLUMN}
     */
    public static DataOldDecodeOptions fromMap(DataOldEvents events, Map<String, String> options) {
        Map<String, String> json = new HashMap<>();
        Map<String, String> own = new HashMap<>();
        String rowKindColumn = BeforeAfterDecodeOptions.sortKeys(events.identifier, options,
                events.hasFilters() ? Set.of(DATABASE_INCLUDE, TABLE_INCLUDE) : Set.of(), json, own);
        return new DataOldDecodeOptions(JsonDecodeOptions.fromMap(json), pattern(events, own, DATABASE_INCLUDE),
                pattern(events, own, TABLE_INCLUDE), rowKindColumn);
    }

    /** Flink compiles the pattern when it builds the deserializer, and matches each event's text whole. */
    private static Pattern pattern(DataOldEvents events, Map<String, String> own, String key) {
        String regex = own.get(key);
        if (regex == null) {
            return null;
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid regular expression for " + events.identifier + " option '"
                    + key + "': " + e.getMessage(), e);
        }
    }
}
