package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.json.BeforeAfterEvents;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * JSON maps of mostly two and three entries, the shapes {@code MapJsonReader} puts into Flink's {@code HashMap}
 * order most often: two keys by one comparison ({@code HashMapOrder}'s pair), scalar values moved in their vectors
 * (fixed widths 1 bit to 16 bytes, variable widths), nested values read again from their marks, values holding maps
 * read by keys first. Keys from a pool holding keys of one bucket ({@code k1}, {@code k2}), distinct keys of equal
 * hash ({@code cd6l}/{@code c3g1f}, {@code cyxt}/{@code c59ca}), an escaped spelling of {@code k0}, non-ASCII and
 * long keys, so maps repeat keys too; values valid, null or of the wrong shape; with and without {@code
 * ignore-parse-errors}; several maps per batch (a map in a column and in an array), so a map's entries start anywhere
 * in the entry vectors. Decoded by Flink's streaming deserializer ({@code json}) and its tree deserializer (inside
 * {@code debezium-json}), and by ours ({@link JsonDecodeCheck}): rows, maps in order, rejections and skips as Flink's.
 */
class JsonMapOrderProperties {
    /** Keys as written in the JSON, and as Flink reads them. */
    private static final String[][] KEYS = {{"k0", "k0"}, {"k1", "k1"}, {"k2", "k2"}, {"cd6l", "cd6l"},
        {"c3g1f", "c3g1f"}, {"cyxt", "cyxt"}, {"c59ca", "c59ca"}, {"", ""}, {"a", "a"}, {"k\\u0030", "k0"},
        {"\u00e9t\u00e9", "\u00e9t\u00e9"}, {"a-key-longer-than-a-word", "a-key-longer-than-a-word"}};
    /** Per value type: valid values, then (after a null) values of the wrong shape. */
    private static final Map<String, String[]> VALUES = Map.ofEntries(
            Map.entry("BIGINT", new String[] {"1", "-7", "123456789012", "0", null, "\"x\"", "{}"}),
            Map.entry("TINYINT", new String[] {"1", "-7", "\"12\"", null, "300"}),
            Map.entry("STRING", new String[] {"\"v\"", "\"\"", "\"a value longer than two words\"", "12",
                "{\"o\":[1]}", "\"\u00e9\\n\"", null, "\"\\q\""}),
            Map.entry("BOOLEAN", new String[] {"true", "false", "\"true\"", null, "[1]"}),
            Map.entry("DOUBLE", new String[] {"1.5", "-0.0", "1e10", "\"NaN\"", null, "\"x\""}),
            Map.entry("DECIMAL(20, 3)", new String[] {"1.234", "-99999999999999999.999", "7", null, "\"x\""}),
            Map.entry("TIMESTAMP(3)", new String[] {"\"2024-01-02 03:04:05.678\"", "\"1970-01-01 00:00:00\"", null,
                "\"bad\""}),
            Map.entry("BYTES", new String[] {"\"AQID\"", "\"\"", "\"AAECAwQFBgcICQ==\"", null, "\"!\""}),
            Map.entry("ROW<a INT, s STRING>", new String[] {"{\"a\":1,\"s\":\"x\"}", "{}", null, "{\"a\":\"x\"}",
                "[1]"}),
            Map.entry("ARRAY<INT>", new String[] {"[1,2]", "[]", null, "[\"x\"]", "{\"a\":1}"}),
            Map.entry("MAP<STRING, INT>", new String[] {"{\"k1\":1,\"k0\":2}", "{\"c3g1f\":1,\"cd6l\":2,\"k2\":3}",
                "{}", null, "{\"a\":\"x\"}", "[1]"}));
    private static final AtomicLong MAPS_REORDERED = new AtomicLong();
    private static final AtomicLong PAIRS_REORDERED = new AtomicLong();
    private static final AtomicLong ROWS_COMPARED = new AtomicLong();
    /** Records with a map whose value of the wrong shape has its key repeated later: Flink's tree reads them. */
    private static final AtomicLong WRONG_VALUES_REPEATED = new AtomicLong();

