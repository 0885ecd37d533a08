package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.arrow.PlainValues;
import io.columnarkafka.format.json.BeforeAfterEvents;
import io.columnarkafka.format.json.ChangelogEnvelope;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Random nested schemas and values ({@link JsonParityProperties}' generators) as debezium-json and ogg-json change
 * events: records Flink's own serializer of the format wrote for rows of every kind (it writes inserts and
 * deletes only), and hand-built update and (debezium) {@code r} events around rows Flink's JSON serializer wrote;
 * debezium with and without {@code schema-include}. Decoded by Flink's deserializer of the format and by ours
 * ({@link JsonDecodeCheck}): the rows, their records and kinds must be Flink's. Then the same bytes
 * randomly mutated (half the events of a batch), with and without {@code ignore-parse-errors}.
 */
class BeforeAfterDecodeProperties {
    private static final String KIND = "row_kind";
    private static final AtomicLong ROWS = new AtomicLong();
    private static final AtomicLong UPDATES = new AtomicLong();
    private static final AtomicLong MUTATED_ROWS = new AtomicLong();
    private static final AtomicLong MUTATED_REJECTED = new AtomicLong();
    private static final AtomicLong UNREAD_ROWS = new AtomicLong();
    private static final AtomicLong UNREAD_REJECTED = new AtomicLong();

