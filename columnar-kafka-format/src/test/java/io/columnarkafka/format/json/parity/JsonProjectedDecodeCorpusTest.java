package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.json.parity.JsonDecodeCorpusTest.RecordsCase;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link JsonDecodeCorpusTest}'s adversarial values in the fields a scan does not read, under each option
 * combination: Flink's deserializer of the whole row (Flink's {@code kafka} source takes no projection) against
 * the decoder producing the other fields and checking these ({@link JsonDecodeCheck#assertParity(RowType,
 * boolean[], Map, List)}): every spelling of every type, malformed values at every nesting level, and Nexmark
 * events whose unread {@code person} and {@code auction} rows are wrong, cut short or missing fields.
 */
class JsonProjectedDecodeCorpusTest {
    static List<Map<String, String>> options() {
        return JsonDecodeCorpusTest.options();
    }

    /** Each spelling in one field of {@code SCALARS}, the decoder producing every other field. */
    @ParameterizedTest
    @MethodSource("options")
    void everySpellingInEveryUnreadField(Map<String, String> options) {
        RowType type = JsonDecodeCorpusTest.SCALARS;
        int compared = 0;
        int rejected = 0;
        int records = 0;
        for (int field = 0; field < type.getFieldCount(); field++) {
            List<byte[]> batch = JsonDecodeCorpusTest.spellingRecords(options, type.getFieldNames().get(field));
            boolean[] produced = allBut(type.getFieldCount(), field);
            JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(type, produced, options, batch);
            assertThat(result.rowsCompared() + result.recordsRejected() + result.nullRowsDropped())
                    .isEqualTo(batch.size());
            compared += result.rowsCompared();
            rejected += result.recordsRejected();
            records += batch.size();
        }
        assertThat(compared).as("rows compared").isGreaterThan(records / 4);
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(rejected).as("records rejected for an unread field, as by Flink").isGreaterThan(records / 4);
        }
    }

    /** The malformed nested values of {@link JsonDecodeCorpusTest}, the decoder producing only the last field. */
    @ParameterizedTest
    @MethodSource("options")
    void malformedValuesInUnreadNestedColumns(Map<String, String> options) {
        int compared = 0;
        int rejected = 0;
        int records = 0;
        List<RecordsCase> cases = new ArrayList<>(JsonDecodeCorpusTest.NESTED_RECORDS);
        for (RecordsCase shape : JsonDecodeCorpusTest.NESTING_SHAPES) {
            List<String> filled = new ArrayList<>();
            for (String template : shape.records()) {
                for (String value : JsonDecodeCorpusTest.HOLE_VALUES) {
                    filled.add(template.replace("%s", value));
                }
            }
            cases.add(new RecordsCase(shape.type(), filled));
        }
        for (RecordsCase c : cases) {
            List<byte[]> batch = new ArrayList<>();
            for (String record : c.records()) {
                batch.add(record.getBytes(StandardCharsets.ISO_8859_1));
            }
            int fields = c.type().getFieldCount();
            boolean[] produced = new boolean[fields];
            produced[fields - 1] = true;
            JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(c.type(), produced, options, batch);
            compared += result.rowsCompared();
            rejected += result.recordsRejected();
            records += batch.size();
        }
        if (options.containsKey("ignore-parse-errors")) {
            assertThat(compared).as("rows compared under ignore-parse-errors").isGreaterThan(records / 4);
        } else {
            assertThat(rejected).as("records rejected for an unread field, as by Flink").isGreaterThan(records / 4);
        }
    }

    private static final RowType EVENT = (RowType) LogicalTypeParser.parse("ROW<event_type INT,"
            + " person ROW<id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING,"
            + " state STRING, dateTime TIMESTAMP(3), extra STRING>,"
            + " auction ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT,"
            + " dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING>,"
            + " bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
            + " dateTime TIMESTAMP(3), extra STRING>>", JsonProjectedDecodeCorpusTest.class.getClassLoader());

    private static final String PERSON = "{\"id\":1000,\"name\":\"Peter Shultz\",\"emailAddress\":\"p@x.com\","
            + "\"creditCard\":\"1234 5678 9012 3456\",\"city\":\"Boise\",\"state\":\"ID\","
            + "\"dateTime\":\"2020-01-02 03:04:05.123\",\"extra\":\"abc\"}";
    private static final String AUCTION = "{\"id\":1001,\"itemName\":\"item\",\"description\":\"d\",\"initialBid\":10,"
            + "\"reserve\":20,\"dateTime\":\"2020-01-02 03:04:05.123\",\"expires\":\"2020-01-02 04:04:05\","
            + "\"seller\":1000,\"category\":10,\"extra\":\"e\"}";
    private static final String BID = "{\"auction\":1001,\"bidder\":1000,\"price\":1234,\"channel\":\"Google\","
            + "\"url\":\"https://www.google.com/\",\"dateTime\":\"2020-01-02 03:04:05.123\",\"extra\":\"x\"}";

    /**
     * Nexmark events as the bid queries read them (only {@code bid} produced): the unread {@code person} and
     * {@code auction} rows null, valid, of the wrong shape, with a wrong, huge or badly timed field, missing a
     * field, or cut short.
     */
    @ParameterizedTest
    @MethodSource("options")
    void nexmarkEventsWithBadUnreadRows(Map<String, String> options) {
        List<String> persons = List.of("null", PERSON, "[]", "[1]", "\"x\"", "1", "{}",
                PERSON.replace("1000", "\"x\""), PERSON.replace("1000", "99999999999999999999"),
                PERSON.replace("1000", "1.5e3"), PERSON.replace("\"2020-01-02 03:04:05.123\"", "\"2020-13-02 03:04:05\""),
                PERSON.replace("\"2020-01-02 03:04:05.123\"", "\"2020-01-02T03:04:05\""),
                PERSON.replace("\"2020-01-02 03:04:05.123\"", "1577934245123"),
                PERSON.replace("\"2020-01-02 03:04:05.123\"", "\"2020-01-02 03:04:05.123456789\""),
                PERSON.replace(",\"extra\":\"abc\"", ""), PERSON.replace("\"extra\":\"abc\"", "\"extra\":{\"a\":[1.5e99999999999]}"),
                PERSON.replace("\"Boise\"", "{\"id\":7}"), PERSON.replace("\"Boise\"", "\"Bo\\qise\""),
                PERSON.replace("\"Boise\"", "[\"Boise\",{}]"), PERSON.replace("\"id\":1000", "\"id\":{\"id\":5}"));
        List<String> auctions = List.of("null", AUCTION, AUCTION.replace("10,", "\"ten\","),
                AUCTION.replace("\"2020-01-02 04:04:05\"", "\"2020-01-02 25:04:05\""),
                AUCTION.replace(",\"seller\":1000", ""), AUCTION.replace("20,", "1e400,"),
                AUCTION.replace("\"category\":10", "\"category\":[10]"), "{\"id\":1}");
        // Timestamps in the standard the options read, so that the valid ones are.
        boolean iso = "ISO-8601".equals(options.get("timestamp-format.standard"));
        java.util.function.UnaryOperator<String> standard = text -> iso ? text.replace("2020-01-02 ", "2020-01-02T") : text;
        List<byte[]> records = new ArrayList<>();
        for (String person : persons.stream().map(standard).toList()) {
            for (String auction : auctions.stream().map(standard).toList()) {
                records.add(utf8("{\"event_type\":2,\"person\":" + person + ",\"auction\":" + auction
                        + ",\"bid\":" + standard.apply(BID) + "}"));
                // The unread rows after the read one, and a record cut short inside them.
                String late = "{\"event_type\":2,\"bid\":" + standard.apply(BID) + ",\"person\":" + person + ",\"auction\":" + auction + "}";
                records.add(utf8(late));
                records.add(utf8(late.substring(0, late.length() - 1 - auction.length() / 2)));
            }
        }
        boolean[] produced = {false, false, false, true};
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(EVENT, produced, options, records);
        assertThat(result.rowsCompared() + result.recordsRejected() + result.nullRowsDropped())
                .as("every record read, rejected or skipped").isLessThanOrEqualTo(records.size());
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThan(
                options.containsKey("fail-on-missing-field") ? 10 : records.size() / 10);
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(result.recordsRejected()).as("records rejected for an unread row, as by Flink")
                    .isGreaterThan(records.size() / 3);
        }
    }

    private static boolean[] allBut(int fields, int left) {
        boolean[] produced = new boolean[fields];
        java.util.Arrays.fill(produced, true);
        produced[left] = false;
        return produced;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