    @Property(tries = 400)
    void mapsComeInFlinksOrder(@ForAll long seed, @ForAll boolean ignoreParseErrors) {
        Random random = new Random(seed);
        List<String> types = new ArrayList<>(VALUES.keySet());
        types.sort(null);
        String valueType = types.get(random.nextInt(types.size()));
        RowType type = (RowType) LogicalTypeParser.parse("ROW<m MAP<STRING, " + valueType + ">, am ARRAY<MAP<STRING, "
                + valueType + ">>, i INT>", JsonMapOrderProperties.class.getClassLoader());
        Map<String, String> options = ignoreParseErrors ? Map.of("ignore-parse-errors", "true") : Map.of();
        FlinkJsonDecodeOracle flink = FlinkJsonDecodeOracle.of(type, options);
        List<byte[]> records = new ArrayList<>();
        List<byte[]> events = new ArrayList<>();
        for (int r = 1 + random.nextInt(4); r > 0; r--) {
            List<MapJson> maps = new ArrayList<>();
            maps.add(map(random, VALUES.get(valueType)));
            StringBuilder am = new StringBuilder("[");
            for (int a = random.nextInt(3); a > 0; a--) {
                maps.add(map(random, VALUES.get(valueType)));
                am.append(am.length() > 1 ? "," : "").append(maps.get(maps.size() - 1).json());
            }
            String row = "{\"m\":" + maps.get(0).json() + ",\"am\":" + am.append(']') + ",\"i\":" + r + "}";
            records.add(row.getBytes(StandardCharsets.UTF_8));
            if (!flink.deserialize(records.get(records.size() - 1)).rejected()) {
                countReordered(maps);
            }
            // Flink's tree deserializer never converts a value its JSON object repeats the key of (Jackson's node
            // keeps the last), so a wrong one there fails only Flink's streaming deserializer.
            if (maps.stream().anyMatch(MapJson::wrongValueRepeated)) {
                WRONG_VALUES_REPEATED.incrementAndGet();
            }
            events.add(("{\"before\":null,\"after\":" + row + ",\"op\":\"c\"}").getBytes(StandardCharsets.UTF_8));
        }
        ROWS_COMPARED.addAndGet(JsonDecodeCheck.assertParity(type, options, records).rowsCompared());

        Map<String, String> debezium = new HashMap<>(options);
        debezium.put("row-kind.column", "row_kind");
        ROWS_COMPARED.addAndGet(JsonDecodeCheck.assertParity("debezium-json", type, debezium, events,
                FlinkBeforeAfterDecodeOracle.of(BeforeAfterEvents.DEBEZIUM, type, debezium)::deserialize, "row_kind")
                .rowsCompared());
        Statistics.label("value type").collect(valueType);
    }

    /**
     * Repeated keys in a tree map, spelled out: Flink's tree converts each key's last value only, in the order of the
     * keys' first appearance; ours reads each record as Flink's debezium-json does (a row, or rejected).
     */
    @Example
    void aTreeMapConvertsEachKeysLastValueOnly() {
        RowType type = (RowType) LogicalTypeParser.parse("ROW<m MAP<STRING, BIGINT>, i INT>",
                JsonMapOrderProperties.class.getClassLoader());
        List<byte[]> events = new ArrayList<>();
        for (String map : List.of("{\"k\":\"x\",\"k\":1}", "{\"b\":\"y\",\"a\":1,\"b\":2}",
                "{\"b\":{},\"a\":\"x\",\"b\":[1],\"a\":3,\"b\":4}", "{\"a\":\"x\",\"b\":1,\"a\":\"y\"}",
                "{\"k\":1,\"k\":\"x\"}")) {
            events.add(("{\"before\":null,\"after\":{\"m\":" + map + ",\"i\":1},\"op\":\"c\"}")
                    .getBytes(StandardCharsets.UTF_8));
        }
        Map<String, String> options = Map.of("row-kind.column", "row_kind");
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity("debezium-json", type, options, events,
                FlinkBeforeAfterDecodeOracle.of(BeforeAfterEvents.DEBEZIUM, type, options)::deserialize, "row_kind");
        assertThat(result.rowsCompared()).as("the first three, rows in Flink's tree").isEqualTo(3);
        assertThat(result.recordsRejected()).as("the last two: a key's last value fails").isEqualTo(2);
    }

