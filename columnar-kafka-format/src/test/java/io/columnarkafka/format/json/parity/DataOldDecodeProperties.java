package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.arrow.PlainValues;
import io.columnarkafka.format.json.ChangelogEnvelope;
import io.columnarkafka.format.json.DataOldEvents;
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
 * Random nested schemas and values ({@link JsonParityProperties}' generators) as canal-json and maxwell-json
 * change events: records Flink's own serializer of the format wrote for rows of every kind (it writes inserts and
 * deletes only), hand-built updates whose {@code old} holds some of the row's fields (the others left out, or
 * written as JSON null), and Canal events of two rows, around rows Flink's JSON serializer wrote; Canal with and
 * without {@code database.include}/{@code table.include} filters, matching or not. Decoded by Flink's deserializer
 * of the format and by ours ({@link JsonDecodeCheck}): the rows, their records and kinds must be Flink's. Then the
 * same bytes randomly mutated (half the events of a batch), with and without {@code ignore-parse-errors}.
 */
class DataOldDecodeProperties {
    private static final String KIND = "row_kind";
    private static final AtomicLong ROWS = new AtomicLong();
    private static final AtomicLong UPDATES = new AtomicLong();
    private static final AtomicLong FILTERED = new AtomicLong();
    private static final AtomicLong MUTATED_ROWS = new AtomicLong();
    private static final AtomicLong MUTATED_REJECTED = new AtomicLong();

    private static final int FLINK = 0;
    private static final int UPDATE = 1;
    private static final int TWO_ROWS = 2;
    /** Canal's filter options, by index: none, matching each event, matching none. */
    private static final List<Map<String, String>> FILTERS = List.of(Map.of(),
            Map.of("database.include", "db[0-9]", "table.include", "t.*"), Map.of("table.include", "other"));

