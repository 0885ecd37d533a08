package io.columnarkafka.format.json;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The changelog formats of Flink's flink-json that wrap a row written by Flink's JSON row writer in an envelope
 * saying whether it is added or removed, as Flink 2.2.1's serializers write them. Each writes INSERT and
 * UPDATE_AFTER as an addition and UPDATE_BEFORE and DELETE as a removal, and each envelope field other than the
 * row is never null:
 *
 * <ul>
 *   <li>{@code debezium-json} ({@code DebeziumJsonSerializationSchema}): {@code
 *       {"before":null,"after":{..},"op":"c"}}, {@code {"before":{..},"after":null,"op":"d"}};
 *   <li>{@code ogg-json} ({@code OggJsonSerializationSchema}): the same with {@code "op_type":"I"} / {@code "D"};
 *   <li>{@code canal-json} ({@code CanalJsonSerializationSchema}): {@code {"data":[{..}],"type":"INSERT"}} /
 *       {@code "DELETE"};
 *   <li>{@code maxwell-json} ({@code MaxwellJsonSerializationSchema}): {@code {"data":{..},"type":"insert"}} /
 *       {@code "delete"}.
 * </ul>
 *
 * With {@code encode.ignore-null-fields} the null side of a before/after envelope is left out, as Flink's row
 * writer leaves out any null field of the envelope row.
 */
public enum ChangelogEnvelope {
    DEBEZIUM("debezium-json", Shape.BEFORE_AFTER, "op", "c", "d", Set.of()),
    OGG("ogg-json", Shape.BEFORE_AFTER, "op_type", "I", "D", Set.of()),
    CANAL("canal-json", Shape.DATA_ARRAY, "type", "INSERT", "DELETE", Set.of("database.include", "table.include")),
    MAXWELL("maxwell-json", Shape.DATA, "type", "insert", "delete", Set.of());

    /** Where the row goes: before or after by kind, or always {@code data} (alone, or as a one-row array). */
    private enum Shape { BEFORE_AFTER, DATA, DATA_ARRAY }

    private final String identifier;
    private final Shape shape;
    private final String kindField;
    private final String added;
    private final String removed;
    /** The format's own deserialization-only options beside json's: accepted and without effect on bytes. */
    private final Set<String> decodeOnlyOptions;

    ChangelogEnvelope(String identifier, Shape shape, String kindField, String added, String removed,
            Set<String> decodeOnlyOptions) {
        this.identifier = identifier;
        this.shape = shape;
        this.kindField = kindField;
        this.added = added;
        this.removed = removed;
        this.decodeOnlyOptions = decodeOnlyOptions;
    }

    /** Flink's format identifier, e.g. {@code canal-json}. */
    public String identifier() {
        return identifier;
    }

    /** The envelope of Flink's format {@code identifier}, or null if it is not one of these. */
    public static ChangelogEnvelope of(String identifier) {
        for (ChangelogEnvelope envelope : values()) {
            if (envelope.identifier.equals(identifier)) {
                return envelope;
            }
        }
        return null;
    }

    /**
     * The JSON options of this format's options (Flink keys without the prefix; {@value
     * ChangelogJsonBatchEncoder#ROW_KIND_COLUMN} and the format's deserialization-only options are skipped).
     * debezium-json's {@code schema-include} must be false, as Flink's serializer requires.
     *
     * @throws IllegalArgumentException for an unknown option or value, or {@code schema-include=true}
     */
    public JsonFormatOptions jsonOptions(Map<String, String> options) {
        Map<String, String> json = new HashMap<>(options);
        json.remove(ChangelogJsonBatchEncoder.ROW_KIND_COLUMN);
        json.keySet().removeAll(decodeOnlyOptions);
        if (this == DEBEZIUM) {
            checkSchemaInclude(json.remove("schema-include"));
        }
        return JsonFormatOptions.fromMap(json);
    }

    private static void checkSchemaInclude(String schemaInclude) {
        if (schemaInclude != null && !schemaInclude.equalsIgnoreCase("false")) {
            if (schemaInclude.equalsIgnoreCase("true")) {
                throw new IllegalArgumentException("Debezium JSON serialization doesn't support"
                        + " 'debezium-json.schema-include' option been set to true.");
            }
            throw new IllegalArgumentException("debezium-json option 'schema-include' must be true or false");
        }
    }

    /** The bytes before the row object of an added ({@code added}) or removed row. */
    byte[] head(boolean added, boolean ignoreNulls) {
        return switch (shape) {
            case BEFORE_AFTER -> utf8(added ? (ignoreNulls ? "{\"after\":" : "{\"before\":null,\"after\":")
                    : "{\"before\":");
            case DATA -> utf8("{\"data\":");
            case DATA_ARRAY -> utf8("{\"data\":[");
        };
    }

    /** The bytes after the row object of an added ({@code added}) or removed row. */
    byte[] tail(boolean added, boolean ignoreNulls) {
        String kind = ",\"" + kindField + "\":\"" + (added ? this.added : this.removed) + "\"}";
        return switch (shape) {
            case BEFORE_AFTER -> utf8(added || ignoreNulls ? kind : ",\"after\":null" + kind);
            case DATA -> utf8(kind);
            case DATA_ARRAY -> utf8("]" + kind);
        };
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