    @AfterContainer
    static void comparedEnough() {
        // 400 tries of 1-4 records, each with up to three maps, about half of them of two or three keys: about
        // 1,800 rows, 800 maps reordered, 250 of two keys
        assertThat(ROWS_COMPARED.get()).as("rows compared").isGreaterThan(1200);
        assertThat(MAPS_REORDERED.get()).as("maps Flink reads in another order, in records it accepts")
                .isGreaterThan(500);
        assertThat(PAIRS_REORDERED.get()).as("of them, maps of two distinct keys").isGreaterThan(150);
        assertThat(WRONG_VALUES_REPEATED.get()).as("records whose wrong value a later one of its key replaces")
                .isGreaterThan(5);
    }

    /**
     * A map's JSON, its keys as Flink reads them, and whether a value of the wrong shape has its key repeated later.
     */
    private record MapJson(String json, List<String> keys, boolean wrongValueRepeated) {}

    /** A map of random keys and values; null one time in eight. */
    private static MapJson map(Random random, String[] values) {
        if (random.nextInt(8) == 0) {
            return new MapJson("null", List.of(), false);
        }
        int[] sizes = {2, 2, 2, 2, 3, 3, 3, 0, 1, 4, 6};
        int n = sizes[random.nextInt(sizes.length)];
        List<String> read = new ArrayList<>();
        List<String> wrongKeys = new ArrayList<>();
        boolean wrongValueRepeated = false;
        StringBuilder b = new StringBuilder("{");
        for (int e = 0; e < n; e++) {
            String[] key = KEYS[random.nextInt(KEYS.length)];
            read.add(key[1]);
            wrongValueRepeated |= wrongKeys.contains(key[1]);
            // valid values mostly; a null one time in ten, one of the wrong shape one in twenty
            int firstWrong = indexOfNull(values) + 1;
            int pick = random.nextInt(20);
            String value;
            if (pick == 0 && firstWrong < values.length) {
                value = values[firstWrong + random.nextInt(values.length - firstWrong)];
                wrongKeys.add(key[1]);
            } else {
                value = pick < 3 ? "null" : values[random.nextInt(firstWrong - 1)];
            }
            b.append(e == 0 ? "" : ",").append('"').append(key[0]).append("\":").append(value);
        }
        return new MapJson(b.append('}').toString(), read, wrongValueRepeated);
    }

    private static int indexOfNull(String[] values) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                return i;
            }
        }
        throw new IllegalArgumentException("no null among the values");
    }

    /** Counts the maps whose keys Flink's {@code HashMap} gives in another order than the JSON's. */
    private static void countReordered(List<MapJson> maps) {
        for (MapJson map : maps) {
            List<String> keys = map.keys();
            Map<StringData, Boolean> flink = new HashMap<>();
            for (String k : keys) {
                flink.put(StringData.fromString(k), true);
            }
            List<String> flinkOrder = new ArrayList<>();
            for (StringData k : flink.keySet()) {
                flinkOrder.add(k.toString());
            }
            if (!flinkOrder.equals(new ArrayList<>(new LinkedHashSet<>(keys)))) {
                MAPS_REORDERED.incrementAndGet();
                if (keys.size() == 2) {
                    PAIRS_REORDERED.incrementAndGet();
                }
            }
        }
    }
}