    /** One random batch: row type, rows with their kinds, how each is written, the options, a seed for old's fields. */
    record EventCase(DataOldEvents events, RowType type, List<GenericRowData> rows, List<Integer> shapes,
            String standard, int filter, long seed) {
        boolean filteredOut() {
            return events == DataOldEvents.CANAL && filter == 2;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("\n  format: ").append(events.identifier())
                    .append("\n  type: ").append(type.asSummaryString())
                    .append("\n  timestamp-format.standard: ").append(standard)
                    .append("\n  filters: ").append(FILTERS.get(filter)).append(", seed ").append(seed);
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
        Assume.that(!holdsATimestampOutsideArrow(c, options, records));
        JsonDecodeCheck.Result result = check(c, options, records);
        int expected = 0;
        for (int shape : c.shapes()) {
            expected += shape == FLINK ? 1 : 2;
        }
        assertThat(result.rowsCompared()).as("every event's rows read back and compared")
                .isEqualTo(c.filteredOut() ? 0 : expected);
        assertThat(result.recordsRejected()).isZero();
        ROWS.addAndGet(result.rowsCompared());
        if (c.filteredOut()) {
            FILTERED.addAndGet(records.size());
        } else {
            UPDATES.addAndGet(c.shapes().stream().filter(s -> s == UPDATE).count());
        }
    }

    @Property(tries = 200, shrinking = ShrinkingMode.OFF)
    void mutatedEventsAreReadRejectedOrSkippedAsFlinkDoes(
            @ForAll("cases") EventCase c, @ForAll long seed, @ForAll boolean ignoreParseErrors) {
        Random random = new Random(seed);
        List<byte[]> records = new ArrayList<>();
        for (byte[] record : events(c)) {
            // One event in four intact, so a batch holds rows to compare around the mutated ones; three in four
            // mutated, so the rejections counted clear comparedEnough's bound by some 4.5 standard deviations
            // (half mutated: mean 143, deviation 18 over 40 runs; the bound of 100 was 2.3 deviations away).
            records.add(random.nextInt(4) > 0 ? JsonDecodeProperties.mutate(record, random) : record);
        }
        Map<String, String> options = options(c, ignoreParseErrors);
        // A huge negative exponent keeps Flink's oracle busy for hours (JsonDecodeProperties.holdsAHugeExponent).
        Assume.that(records.stream().noneMatch(JsonDecodeProperties::holdsAHugeExponent));
        Assume.that(!holdsATimestampOutsideArrow(c, options, records));
        JsonDecodeCheck.Result result;
        try {
            result = check(c, options, records);
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

    @AfterContainer
    static void comparedEnough() {
        assertThat(ROWS.get()).as("rows of Flink-written and hand-built events compared").isGreaterThan(300);
        assertThat(UPDATES.get()).as("update events compared").isGreaterThan(50);
        assertThat(FILTERED.get()).as("events filtered out by canal's table.include").isGreaterThan(10);
        assertThat(MUTATED_ROWS.get()).as("rows of mutated events compared").isGreaterThan(100);
        assertThat(MUTATED_REJECTED.get()).as("mutated events rejected like Flink").isGreaterThan(100);
    }

    @Provide
    Arbitrary<EventCase> cases() {
        return Combinators.combine(Arbitraries.of(DataOldEvents.class), JsonParityProperties.rowType(2, false),
                        Arbitraries.of("SQL", "ISO-8601"), Arbitraries.of(0, 0, 1, 2), Arbitraries.longs())
                .flatAs((events, type, standard, filter, seed) -> Combinators.combine(
                                JsonParityProperties.row(type, 25), Arbitraries.of(RowKind.values()),
                                Arbitraries.of(FLINK, FLINK, UPDATE, TWO_ROWS))
                        .as((row, kind, shape) -> {
                            row.setRowKind(kind);
                            return Map.entry(row, events == DataOldEvents.MAXWELL && shape == TWO_ROWS ? UPDATE : shape);
                        })
                        .list().ofMinSize(1).ofMaxSize(10)
                        .map(entries -> new EventCase(events, type, entries.stream().map(Map.Entry::getKey).toList(),
                                entries.stream().map(Map.Entry::getValue).toList(), standard, filter, seed)));
    }

    private static Map<String, String> options(EventCase c, boolean ignoreParseErrors) {
        Map<String, String> o = new HashMap<>();
        o.put("timestamp-format.standard", c.standard());
        if (c.events() == DataOldEvents.CANAL) {
            o.putAll(FILTERS.get(c.filter()));
        }
        o.put("row-kind.column", KIND);
        if (ignoreParseErrors) {
            o.put("ignore-parse-errors", "true");
        }
        return o;
    }

    /**
     * The events: Flink's serializer's record for the row's kind; an update (this row's fields, some left out and
     * some written as null, in {@code old}; the next row in {@code data}); or Canal's INSERT or DELETE of this row
     * and the next. Canal's events name database {@code db1} and table {@code t1}, as Flink's serializer does not.
     */
    private static List<byte[]> events(EventCase c) {
        Map<String, String> write = Map.of("timestamp-format.standard", c.standard(), "map-null-key.mode", "DROP");
        SerializationSchema<RowData> flink = ChangelogJsonOracle.open(ChangelogEnvelope.of(c.events().identifier()),
                c.type(), write);
        FlinkJsonOracle json = FlinkJsonOracle.of(c.type(), write);
        Map<String, String> leaveOutNulls = new HashMap<>(write);
        leaveOutNulls.put("encode.ignore-null-fields", "true");
        FlinkJsonOracle someFields = FlinkJsonOracle.of(c.type(), leaveOutNulls);
        Random random = new Random(c.seed());
        boolean canal = c.events() == DataOldEvents.CANAL;
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < c.rows().size(); i++) {
            GenericRowData row = c.rows().get(i);
            String next = utf8(json.serialize(c.rows().get((i + 1) % c.rows().size())));
            String event = switch (c.shapes().get(i)) {
                case FLINK -> utf8(flink.serialize(row));
                case UPDATE -> {
                    String old = utf8((random.nextBoolean() ? someFields : json).serialize(someOf(row, random)));
                    yield canal ? "{\"data\":[" + next + "],\"old\":[" + old + "],\"type\":\"UPDATE\"}"
                            : "{\"data\":" + next + ",\"old\":" + old + ",\"type\":\"update\"}";
                }
                default -> "{\"data\":[" + utf8(json.serialize(row)) + "," + next + "],\"type\":\""
                        + (random.nextBoolean() ? "INSERT" : "DELETE") + "\"}";
            };
            if (canal) {
                event = "{\"database\":\"db" + random.nextInt(10) + "\",\"table\":\"t1\"," + event.substring(1);
            }
            records.add(event.getBytes(StandardCharsets.UTF_8));
        }
        return records;
    }

    /** {@code row} with each field kept or made null at random. */
    private static GenericRowData someOf(GenericRowData row, Random random) {
        GenericRowData some = new GenericRowData(row.getArity());
        for (int f = 0; f < row.getArity(); f++) {
            some.setField(f, random.nextBoolean() ? row.getField(f) : null);
        }
        return some;
    }

    private static JsonDecodeCheck.Result check(EventCase c, Map<String, String> options, List<byte[]> records) {
        return JsonDecodeCheck.assertParity(c.events().identifier(), c.type(), options, records,
                FlinkDataOldDecodeOracle.of(c.events(), c.type(), options)::deserialize, KIND);
    }

    private static boolean holdsATimestampOutsideArrow(EventCase c, Map<String, String> options, List<byte[]> records) {
        FlinkDataOldDecodeOracle flink = FlinkDataOldDecodeOracle.of(c.events(), c.type(), options);
        for (byte[] record : records) {
            for (RowData row : flink.deserialize(record).rows()) {
                if (JsonDecodeProperties.beyondArrowNanos(row, c.type())) {
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
