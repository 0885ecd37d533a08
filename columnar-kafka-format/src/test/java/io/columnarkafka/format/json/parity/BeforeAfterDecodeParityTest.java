package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.json.BeforeAfterEvents;
import io.columnarkafka.format.json.ChangelogEnvelope;
import io.columnarkafka.format.parity.EdgeValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code debezium-json} and {@code ogg-json} decoder against Flink 2.2.1's {@code
 * DebeziumJsonDeserializationSchema} and {@code OggJsonDeserializationSchema} on the same bytes ({@link
 * FlinkBeforeAfterDecodeOracle}, {@link JsonDecodeCheck}): rows, their records and their row kinds. Flink reads
 * the change event with its tree JSON deserializer, whose coercions differ from the streaming one of {@code
 * json}; the json corpus's spellings in every field pin those differences. Events are written in Debezium's
 * spelling and respelled for Ogg ({@link #spell}).
 */
class BeforeAfterDecodeParityTest {
    private static final String KIND = "row_kind";
    private static final RowType SCALARS = JsonDecodeCorpusTest.SCALARS;
    private static final RowType SMALL = RowTypes.parse("ROW<id INT, name STRING, price DECIMAL(10, 2)>");

    static List<Arguments> options() {
        List<Arguments> arguments = new ArrayList<>();
        for (BeforeAfterEvents events : BeforeAfterEvents.values()) {
            arguments.add(Arguments.of(events, Map.of()));
            arguments.add(Arguments.of(events, Map.of("ignore-parse-errors", "true")));
            arguments.add(Arguments.of(events, Map.of("timestamp-format.standard", "ISO-8601")));
        }
        arguments.add(Arguments.of(BeforeAfterEvents.DEBEZIUM, Map.of("schema-include", "true")));
        arguments.add(Arguments.of(BeforeAfterEvents.DEBEZIUM,
                Map.of("schema-include", "true", "ignore-parse-errors", "true")));
        return arguments;
    }

    private static final Pattern DEBEZIUM_OP = Pattern.compile("\"op\":(\"[cud]\")?");

    /** A Debezium-spelled event in {@code events}' spelling: Ogg's {@code op_type} with I, U, D for c, u, d. */
    static String spell(BeforeAfterEvents events, String event) {
        if (events == BeforeAfterEvents.DEBEZIUM) {
            return event;
        }
        return DEBEZIUM_OP.matcher(event).replaceAll(m -> m.group(1) == null ? "\"op_type\":"
                : "\"op_type\":\"" + switch (m.group(1).charAt(1)) {
                    case 'c' -> "I";
                    case 'u' -> "U";
                    default -> "D";
                } + "\"");
    }

    private static Map<String, String> withKind(Map<String, String> options) {
        Map<String, String> o = new HashMap<>(options);
        o.put("row-kind.column", KIND);
        return o;
    }

    private static JsonDecodeCheck.Result check(BeforeAfterEvents events, RowType type, Map<String, String> options,
            List<byte[]> records) {
        Map<String, String> o = withKind(options);
        return JsonDecodeCheck.assertParity(events.identifier(), type, o, records,
                FlinkBeforeAfterDecodeOracle.of(events, type, o)::deserialize, KIND);
    }

    /**
     * The Debezium-spelled {@code event} in {@code events}' spelling as the record, or as its {@code payload} with
     * {@code schema-include}.
     */
    private static byte[] record(BeforeAfterEvents events, Map<String, String> options, String event) {
        boolean schemaInclude = "true".equals(options.get("schema-include"));
        String spelled = spell(events, event);
        return utf8(schemaInclude ? "{\"schema\":{\"type\":\"struct\",\"fields\":[]},\"payload\":" + spelled + "}"
                : spelled);
    }

    /** Each spelling of the json corpus in each field of both sides of an update, an insert and a delete. */
    @ParameterizedTest
    @MethodSource("options")
    void everySpellingInEveryFieldOfEveryOp(BeforeAfterEvents events, Map<String, String> options) {
        Map<String, String> valid = JsonDecodeCorpusTest.validValues(options);
        List<byte[]> records = new ArrayList<>();
        int i = 0;
        for (String field : SCALARS.getFieldNames()) {
            for (String value : JsonDecodeCorpusTest.VALUES) {
                String row = rowWith(field, value, valid);
                String event = switch (i++ % 3) {
                    case 0 -> "{\"before\":" + row + ",\"after\":" + row + ",\"op\":\"u\"}";
                    case 1 -> "{\"before\":null,\"after\":" + row + ",\"op\":\"c\"}";
                    default -> "{\"before\":" + row + ",\"after\":null,\"op\":\"d\"}";
                };
                records.add(record(events, options, event));
            }
        }
        JsonDecodeCheck.Result result = check(events, SCALARS, options, records);
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThan(records.size() / 3);
        assertThat(result.recordsRejected()).as("records rejected")
                .isGreaterThan(options.containsKey("ignore-parse-errors") ? -1 : records.size() / 10);
    }

    /** A row object of {@code field} spelled {@code value} and the other fields' {@code valid} values. */
    static String rowWith(String field, String value, Map<String, String> valid) {
        StringBuilder row = new StringBuilder("{\"").append(field).append("\":").append(value);
        valid.forEach((other, v) -> {
            if (!other.equals(field)) {
                row.append(",\"").append(other).append("\":").append(v);
            }
        });
        return row.append('}').toString();
    }

    /** The envelope itself: ops, missing and null sides, tombstones, structure, repeats, malformed JSON. */
    @ParameterizedTest
    @MethodSource("options")
    void envelopes(BeforeAfterEvents events, Map<String, String> options) {
        String row = "{\"id\":1,\"name\":\"a\",\"price\":1.5}";
        String row2 = "{\"id\":2,\"name\":\"b\",\"price\":\"2.25\"}";
        List<String> changes = List.of(
                "{\"before\":null,\"after\":" + row + ",\"op\":\"c\"}",
                "{\"before\":null,\"after\":" + row + ",\"op\":\"r\"}",
                "{\"before\":" + row + ",\"after\":" + row2 + ",\"op\":\"u\"}",
                "{\"before\":" + row + ",\"after\":null,\"op\":\"d\"}",
                "{\"op\":\"u\",\"after\":" + row2 + ",\"before\":" + row + "}",
                "{\"after\":" + row + ",\"op\":\"c\",\"source\":{\"db\":\"x\",\"table\":\"t\"},\"ts_ms\":1,"
                        + "\"transaction\":null}",
                // what Debezium leaves out or nulls
                "{\"before\":null,\"after\":" + row2 + ",\"op\":\"u\"}",
                "{\"after\":" + row2 + ",\"op\":\"u\"}",
                "{\"before\":null,\"after\":null,\"op\":\"d\"}",
                "{\"op\":\"d\"}",
                "{\"before\":null,\"after\":null,\"op\":\"c\"}",
                "{\"before\":" + row + ",\"op\":\"u\"}",
                "{\"before\":" + row + ",\"after\":" + row2 + "}",
                "{\"before\":" + row + ",\"after\":" + row2 + ",\"op\":null}",
                // unknown and odd ops
                "{\"after\":" + row + ",\"op\":\"x\"}", "{\"after\":" + row + ",\"op\":\"C\"}",
                "{\"after\":" + row + ",\"op\":\"\"}", "{\"after\":" + row + ",\"op\":\"cc\"}",
                "{\"after\":" + row + ",\"op\":\"\\u0063\"}", "{\"after\":" + row + ",\"op\":5}",
                "{\"after\":" + row + ",\"op\":true}", "{\"after\":" + row + ",\"op\":{\"c\":1}}",
                "{\"after\":" + row + ",\"op\":[\"c\"]}", "{\"after\":" + row + ",\"op\":\"t\"}",
                // sides that are not objects, used or not
                "{\"before\":5,\"after\":" + row + ",\"op\":\"c\"}",
                "{\"before\":[1],\"after\":" + row + ",\"op\":\"c\"}",
                "{\"before\":" + row + ",\"after\":\"x\",\"op\":\"d\"}",
                "{\"before\":" + row + ",\"after\":[],\"op\":\"u\"}",
                "{\"before\":true,\"after\":" + row + ",\"op\":\"u\"}",
                // a side whose field fails, used or not
                "{\"before\":{\"id\":\"x\"},\"after\":" + row + ",\"op\":\"c\"}",
                "{\"before\":" + row + ",\"after\":{\"price\":{}},\"op\":\"d\"}",
                "{\"before\":{\"id\":1.5e99},\"after\":" + row + ",\"op\":\"u\"}",
                // repeated envelope and row fields: the last wins
                "{\"before\":" + row2 + ",\"before\":" + row + ",\"after\":" + row + ",\"op\":\"d\"}",
                "{\"after\":" + row + ",\"op\":\"x\",\"op\":\"c\"}", "{\"after\":" + row + ",\"op\":\"c\",\"op\":\"x\"}",
                "{\"after\":" + row + ",\"op\":\"c\",\"op\":null}",
                "{\"before\":null,\"after\":{\"id\":\"x\",\"id\":3},\"op\":\"c\"}",
                "{\"before\":null,\"after\":{\"id\":3,\"id\":\"x\"},\"op\":\"c\"}",
                "{\"before\":null,\"after\":{\"id\":3,\"name\":\"n\",\"price\":1,\"id\":4,\"name\":\"m\"},\"op\":\"c\"}",
                "{\"after\":" + row + ",\"after\":null,\"op\":\"c\"}",
                "{\"after\":" + row + ",\"payload\":{\"op\":\"d\"},\"op\":\"c\"}",
                // unknown fields of every shape, empty rows, nested sides
                "{\"x\":[{\"y\":[1,{}]}],\"after\":{},\"op\":\"c\",\"z\":\"\\u00e9\"}",
                "{\"after\":{\"extra\":{\"id\":9},\"id\":5},\"op\":\"r\"}",
                // a float whose exponent overflows a BigDecimal (the row holds a DECIMAL): Jackson's tree fails on it
                // anywhere in the record
                "{\"before\":null,\"after\":" + row + ",\"op\":\"c\",\"x\":1e99999999999}",
                "{\"after\":{\"id\":1,\"y\":[1e99999999999]},\"op\":\"c\"}",
                "{\"after\":" + row + ",\"op\":\"c\",\"x\":{\"z\":-2.5E+1234567890}}",
                "{\"after\":" + row + ",\"op\":\"c\",\"x\":1e999999999}");
        List<byte[]> records = new ArrayList<>();
        for (String event : changes) {
            records.add(record(events, options, event));
        }
        // whole records
        for (String whole : List.of("", " ", "null", "1", "\"c\"", "[]", "[null]", "[1]",
                "{\"before\":null,\"after\":" + row + ",\"op\":\"c\"} trailing", "{\"after\":" + row + ",\"op\":\"c\"}}",
                "[{\"after\":" + row + ",\"op\":\"c\"}]",
                "[{\"after\":" + row + ",\"op\":\"c\"},{\"after\":" + row + ",\"op\":\"c\"}]",
                "{\"after\":" + row + ",\"op\":\"c\"", "{\"after\":" + row + ",\"op\":\"c\",}",
                "{\"after\":" + row + ",\"op\" \"c\"}", "{\"after\":{\"id\":1,},\"op\":\"c\"}",
                "{\"after\":" + row + ",\"op\":\"c\",\"junk\":tru}",
                "{\"payload\":{\"after\":" + row + ",\"op\":\"c\"}}",
                "{\"payload\":null,\"after\":" + row + ",\"op\":\"c\"}",
                "{\"payload\":5,\"after\":" + row + ",\"op\":\"c\"}",
                "{\"payload\":{\"after\":" + row + ",\"op\":\"c\"},\"payload\":{\"before\":" + row + ",\"op\":\"d\"}}",
                "{\"payload\":{\"after\":" + row + ",\"op\":\"c\"},\"payload\":null}",
                "{\"schema\":null,\"payload\":[{\"after\":" + row + ",\"op\":\"c\"}]}")) {
            records.add(utf8(spell(events, whole)));
        }
        records.add(null);
        JsonDecodeCheck.Result result = check(events, SMALL, options, records);
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(5);
        boolean ignore = options.containsKey("ignore-parse-errors");
        assertThat(result.recordsRejected()).as("records rejected").isGreaterThan(ignore ? -1 : 20);
    }

    /**
     * A record with two faults, a value that fails in one side and the other side missing, null or not an object:
     * Flink converts both sides before it looks for them, so the value's field is the error. Each record on its
     * own, as only a batch's first rejected record's error is compared.
     */
    @ParameterizedTest
    @EnumSource(BeforeAfterEvents.class)
    void aFailingValueIsTheErrorBeforeAMissingSide(BeforeAfterEvents events) {
        String row = "{\"id\":1,\"name\":\"a\",\"price\":1.5}";
        for (String event : List.of("{\"before\":{\"id\":\"x\"},\"op\":\"u\"}",
                "{\"before\":{\"id\":\"x\"},\"after\":null,\"op\":\"u\"}",
                "{\"before\":null,\"after\":{\"price\":{}},\"op\":\"u\"}",
                "{\"after\":{\"id\":\"x\"},\"op\":\"u\"}",
                "{\"before\":{\"name\":[]},\"after\":5,\"op\":\"u\"}",
                "{\"before\":[1],\"after\":{\"id\":\"x\"},\"op\":\"u\"}",
                "{\"before\":" + row + ",\"after\":{\"id\":\"x\"},\"op\":\"u\"}",
                "{\"after\":{\"id\":\"x\"},\"op\":\"d\"}", "{\"before\":{\"id\":\"x\"},\"op\":\"c\"}")) {
            JsonDecodeCheck.Result result = check(events, SMALL, Map.of(), List.of(record(events, Map.of(), event)));
            assertThat(result.recordsRejected()).as("rejected by Flink: %s", event).isEqualTo(1);
        }
    }

    /** The json corpus's nested records (ROW, ARRAY, MAP, MULTISET at every level) as both sides of updates. */
    @ParameterizedTest
    @MethodSource("options")
    void nestedTypes(BeforeAfterEvents events, Map<String, String> options) {
        for (JsonDecodeCorpusTest.RecordsCase c : JsonDecodeCorpusTest.NESTED_RECORDS) {
            List<byte[]> records = new ArrayList<>();
            for (String r : c.records()) {
                records.add(record(events, options, "{\"before\":" + r + ",\"after\":" + r + ",\"op\":\"u\"}"));
                records.add(record(events, options, "{\"after\":" + r + ",\"op\":\"r\"}"));
            }
            JsonDecodeCheck.Result result = check(events, c.type(), options, records);
            assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(c.records().size() / 3);
        }
    }

    /** Every row kind of the encoders' edge rows, written by Flink's own serializer, read back with its kind. */
    @ParameterizedTest
    @EnumSource(BeforeAfterEvents.class)
    void recordsFlinkWroteForEveryRowKind(BeforeAfterEvents events) {
        everyRowKindFlinkWrote(ChangelogEnvelope.of(events.identifier()),
                (type, options, records) -> check(events, type, options, records));
    }

    /** A decode parity check of {@code records} of {@code type} under the decoding {@code options}. */
    interface DecodeCheck {
        JsonDecodeCheck.Result check(RowType type, Map<String, String> options, List<byte[]> records);
    }

    /**
     * The encoders' edge rows of a 13-column row, cycling through every row kind, as Flink's serializer of {@code
     * envelope} writes them under three option sets, given to {@code check} with the matching decoding options:
     * every record must be one row, none rejected.
     */
    static void everyRowKindFlinkWrote(ChangelogEnvelope envelope, DecodeCheck check) {
        RowType type = RowTypes.parse("ROW<b BOOLEAN, i INT, bi BIGINT, f FLOAT, d DOUBLE, dc DECIMAL(10, 2),"
                + " s STRING, bin BYTES, dt DATE, tm TIME(3), ts TIMESTAMP(3), ts6 TIMESTAMP(6),"
                + " ltz TIMESTAMP_LTZ(3)>");
        for (Map<String, String> options : List.of(Map.<String, String>of(),
                Map.of("timestamp-format.standard", "ISO-8601", "encode.decimal-as-plain-number", "true"),
                Map.of("encode.ignore-null-fields", "true"))) {
            SerializationSchema<RowData> flink = ChangelogJsonOracle.open(envelope, type, options);
            List<byte[]> records = new ArrayList<>();
            RowKind[] kinds = RowKind.values();
            int i = 0;
            for (RowData row : EdgeValues.cyclingRows(type)) {
                ((GenericRowData) row).setRowKind(kinds[i++ % kinds.length]);
                records.add(flink.serialize(row));
            }
            Map<String, String> decode = new HashMap<>(options);
            decode.keySet().removeAll(List.of("encode.decimal-as-plain-number", "encode.ignore-null-fields"));
            JsonDecodeCheck.Result result = check.check(type, decode, records);
            assertThat(result.rowsCompared()).as("every record Flink wrote is one row").isEqualTo(records.size());
            assertThat(result.recordsRejected()).isZero();
        }
    }

    @Test
    void optionsAsFlinksFactoryTakesThem() {
        assertThatThrownBy(() -> Formats.decoder("debezium-json", SMALL, Map.of()))
                .hasMessageContaining("row-kind.column");
        assertThatThrownBy(() -> Formats.decoder("debezium-json", SMALL, withKind(Map.of("fail-on-missing-field", "true"))))
                .hasMessageContaining("unknown debezium-json option 'fail-on-missing-field'");
        assertThatThrownBy(() -> Formats.decoder("ogg-json", SMALL, withKind(Map.of("schema-include", "false"))))
                .hasMessageContaining("unknown ogg-json option 'schema-include'");
        assertThatThrownBy(() -> Formats.decoder("debezium-json", SMALL, Map.of("row-kind.column", "id")))
                .hasMessageContaining("also a field");
        assertThatThrownBy(() -> Formats.decoder("debezium-json", SMALL, withKind(Map.of("schema-include", "yes"))))
                .hasMessageContaining("schema-include");
        var decoder = Formats.decoder("debezium-json", SMALL, withKind(Map.of("map-null-key.mode", "LITERAL",
                "map-null-key.literal", "n", "encode.decimal-as-plain-number", "true",
                "encode.ignore-null-fields", "true")));
        assertThat(decoder.rowType().getFieldNames()).containsExactly("id", "name", "price", KIND);
        assertThat(decoder.rowType().getTypeAt(3).asSummaryString()).isEqualTo("TINYINT NOT NULL");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