    /** One random batch: row type, rows with their kinds, how each is written, and the options. */
    record EventCase(BeforeAfterEvents events, RowType type, List<GenericRowData> rows, List<Integer> shapes,
            String standard, boolean schemaInclude) {
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("\n  format: ").append(events.identifier())
                    .append("\n  type: ").append(type.asSummaryString())
                    .append("\n  timestamp-format.standard: ").append(standard)
                    .append("\n  schema-include: ").append(schemaInclude);
            for (int i = 0; i < rows.size(); i++) {
                b.append("\n  row ").append(i).append(" ").append(rows.get(i).getRowKind()).append(" shape ")
                        .append(shapes.get(i)).append(": ").append(PlainValues.fromFlink(rows.get(i), type));
            }
            return b.toString();
        }
    }

    @Property(tries = 200, shrinking = ShrinkingMode.BOUNDED)
    void eventsDecodeAsFlinkDecodesThem(@ForAll("cases") EventCase c) {
        List<byte[]> records = events(c);
        Map<String, String> options = options(c, false);
        Assume.that(!holdsATimestampOutsideArrow(c.events(), c.type(), options, records));
        JsonDecodeCheck.Result result = check(c.events(), c.type(), options, records);
        int expected = 0;
        for (int shape : c.shapes()) {
            expected += shape == UPDATE ? 2 : 1;
        }
        assertThat(result.rowsCompared()).as("every event's rows read back and compared").isEqualTo(expected);
        assertThat(result.recordsRejected()).isZero();
        ROWS.addAndGet(result.rowsCompared());
        UPDATES.addAndGet(c.shapes().stream().filter(s -> s == UPDATE).count());
    }

    @Property(tries = 200, shrinking = ShrinkingMode.OFF)
    void mutatedEventsAreReadRejectedOrSkippedAsFlinkDoes(
            @ForAll("cases") EventCase c, @ForAll long seed, @ForAll boolean ignoreParseErrors) {
        Random random = new Random(seed);
        List<byte[]> records = new ArrayList<>();
        for (byte[] record : events(c)) {
            // One event in four intact, so a batch holds rows to compare around the mutated ones; three in four
            // mutated, so the rejections counted clear comparedEnough's bound by some 4.5 standard deviations
            // (half mutated: mean 143, deviation 21 over 15 runs; the bound of 100 was 2 deviations away).
            records.add(random.nextInt(4) > 0 ? JsonDecodeProperties.mutate(record, random) : record);
        }
        Map<String, String> options = options(c, ignoreParseErrors);
        // A huge negative exponent keeps Flink's oracle busy for hours (JsonDecodeProperties.holdsAHugeExponent).
        Assume.that(records.stream().noneMatch(JsonDecodeProperties::holdsAHugeExponent));
        Assume.that(!holdsATimestampOutsideArrow(c.events(), c.type(), options, records));
        JsonDecodeCheck.Result result;
        try {
            result = check(c.events(), c.type(), options, records);
        } catch (DecodeException e) {
            // The named divergence of a timestamp beyond a 64-bit Arrow unit (docs/formats-text.md), as in
            // JsonDecodeProperties: discarded, anything else still fails.
            Assume.that(e.reason().contains("out of range of Arrow"));
            return;
        }
        MUTATED_ROWS.addAndGet(result.rowsCompared());
        MUTATED_REJECTED.addAndGet(result.recordsRejected());
        Statistics.label("outcome").collect(result.recordsRejected() > 0 ? "a record rejected"
                : result.rowsCompared() == 0 ? "no row" : "rows read");
    }

    /**
     * A scan reading some columns: Flink's tree converter converts every field of each side it converts, so a
     * wrong value (put in at any depth by {@link JsonProjectedDecodeProperties#spoil}) in a column nobody reads
     * fails or drops the record as in a read one; ours checks those columns ({@code CheckOnlyJsonReader} over the
     * tree readers).
     */
    @Property(tries = 200, shrinking = ShrinkingMode.OFF)
    void badUnreadValuesAreRejectedOrSkippedAsFlinkDoes(
            @ForAll("cases") EventCase c, @ForAll long seed, @ForAll boolean ignoreParseErrors) throws Exception {
        Random random = new Random(seed);
        List<byte[]> records = new ArrayList<>();
        for (byte[] record : events(c)) {
            // Two events in three spoiled, as above: the rejections' bound of 50 is 4.3 deviations below their mean
            // (123, deviation 17 over 25 runs; half spoiled: 3).
            records.add(random.nextInt(3) > 0 ? JsonProjectedDecodeProperties.spoil(record, random) : record);
        }
        Map<String, String> options = options(c, ignoreParseErrors);
        Assume.that(!holdsATimestampOutsideArrow(c.events(), c.type(), options, records));
        boolean[] produced = JsonProjectedDecodeProperties.produced(c.type(), random);
        JsonDecodeCheck.Result result;
        try {
            result = JsonDecodeCheck.assertParity(c.events().identifier(), c.type(), produced, options, records,
                    FlinkBeforeAfterDecodeOracle.of(c.events(), c.type(), options)::deserialize, KIND);
        } catch (DecodeException e) {
            Assume.that(e.reason().contains("out of range of Arrow"));
            return;
        }
        UNREAD_ROWS.addAndGet(result.rowsCompared());
        UNREAD_REJECTED.addAndGet(result.recordsRejected());
        Statistics.label("outcome").collect(result.recordsRejected() > 0 ? "a record rejected"
                : result.rowsCompared() == 0 ? "no row" : "rows read");
    }

    @AfterContainer
    static void comparedEnough() {
        assertThat(UNREAD_ROWS.get()).as("rows of spoiled events compared projected").isGreaterThan(100);
        assertThat(UNREAD_REJECTED.get()).as("spoiled events rejected like Flink, projected").isGreaterThan(50);
        assertThat(ROWS.get()).as("rows of Flink-written events compared").isGreaterThan(300);
        assertThat(UPDATES.get()).as("hand-built update events compared").isGreaterThan(50);
        assertThat(MUTATED_ROWS.get()).as("rows of mutated events compared").isGreaterThan(100);
        assertThat(MUTATED_REJECTED.get()).as("mutated events rejected like Flink").isGreaterThan(100);
    }

    private static final int FLINK = 0;
    private static final int UPDATE = 1;
    private static final int READ = 2;

    @Provide
    Arbitrary<EventCase> cases() {
        return Combinators.combine(Arbitraries.of(BeforeAfterEvents.class), JsonParityProperties.rowType(2, false),
                        Arbitraries.of("SQL", "ISO-8601"), Arbitraries.of(false, true))
                .flatAs((events, type, standard, include) -> Combinators.combine(
                                JsonParityProperties.row(type, 25), Arbitraries.of(RowKind.values()),
                                Arbitraries.of(FLINK, FLINK, UPDATE, READ))
                        .as((row, kind, shape) -> {
                            row.setRowKind(kind);
                            return Map.entry(row, shape);
                        })
                        .list().ofMinSize(1).ofMaxSize(10)
                        .map(entries -> new EventCase(events, type, entries.stream().map(Map.Entry::getKey).toList(),
                                entries.stream().map(Map.Entry::getValue).toList(), standard,
                                include && events == BeforeAfterEvents.DEBEZIUM)));
    }

    private static Map<String, String> options(EventCase c, boolean ignoreParseErrors) {
        Map<String, String> o = new HashMap<>();
        o.put("timestamp-format.standard", c.standard());
        if (c.events() == BeforeAfterEvents.DEBEZIUM) {
            o.put("schema-include", String.valueOf(c.schemaInclude()));
        }
        o.put("row-kind.column", KIND);
        if (ignoreParseErrors) {
            o.put("ignore-parse-errors", "true");
        }
        return o;
    }

    /**
     * The events: Flink's serializer's record for the row's kind, or an update (this row before, the next after)
     * or a debezium {@code r} (an ogg insert) around the JSON serializer's row objects, written in Debezium's
     * spelling and respelled for the format; under {@code payload} with schema-include.
     */
    private static List<byte[]> events(EventCase c) {
        Map<String, String> write = Map.of("timestamp-format.standard", c.standard(), "map-null-key.mode", "DROP");
        SerializationSchema<RowData> flink = ChangelogJsonOracle.open(ChangelogEnvelope.of(c.events().identifier()),
                c.type(), write);
        FlinkJsonOracle json = FlinkJsonOracle.of(c.type(), write);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < c.rows().size(); i++) {
            GenericRowData row = c.rows().get(i);
            String event = switch (c.shapes().get(i)) {
                case FLINK -> utf8(flink.serialize(row));
                case UPDATE -> "{\"before\":" + utf8(json.serialize(row)) + ",\"after\":"
                        + utf8(json.serialize(c.rows().get((i + 1) % c.rows().size()))) + ",\"op\":\"u\"}";
                default -> "{\"before\":null,\"after\":" + utf8(json.serialize(row)) + ",\"op\":\""
                        + (c.events() == BeforeAfterEvents.DEBEZIUM ? "r" : "c") + "\"}";
            };
            event = BeforeAfterDecodeParityTest.spell(c.events(), event);
            if (c.schemaInclude()) {
                event = "{\"schema\":{\"optional\":false},\"payload\":" + event + "}";
            }
            records.add(event.getBytes(StandardCharsets.UTF_8));
        }
        return records;
    }

    private static JsonDecodeCheck.Result check(BeforeAfterEvents events, RowType type, Map<String, String> options,
            List<byte[]> records) {
        return JsonDecodeCheck.assertParity(events.identifier(), type, options, records,
                FlinkBeforeAfterDecodeOracle.of(events, type, options)::deserialize, KIND);
    }

    private static boolean holdsATimestampOutsideArrow(BeforeAfterEvents events, RowType type,
            Map<String, String> options, List<byte[]> records) {
        FlinkBeforeAfterDecodeOracle flink = FlinkBeforeAfterDecodeOracle.of(events, type, options);
        for (byte[] record : records) {
            for (RowData row : flink.deserialize(record).rows()) {
                if (JsonDecodeProperties.beyondArrowNanos(row, type)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
