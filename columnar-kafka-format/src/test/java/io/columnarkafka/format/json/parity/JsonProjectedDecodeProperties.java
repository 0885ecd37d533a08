package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.json.parity.JsonDecodeProperties.DecodeCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.util.RawValue;
import org.apache.flink.table.types.logical.RowType;

/**
 * A scan that reads some of a json table's value columns: Flink's {@code kafka} source takes no projection, so
 * Flink's deserializer converts the whole row and a bad or (with {@code fail-on-missing-field}) missing field
 * in a column nobody reads still fails or skips the record. Oracle: Flink's deserializer of the whole row;
 * ours: the decoder given the whole row producing a random subset of its fields ({@link
 * JsonDecodeCheck#assertParity(org.apache.flink.table.types.logical.RowType, boolean[], Map, List)}): the
 * projected rows equal Flink's rows projected, and the records Flink rejects or skips are rejected (naming the
 * record and Flink's field) or skipped. First records Flink wrote, then the same records with wrong values put
 * in at any depth (type confusions, huge numbers, bad timestamps and Base64, objects and arrays where scalars
 * go, and the reverse), members removed, and the byte mutations of {@link JsonDecodeProperties}, under each of
 * the option sets.
 */
class JsonProjectedDecodeProperties {
    private static final AtomicLong CLEAN_ROWS = new AtomicLong();
    private static final AtomicLong BAD_ROWS = new AtomicLong();
    private static final AtomicLong BAD_REJECTED = new AtomicLong();
    private static final AtomicLong BAD_SKIPPED = new AtomicLong();
    private static final AtomicLong NEVER_RETURNED = new AtomicLong();

    private static final ObjectMapper TREES = new ObjectMapper();

    /** JSON values put in place of a field's value, an array element or a map value. */
    private static final String[] WRONG_VALUES = {
        "\"x\"", "\"\"", "\" 12 \"", "\"1.5\"", "\"NaN\"", "\"true\"", "true", "false", "null", "0", "-1", "128",
        "40000", "2147483648", "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
        "1.5", "-0.0", "1e400", "1E-400", "1.0e2147483648", "12.345678901234567890123",
        "\"2020-01-02 03:04:05.123456789\"", "\"2020-01-02T03:04:05\"", "\"2020-13-02 03:04:05\"",
        "\"2020-01-02 24:00:00\"", "\"2020-01-02 03:04:05Z\"", "\"2020-01-02T03:04:05.1Z\"", "\"+10000-01-01 00:00:00\"",
        "\"2020-02-30\"", "\"2020-01-02\"", "\"12:34:56\"", "\"12:34:56.789\"", "\"25:00:00\"", "\"AAEC\"", "\"AAE\"",
        "\"\\u0041\\n\"", "\"\\ud800\"", "{}", "{\"a\":1}", "{\"x\":{\"y\":[1,2.5]}}", "[]", "[1,\"a\",null]",
        "[[1],[2]]", "{\"k\":1.0e2147483648}"
    };

    @Property(tries = 200, shrinking = ShrinkingMode.BOUNDED)
    void recordsFlinkWroteDecodeProjectedAsFlinkReadsThem(@ForAll("evenlySizedCases") DecodeCase c,
            @ForAll long seed) {
        Random random = new Random(seed);
        List<byte[]> records = JsonDecodeProperties.serialize(c);
        Map<String, String> options = Map.of("timestamp-format.standard", c.standard());
        Assume.that(!JsonDecodeProperties.holdsATimestampOutsideArrow(c, records, options));
        boolean[] produced = produced(c.type(), random);
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(c.type(), produced, options, records);
        assertThat(result.rowsCompared()).as("every row Flink wrote is read back and compared")
                .isEqualTo(c.rows().size());
        CLEAN_ROWS.addAndGet(result.rowsCompared());
    }

