package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.json.ChangelogEnvelope;
import io.columnarkafka.format.json.DataOldEvents;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code canal-json} and {@code maxwell-json} decoder against Flink 2.2.1's {@code
 * CanalJsonDeserializationSchema} and {@code MaxwellJsonDeserializationSchema} on the same bytes ({@link
 * FlinkDataOldDecodeOracle}, {@link JsonDecodeCheck}): rows, their records and their row kinds, and which records
 * Flink rejects or skips. Events are built by {@link #event}: Canal's {@code data} and {@code old} are arrays of
 * rows and its types upper case, Maxwell's one row each and lower case.
 */
class DataOldDecodeParityTest {
    private static final String KIND = "row_kind";
    private static final RowType SCALARS = JsonDecodeCorpusTest.SCALARS;
    private static final RowType SMALL = RowTypes.parse("ROW<id INT, name STRING, price DECIMAL(10, 2)>");
    private static final String ROW = "{\"id\":1,\"name\":\"a\",\"price\":1.5}";
    private static final String ROW2 = "{\"id\":2,\"name\":\"b\",\"price\":\"2.25\"}";

    static List<Arguments> options() {
        List<Arguments> arguments = new ArrayList<>();
        for (DataOldEvents events : DataOldEvents.values()) {
            arguments.add(Arguments.of(events, Map.of()));
            arguments.add(Arguments.of(events, Map.of("ignore-parse-errors", "true")));
            arguments.add(Arguments.of(events, Map.of("timestamp-format.standard", "ISO-8601")));
        }
        arguments.add(Arguments.of(DataOldEvents.CANAL, Map.of("database.include", "db.*")));
        arguments.add(Arguments.of(DataOldEvents.CANAL, Map.of("table.include", "t1|orders_[0-9]+",
                "ignore-parse-errors", "true")));
        arguments.add(Arguments.of(DataOldEvents.CANAL, Map.of("database.include", "db1", "table.include", "t.*")));
        return arguments;
    }

    /**
     * An event of {@code events}' format: {@code type} (upper case, lower-cased for Maxwell; null: no field),
     * the rows of {@code data} and {@code old} (Canal: an array of them; Maxwell: the first alone; null: no field),
     * then {@code extra} envelope fields; Canal's carry {@code database} db1 and {@code table} t1.
     */
    static String event(DataOldEvents events, String type, List<String> data, List<String> old, String extra) {
        StringBuilder b = new StringBuilder("{");
        if (data != null) {
            b.append("\"data\":").append(rows(events, data)).append(',');
        }
        if (events == DataOldEvents.CANAL) {
            b.append("\"database\":\"db1\",\"table\":\"t1\",\"es\":1589373560000,\"id\":9,\"isDdl\":false,");
        } else {
            b.append("\"database\":\"db1\",\"table\":\"t1\",\"ts\":1589373560,\"xid\":8,");
        }
        if (old != null) {
            b.append("\"old\":").append(rows(events, old)).append(',');
        }
        if (type != null) {
            b.append("\"type\":\"").append(events == DataOldEvents.CANAL ? type : type.toLowerCase()).append("\",");
        }
        if (extra != null) {
            b.append(extra).append(',');
        }
        b.setLength(b.length() - 1);
        return b.append('}').toString();
    }

    private static String rows(DataOldEvents events, List<String> rows) {
        return events == DataOldEvents.CANAL ? "[" + String.join(",", rows) + "]" : rows.get(0);
    }

    private static Map<String, String> withKind(Map<String, String> options) {
        Map<String, String> o = new HashMap<>(options);
        o.put("row-kind.column", KIND);
        return o;
    }

    static JsonDecodeCheck.Result check(DataOldEvents events, RowType type, Map<String, String> options,
            List<byte[]> records) {
        Map<String, String> o = withKind(options);
        return JsonDecodeCheck.assertParity(events.identifier(), type, o, records,
                FlinkDataOldDecodeOracle.of(events, type, o)::deserialize, KIND);
    }

    /** Each spelling of the json corpus in each field of the rows of an update (data and old), an insert and a delete. */
    @ParameterizedTest
    @MethodSource("options")
    void everySpellingInEveryFieldOfEveryType(DataOldEvents events, Map<String, String> options) {
        Map<String, String> valid = JsonDecodeCorpusTest.validValues(options);
        List<byte[]> records = new ArrayList<>();
        int i = 0;
        for (String field : SCALARS.getFieldNames()) {
            for (String value : JsonDecodeCorpusTest.VALUES) {
                String r = BeforeAfterDecodeParityTest.rowWith(field, value, valid);
                String changed = "{\"" + field + "\":" + value + "}";
                String event = switch (i++ % 4) {
                    case 0 -> event(events, "UPDATE", List.of(r), List.of(changed), null);
                    case 1 -> event(events, "UPDATE", List.of(r), List.of(r), null);
                    case 2 -> event(events, "INSERT", List.of(r), null, null);
                    default -> event(events, "DELETE", List.of(r), null, null);
                };
                records.add(utf8(event));
            }
        }
        JsonDecodeCheck.Result result = check(events, SCALARS, options, records);
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThan(records.size() / 3);
        assertThat(result.recordsRejected()).as("records rejected")
                .isGreaterThan(options.containsKey("ignore-parse-errors") ? -1 : records.size() / 10);
    }

    /** The envelope: types, multi-row data, old's keys, missing and null parts, DDL, structure, repeats, malformed JSON. */
    @ParameterizedTest
    @MethodSource("options")
    void envelopes(DataOldEvents events, Map<String, String> options) {
        List<String> changes = new ArrayList<>();
        boolean canal = events == DataOldEvents.CANAL;
        changes.add(event(events, "INSERT", List.of(ROW), null, null));
        changes.add(event(events, "DELETE", List.of(ROW2), null, null));
        changes.add(event(events, "UPDATE", List.of(ROW2), List.of("{\"id\":1,\"name\":\"a\"}"), null));
        // old's keys: null values, none, nested or in another row, escaped, unknown, failing
        for (String old : List.of("{\"name\":\"a\"}", "{\"name\":null}", "{}", "{\"price\":0.5,\"x\":1}",
                "{\"x\":{\"id\":7}}", "{\"x\":[{\"name\":\"z\"}]}", "{\"\\u006eame\":\"e\"}", "{\"ID\":5}",
                "{\"id\":\"x\"}", "{\"id\":null,\"id\":3}", "{\"price\":{}}", "{\"name\":{\"k\":1}}")) {
            changes.add(event(events, "UPDATE", List.of(ROW2), List.of(old), null));
        }
        // data rows with failing and unknown fields, empty rows
        changes.add(event(events, "INSERT", List.of("{\"id\":\"x\"}"), null, null));
        changes.add(event(events, "INSERT", List.of("{}"), null, null));
        changes.add(event(events, "DELETE", List.of("{\"extra\":{\"id\":9},\"id\":5}"), null, null));
        changes.add(event(events, "UPDATE", List.of("{\"id\":1.5e99}"), List.of("{\"name\":\"a\"}"), null));
        // an old or data that does not fail where it is not used, and does
        changes.add(event(events, "INSERT", List.of(ROW), List.of("{\"id\":\"x\"}"), null));
        changes.add(event(events, "DELETE", List.of(ROW), List.of("{\"price\":[1]}"), null));
        // what is missing, null or of the wrong shape
        changes.add(event(events, "UPDATE", List.of(ROW2), null, null));
        changes.add(event(events, "UPDATE", List.of(ROW2), null, "\"old\":null"));
        changes.add(event(events, "UPDATE", null, List.of(ROW), null));
        changes.add(event(events, "INSERT", null, null, null));
        changes.add(event(events, "INSERT", null, null, "\"data\":null"));
        changes.add(event(events, "DELETE", null, null, "\"data\":5"));
        changes.add(event(events, "INSERT", null, null, "\"data\":\"x\""));
        changes.add(event(events, "INSERT", null, null, canal ? "\"data\":{\"id\":1}" : "\"data\":[" + ROW + "]"));
        changes.add(event(events, "UPDATE", List.of(ROW2), null, canal ? "\"old\":{\"id\":1}" : "\"old\":[" + ROW + "]"));
        changes.add(event(events, "INSERT", List.of(ROW), null, canal ? "\"old\":{\"id\":1}" : "\"old\":[" + ROW + "]"));
        changes.add(event(events, "UPDATE", List.of(ROW2), null, "\"old\":7"));
        changes.add(event(events, null, List.of(ROW), null, null));
        changes.add(event(events, null, List.of(ROW), null, "\"type\":null"));
        // unknown and odd types
        for (String type : List.of("\"ALTER\"", "\"ERASE\"", "\"QUERY\"", "\"TRUNCATE\"", "\"table-create\"",
                "\"bootstrap-insert\"", "\"insert\"", "\"INSERT\"", "\"Insert\"", "\"\"", "5", "true",
                "{\"t\":1}", "[\"INSERT\"]", "\"\\u0049NSERT\"", "\"\\u0069nsert\"", "\"INSERT \"")) {
            changes.add(event(events, null, List.of(ROW), null, "\"type\":" + type));
        }
        // DDL (Canal's CREATE): skipped, after its data and old are converted
        changes.add(event(events, "CREATE", null, null, "\"isDdl\":true,\"sql\":\"CREATE TABLE t1 (id INT)\""));
        changes.add(event(events, "CREATE", List.of(ROW), null, null));
        changes.add(event(events, "CREATE", List.of("{\"id\":\"x\"}"), null, null));
        changes.add(event(events, "CREATE", null, null, "\"data\":5"));
        changes.add(event(events, "CREATE", List.of(ROW), List.of("{\"price\":\"p\"}"), null));
        // repeated envelope fields: the last wins
        changes.add(event(events, "DELETE", List.of(ROW), null, "\"type\":\"INSERT\"".replace("INSERT",
                canal ? "INSERT" : "insert")));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"data\":null"));
        changes.add(event(events, "INSERT", null, null, "\"data\":null,\"data\":" + rows(events, List.of(ROW2))));
        changes.add(event(events, "UPDATE", List.of(ROW2), List.of("{\"id\":5}"), "\"old\":" + rows(events,
                List.of("{\"name\":\"o\"}"))));
        // filters: database and table, present or not, of other shapes
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"database\":\"db2\""));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"database\":\"xdb1\""));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"database\":\"DB1\""));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"table\":\"orders_12\""));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"table\":\"orders_\""));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"table\":\"t1\\n\""));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"database\":null"));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"database\":5"));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"database\":1.0,\"table\":1e1"));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"database\":{\"db1\":1}"));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"table\":[\"t1\"]"));
        changes.add(event(events, "INSERT", List.of("{\"id\":\"x\"}"), null, "\"database\":\"other\""));
        changes.add("{\"data\":[" + ROW + "],\"type\":\"INSERT\"}");
        changes.add("{\"data\":[" + ROW + "],\"table\":\"t1\",\"type\":\"INSERT\"}");
        changes.add("{\"data\":[" + ROW + "],\"database\":\"db1\",\"type\":\"INSERT\"}");
        // unknown fields of every shape
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"x\":[{\"y\":[1,{}]}],\"z\":\"\\u00e9\",\"n\":null"));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"big\":1e99999999999,\"long\":123456789012345678901234567890"));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"big\":-1.5E+9999999999"));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"big\":[{\"b\":1e-99999999999}]"));
        changes.add(event(events, "INSERT", List.of(ROW), null, "\"small\":1e999999999"));
        changes.add(event(events, "INSERT", List.of("{\"id\":1,\"x\":1e99999999999}"), null, null));
        changes.add(event(events, "UPDATE", List.of(ROW), List.of("{\"x\":[1e99999999999]}"), null));
        changes.add(event(events, "CREATE", null, null, "\"type\":1e99999999999"));
        if (canal) {
            // many rows: each one, with old's rows at the same index; fewer old rows; null and odd rows
            changes.add(event(events, "INSERT", List.of(ROW, ROW2, "{\"id\":3}"), null, null));
            changes.add(event(events, "INSERT", List.of(), null, null));
            changes.add(event(events, "DELETE", List.of(ROW, "null", ROW2), null, null));
            changes.add(event(events, "INSERT", List.of(ROW, "5", ROW2), null, null));
            changes.add(event(events, "INSERT", List.of(ROW, "[]"), null, null));
            changes.add(event(events, "UPDATE", List.of(ROW, ROW2), List.of("{\"name\":\"x\"}", "{\"id\":8}"), null));
            changes.add(event(events, "UPDATE", List.of(ROW, ROW2), List.of("{\"name\":\"x\"}"), null));
            changes.add(event(events, "UPDATE", List.of(ROW, ROW2), List.of("{\"name\":\"x\"}", "null"), null));
            changes.add(event(events, "UPDATE", List.of(ROW, "null"), List.of("{\"name\":\"x\"}", "{}"), null));
            changes.add(event(events, "UPDATE", List.of(ROW), List.of("{\"name\":\"x\"}", "{\"id\":\"bad\"}"), null));
            changes.add(event(events, "UPDATE", List.of(ROW), List.of("{\"name\":\"x\"}", "{\"price\":1}"), null));
            changes.add(event(events, "UPDATE", List.of(ROW), List.of("{\"name\":\"x\"}", "3"), null));
            changes.add(event(events, "UPDATE", List.of(), List.of("{\"id\":\"bad\"}"), null));
            changes.add(event(events, "UPDATE", List.of(), null, null));
            changes.add(event(events, "UPDATE", List.of(ROW), List.of(), null));
            changes.add(event(events, "UPDATE", List.of(ROW, ROW2), List.of("{}", "{}"), null));
        }
        List<byte[]> records = new ArrayList<>();
        for (String change : changes) {
            records.add(utf8(change));
        }
        String insert = event(events, "INSERT", List.of(ROW), null, null);
        for (String whole : List.of("", " ", "null", "1", "\"x\"", "[]", "[null]", "[1]", insert + " trailing",
                insert + "}", "[" + insert + "]", "[" + insert + "," + insert + "]", insert.substring(0, insert.length() - 1),
                insert.replace("}", ",}"), insert.replace("\"type\":", "\"type\" "), insert.replace("\"id\":1,", "\"id\":1,,"),
                insert.replace("1.5", "1.5.1"), insert.replace("}", ",\"junk\":tru}"))) {
            records.add(utf8(whole));
        }
        records.add(null);
        JsonDecodeCheck.Result result = check(events, SMALL, options, records);
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(10);
        boolean ignore = options.containsKey("ignore-parse-errors");
        assertThat(result.recordsRejected()).as("records rejected").isGreaterThan(ignore ? -1 : 20);
    }

    /** The json corpus's nested records (ROW, ARRAY, MAP, MULTISET at every level) as data and old of updates and inserts. */
    @ParameterizedTest
    @MethodSource("options")
    void nestedTypes(DataOldEvents events, Map<String, String> options) {
        for (JsonDecodeCorpusTest.RecordsCase c : JsonDecodeCorpusTest.NESTED_RECORDS) {
            List<byte[]> records = new ArrayList<>();
            String previous = "{}";
            for (String r : c.records()) {
                records.add(utf8(event(events, "UPDATE", List.of(r), List.of(previous), null)));
                records.add(utf8(event(events, "INSERT", List.of(r), null, null)));
                previous = r;
            }
            JsonDecodeCheck.Result result = check(events, c.type(), options, records);
            assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(c.records().size() / 3);
        }
    }

    /** Every row kind of the encoders' edge rows, written by Flink's own serializer, read back with its kind. */
    @ParameterizedTest
    @EnumSource(DataOldEvents.class)
    void recordsFlinkWroteForEveryRowKind(DataOldEvents events) {
        BeforeAfterDecodeParityTest.everyRowKindFlinkWrote(ChangelogEnvelope.of(events.identifier()),
                (type, options, records) -> check(events, type, options, records));
    }

    /**
     * A record that fails twice, in a value or shape of {@code data} or {@code old} and in its type or in a row the
     * operation cannot collect: Flink converts all of {@code data}, then all of {@code old}, before it collects a
     * row or looks at {@code type}, so its error names the field of the first value that failed there. Each record
     * is checked alone (a batch compares the field of its first rejected record only).
     */
    @ParameterizedTest
    @EnumSource(DataOldEvents.class)
    void aRecordFailingTwiceFailsWhereFlinkFailsFirst(DataOldEvents events) {
        String badId = "{\"id\":\"x\"}";
        String badPrice = "{\"price\":\"p\"}";
        boolean canal = events == DataOldEvents.CANAL;
        List<String> changes = new ArrayList<>(List.of(
                event(events, null, List.of(badId), null, "\"type\":\"INSEtRT\""),
                event(events, null, List.of(badId), null, null),
                event(events, null, List.of(ROW), List.of(badPrice), null),
                event(events, null, List.of(ROW), List.of(badPrice), "\"type\":\"inser.\""),
                event(events, "INSERT", List.of(badId), null, canal ? "\"old\":{\"id\":1}" : "\"old\":[1]"),
                event(events, "DELETE", List.of(ROW), List.of(badPrice), "\"data\":null"),
                event(events, "UPDATE", List.of(badId), List.of(badPrice), null)));
        if (canal) {
            changes.add(event(events, "UPDATE", List.of(ROW, badId), List.of(badPrice, "{}"), null));
            changes.add(event(events, "UPDATE", List.of(ROW, ROW2, badId), List.of("{}"), null));
            changes.add(event(events, "UPDATE", List.of(ROW, "null"), List.of("{}", badPrice), null));
            changes.add(event(events, "INSERT", List.of(ROW, "null", badId), null, null));
            changes.add(event(events, "INSERT", List.of(badId, "5"), null, null));
            changes.add(event(events, "DELETE", List.of(ROW, "[]"), List.of(badPrice), null));
        }
        for (String change : changes) {
            assertFailsNamingFlinksField(events, SMALL, Map.of(), change);
        }
    }

    /** The records the property found failing so, with their row types, verbatim. */
    @Test
    void aRecordFailingTwiceAsThePropertyFoundThem() {
        assertFailsNamingFlinksField(DataOldEvents.CANAL,
                RowTypes.parse("ROW<`f0` TIMESTAMP_LTZ(8), `a\"b1` DECIMAL(2, 2)>"),
                Map.of("timestamp-format.standard", "ISO-8601"), "{\"database\":\"db3\",\"table\":\"t1\",\"data\":"
                        + "[{\"f0\":\"1969-12-31T23:59:58.99999999999Z\",\"a\\\"b1\":0.1}],\"type\":\"INSEtRT\"}");
        assertFailsNamingFlinksField(DataOldEvents.CANAL,
                RowTypes.parse("ROW<`f0` ARRAY<TIMESTAMP(6) NOT NULL>, `a\"b1` DECIMAL(38, 0) NOT NULL,"
                        + " `back\\slash2` ROW<`f0` BOOLEAN> NOT NULL>"),
                Map.of("timestamp-format.standard", "ISO-8601"), "{\"database\":\"db3\",\"table\":\"t1\",\"data\":"
                        + "[{\"f0\":[\"0001-0-01T00:00:00\"],\"a\\\"b1\":0,\"back\\\\slash2\":{\"f0\":true}}],"
                        + "\"type-\":\"DELETE\"}");
        assertFailsNamingFlinksField(DataOldEvents.MAXWELL,
                RowTypes.parse("ROW<`f0` TIMESTAMP(0), `a\"b1` ROW<`f0` TIMESTAMP_LTZ(5), `a\"b1` MAP<STRING,"
                        + " DECIMAL(38, 38)>, `back\\slash2` ARRAY<TIMESTAMP(2) NOT NULL>>, `back\\slash2` MAP<STRING,"
                        + " DECIMAL(37, 37)>>"),
                Map.of(), "{\"data\":{\"f0\":\"1970-01-01 00:0:00:0:0:00:02\",\"a\\\"b1\":{\"f0\":null,"
                        + "\"a\\\"b1\":null,\"back\\\\slash2\":null},\"back\\\\slash2\":null},\"type\":\"inser.\"}");
    }

    /** {@code change} fails alone, in ours and in Flink's, and Flink's error names a field: ours must be in it. */
    private static void assertFailsNamingFlinksField(DataOldEvents events, RowType type, Map<String, String> options,
            String change) {
        Throwable flink = FlinkDataOldDecodeOracle.of(events, type, withKind(options)).deserialize(utf8(change)).error();
        assertThat(flink).as("Flink rejects %s", change).isNotNull();
        assertThat(ExceptionUtils.findThrowableWithMessage(flink, "Fail to deserialize at field"))
                .as("Flink's error of %s names a field: %s", change, flink).isPresent();
        JsonDecodeCheck.Result result = check(events, type, options, List.of(utf8(change)));
        assertThat(result.recordsRejected()).as("%s rejected", change).isEqualTo(1);
    }

    @Test
    void optionsAsFlinksFactoryTakesThem() {
        assertThatThrownBy(() -> Formats.decoder("canal-json", SMALL, Map.of()))
                .hasMessageContaining("row-kind.column");
        assertThatThrownBy(() -> Formats.decoder("canal-json", SMALL, withKind(Map.of("fail-on-missing-field", "true"))))
                .hasMessageContaining("unknown canal-json option 'fail-on-missing-field'");
        assertThatThrownBy(() -> Formats.decoder("maxwell-json", SMALL, withKind(Map.of("database.include", "x"))))
                .hasMessageContaining("unknown maxwell-json option 'database.include'");
        assertThatThrownBy(() -> Formats.decoder("canal-json", SMALL, withKind(Map.of("table.include", "(x"))))
                .hasMessageContaining("table.include");
        assertThatThrownBy(() -> Formats.decoder("maxwell-json", SMALL, Map.of("row-kind.column", "id")))
                .hasMessageContaining("also a field");
        var decoder = Formats.decoder("canal-json", SMALL, withKind(Map.of("map-null-key.mode", "LITERAL",
                "map-null-key.literal", "n", "encode.decimal-as-plain-number", "true",
                "encode.ignore-null-fields", "true", "database.include", "db", "table.include", "t")));
        assertThat(decoder.rowType().getFieldNames()).containsExactly("id", "name", "price", KIND);
        assertThat(decoder.rowType().getTypeAt(3).asSummaryString()).isEqualTo("TINYINT NOT NULL");
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