    // Random seeds: a record Flink's deserializer never returns on (PastEndParsers) is one our decoder must fail,
    // saying so, whatever the options (JsonDecodeCheck); it counts as rejected.
    @Property(tries = 400, shrinking = ShrinkingMode.OFF)
    void badUnreadValuesAreRejectedOrSkippedAsFlinkDoes(
            @ForAll("cases") DecodeCase c, @ForAll long seed, @ForAll("modes") String mode) throws Exception {
        Random random = new Random(seed);
        List<byte[]> records = new ArrayList<>();
        for (byte[] record : JsonDecodeProperties.serialize(c)) {
            records.add(random.nextInt(4) == 0 ? JsonDecodeProperties.mutate(record, random) : spoil(record, random));
        }
        Map<String, String> options = switch (mode) {
            case "ignore-parse-errors" -> Map.of("timestamp-format.standard", c.standard(), mode, "true");
            case "fail-on-missing-field" -> Map.of("timestamp-format.standard", c.standard(), mode, "true");
            default -> Map.of("timestamp-format.standard", c.standard());
        };
        // The mutated records can hold a huge negative exponent, on which Flink's oracle runs for hours
        // (JsonDecodeProperties.holdsAHugeExponent; seen in CI on JDK 25): discarded, as there.
        Assume.that(records.stream().noneMatch(JsonDecodeProperties::holdsAHugeExponent));
        Assume.that(!JsonDecodeProperties.holdsATimestampOutsideArrow(c, records, options));
        JsonDecodeCheck.Result result;
        try {
            result = JsonDecodeCheck.assertParity(c.type(), produced(c.type(), random), options, records);
        } catch (DecodeException e) {
            // The named divergence of JsonDecodeProperties: a timestamp outside a 64-bit Arrow unit.
            Assume.that(e.reason().contains("out of range of Arrow"));
            return;
        }
        BAD_ROWS.addAndGet(result.rowsCompared());
        BAD_REJECTED.addAndGet(result.recordsRejected());
        NEVER_RETURNED.addAndGet(result.recordsNeverReturned());
        int skipped = records.size() - result.rowsCompared() - result.recordsRejected();
        BAD_SKIPPED.addAndGet(Math.max(0, skipped));
        Statistics.label("outcome").collect(result.recordsNeverReturned() > 0 ? "a record Flink never returns on"
                : result.recordsRejected() > 0 ? "a record rejected"
                : skipped > 0 ? "records skipped" : "all read");
    }

    @AfterContainer
    static void comparedEnough() {
        assertThat(CLEAN_ROWS.get()).as("rows Flink wrote, compared projected").isGreaterThan(500);
        assertThat(BAD_ROWS.get()).as("rows of spoiled records compared projected").isGreaterThan(300);
        assertThat(BAD_REJECTED.get()).as("spoiled records rejected like Flink").isGreaterThan(100);
        assertThat(BAD_SKIPPED.get()).as("spoiled records skipped like Flink (ignore-parse-errors)").isGreaterThan(20);
        // Rare (a few in a thousand runs' worth of tries), so reported, not required; JsonDecodeCorpusTest pins one.
        System.out.println("JsonProjectedDecodeProperties: spoiled records Flink never returns on, failed by ours: "
                + NEVER_RETURNED.get());
    }

    /** A random subset of the fields, none or all included. */
    static boolean[] produced(RowType type, Random random) {
        boolean[] produced = new boolean[type.getFieldCount()];
        int mode = random.nextInt(4);
        for (int i = 0; i < produced.length; i++) {
            produced[i] = mode == 0 ? random.nextInt(4) == 0 : mode == 1 || random.nextBoolean();
        }
        if (mode == 1 && produced.length > 0) {
            produced[random.nextInt(produced.length)] = false;
        }
        return produced;
    }

    /** One or two edits of the record's tree: a value replaced by a wrong one, or a member removed. */
    static byte[] spoil(byte[] record, Random random) throws Exception {
        JsonNode tree = TREES.readTree(record);
        int edits = 1 + random.nextInt(2);
        for (int e = 0; e < edits; e++) {
            List<JsonNode> containers = new ArrayList<>();
            collect(tree, containers);
            JsonNode container = containers.get(random.nextInt(containers.size()));
            RawValue wrong = new RawValue(WRONG_VALUES[random.nextInt(WRONG_VALUES.length)]);
            if (container instanceof ObjectNode object && object.size() > 0) {
                List<String> names = new ArrayList<>();
                object.fieldNames().forEachRemaining(names::add);
                String name = names.get(random.nextInt(names.size()));
                if (random.nextInt(3) == 0) {
                    object.remove(name);
                } else {
                    object.putRawValue(name, wrong);
                }
            } else if (container instanceof ArrayNode array && array.size() > 0) {
                int at = random.nextInt(array.size());
                array.remove(at);
                if (random.nextInt(3) != 0) {
                    array.insertPOJO(at, wrong);
                }
            }
        }
        return TREES.writeValueAsBytes(tree);
    }

    private static void collect(JsonNode node, List<JsonNode> containers) {
        if (node.isContainerNode()) {
            containers.add(node);
            node.elements().forEachRemaining(child -> collect(child, containers));
        }
    }

    @Provide
    Arbitrary<DecodeCase> cases() {
        return JsonDecodeProperties.decodeCases();
    }

    /**
     * Batches of 1 to 12 rows without jqwik's edge cases: a list made afresh for each case (inside {@code flatAs})
     * is its edge case, one row, a third of the time, and the rows counted cleared comparedEnough's bound by only
     * 2.6 standard deviations (mean 665, deviation 63 over 15 runs).
     */
    @Provide
    Arbitrary<DecodeCase> evenlySizedCases() {
        return JsonDecodeProperties.decodeCases(Arbitrary::withoutEdgeCases);
    }

    @Provide
    Arbitrary<String> modes() {
        return Arbitraries.of("default", "ignore-parse-errors", "fail-on-missing-field");
    }
}
