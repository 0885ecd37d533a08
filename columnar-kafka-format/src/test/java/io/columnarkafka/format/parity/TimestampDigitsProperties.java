package io.columnarkafka.format.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.avro.parity.FlinkAvroOracle;
import io.columnarkafka.format.csv.parity.FlinkCsvOracle;
import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle;
import io.columnarkafka.format.json.parity.FlinkJsonOracle;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Timestamp digits on the scan path, with Flink 2.2's deserializers as the oracle on the same bytes.
 *
 * <p>The facts ({@link #whatFlinksDeserializersAndRowsKeep}): Flink's json ({@code JsonParserRowDataDeserializationSchema},
 * both {@code timestamp-format.standard}s) and csv deserializers put every fraction digit of the text (up to
 * nine) into the {@code TimestampData}, whatever the declared precision 0–9, TIMESTAMP and TIMESTAMP_LTZ alike;
 * {@code RowDataSerializer.copy} (a chained operator without object reuse) keeps them all; Flink's {@code
 * BinaryRowData} (state, network, collect) keeps epoch milliseconds for precision 0–3 (a compact timestamp)
 * and all nine digits for 4–9. avro: Flink's serializer writes a value's milliseconds (as micros under a
 * micros schema, precision 4–6), so what it wrote comes back as milliseconds; the legacy mapping refuses
 * precision above 3.
 *
 * <p>The property: a value decoded by the columnar decoder and read through the row view ({@link
 * ArrowRowView}, the {@code ColumnarRowData} a SQL scan hands Flink) is the value of Flink's deserialized row
 * (json and csv: every digit of the text, carried as millis + nanos of the milli), for every shape a SQL scan
 * admits (json and csv precision 0–9, avro 0–6), over year 0001–9999 with zero to nine fraction digits; and
 * the decoded batch, encoded again in the same format, gives the bytes Flink's serializer writes for that row
 * (Kafka in, Kafka out, as a chained stock job writes them: {@code TimestampDigitsSqlITCase}). Where a row
 * later goes through a binary row, Flink's own {@code BinaryRowWriter} drops what it drops from both alike.
 */
class TimestampDigitsProperties {
    private static final AtomicLong COMPARED = new AtomicLong();
    private static final AtomicLong EXTRA_DIGITS = new AtomicLong();
    private static final AtomicLong PRECISION_ZERO_WITH_MILLIS = new AtomicLong();
    private static final AtomicLong BEFORE_1970 = new AtomicLong();
    private static final AtomicLong YEAR_9999 = new AtomicLong();
    private static final AtomicLong ENCODED = new AtomicLong();

    private static final long MIN_SECOND = LocalDateTime.parse("0001-01-01T00:00:00").toEpochSecond(ZoneOffset.UTC);
    private static final long MAX_SECOND = LocalDateTime.parse("9999-12-31T23:59:59").toEpochSecond(ZoneOffset.UTC);

    /** A format as a SQL scan configures it: name, options and how a value is written as a record. */
    enum Shape {
        JSON_SQL("json", Map.of()),
        JSON_ISO("json", Map.of("timestamp-format.standard", "ISO-8601")),
        CSV("csv", Map.of()),
        AVRO_LEGACY("avro", Map.of()),
        AVRO_MODERN("avro", Map.of("timestamp_mapping.legacy", "false"));

        final String format;
        final Map<String, String> options;

        Shape(String format, Map<String, String> options) {
            this.format = format;
            this.options = options;
        }

        /**
         * The precisions a SQL scan admits for this shape: json/csv all (every digit carried); avro up to 6
         * (Flink's legacy avro mapping refuses a precision above 3 itself).
         */
        int maxAdmittedPrecision() {
            return isText() ? 9 : this == AVRO_MODERN ? 6 : 3;
        }

        boolean isText() {
            return !format.equals("avro");
        }

        /** Flink's deserializer, opened as the SQL source opens it, on one record: its one row. */
        RowData deserialize(RowType type, byte[] record) {
            if (format.equals("json")) {
                FlinkJsonDecodeOracle.Outcome outcome = FlinkJsonDecodeOracle.of(type, options).deserialize(record);
                if (outcome.rejected()) {
                    throw new AssertionError("Flink rejects " + new String(record, StandardCharsets.UTF_8),
                            outcome.error());
                }
                assertThat(outcome.rows()).hasSize(1);
                return outcome.rows().get(0);
            }
            DecoderParityCheck.Outcome outcome = DecoderParityCheck.deserialize(format.equals("csv")
                    ? FlinkCsvOracle.deserializer(type, options) : FlinkAvroOracle.deserializer(type, options), record);
            if (outcome.rejected()) {
                throw new AssertionError(this + " rejects a record", outcome.rejection());
            }
            assertThat(outcome.rows()).hasSize(1);
            return outcome.rows().get(0);
        }

        ParityCheck.Oracle serializer(RowType type) {
            switch (format) {
                case "json":
                    return FlinkJsonOracle.of(type, options)::serialize;
                case "csv":
                    return FlinkCsvOracle.of(type, options);
                default:
                    return FlinkAvroOracle.open(type, options);
            }
        }

        /** The record for a timestamp with {@code digits} fraction digits of {@code value} (null: a null field). */
        byte[] record(RowType type, LocalDateTime value, int digits, boolean ltz) {
            if (!isText()) {
                GenericRowData row = GenericRowData.of(value == null ? null : TimestampData.fromLocalDateTime(value));
                return serializer(type).serialize(row);
            }
            if (value == null) {
                return (format.equals("json") ? "{\"ts\":null}" : "").getBytes(StandardCharsets.UTF_8);
            }
            String text = text(value, digits, this == JSON_ISO ? 'T' : ' ') + (ltz ? "Z" : "");
            return (format.equals("json") ? "{\"ts\":\"" + text + "\"}" : "\"" + text + "\"")
                    .getBytes(StandardCharsets.UTF_8);
        }
    }

    static String text(LocalDateTime value, int digits, char separator) {
        String nanos = String.format("%09d", value.getNano());
        return String.format("%04d-%02d-%02d%c%02d:%02d:%02d", value.getYear(), value.getMonthValue(),
                value.getDayOfMonth(), separator, value.getHour(), value.getMinute(), value.getSecond())
                + (digits == 0 ? "" : "." + nanos.substring(0, digits));
    }

    static RowType type(int precision, boolean ltz) {
        LogicalType ts = ltz ? new LocalZonedTimestampType(precision) : new TimestampType(precision);
        return new RowType(false, List.of(new RowType.RowField("ts", ts))); // NOT NULL, as Kafka's source gives it
    }

    /** What Flink's {@code BinaryRowData} keeps of {@code value} at {@code precision}: Flink's own writer. */
    static TimestampData binaryRowKeeps(TimestampData value, int precision) {
        BinaryRowData row = new BinaryRowData(1);
        BinaryRowWriter writer = new BinaryRowWriter(row);
        writer.writeTimestamp(0, value, precision);
        writer.complete();
        return row.getTimestamp(0, precision);
    }

    @Example
    void whatFlinksDeserializersAndRowsKeep() {
        LocalDateTime nine = LocalDateTime.parse("1969-12-31T23:59:59.123456789");
        TimestampData all = TimestampData.fromLocalDateTime(nine);
        int facts = 0;
        for (Shape shape : Shape.values()) {
            for (boolean ltz : new boolean[] {false, true}) {
                for (int precision = 0; precision <= shape.maxAdmittedPrecision(); precision++) {
                    if (shape == Shape.AVRO_LEGACY && ltz) {
                        continue; // Flink's legacy avro mapping has no TIMESTAMP_LTZ
                    }
                    RowType type = type(precision, ltz);
                    RowData row = shape.deserialize(type, shape.record(type, nine, 9, ltz));
                    TimestampData flink = row.getTimestamp(0, precision);
                    TimestampData kept = binaryRowKeeps(flink, precision);
                    String at = shape + " " + type.asSummaryString();
                    if (shape.isText()) {
                        assertThat(flink).as("%s: the deserializer keeps all nine digits", at).isEqualTo(all);
                    } else {
                        assertThat(flink).as("%s: Flink's avro serializer writes the milliseconds only", at)
                                .isEqualTo(TimestampData.fromEpochMillis(all.getMillisecond()));
                    }
                    assertThat(new RowDataSerializer(type).copy(row).getTimestamp(0, precision))
                            .as("%s: a chained copy keeps the deserializer's value", at).isEqualTo(flink);
                    assertThat(kept).as("%s: the binary row", at).isEqualTo(precision <= 3
                            ? TimestampData.fromEpochMillis(flink.getMillisecond()) : flink);
                    facts++;
                }
            }
        }
        assertThat(facts).isEqualTo(3 * 2 * 10 + 4 + 2 * 7);
    }

    /** One batch: a shape, a column type and its values with their fraction digits. */
    record Case(Shape shape, int precision, boolean ltz, List<LocalDateTime> values, List<Integer> digits) {}

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<LocalDateTime> value = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Combinators.combine(Arbitraries.longs().between(MIN_SECOND, MAX_SECOND),
                        Arbitraries.integers().between(0, 999_999_999))
                        .as((s, n) -> LocalDateTime.ofEpochSecond(s, n, ZoneOffset.UTC))),
                net.jqwik.api.Tuple.of(3, Combinators.combine(Arbitraries.longs().between(-86_400L * 3, 86_400L),
                        Arbitraries.integers().between(0, 999_999_999))
                        .as((s, n) -> LocalDateTime.ofEpochSecond(s, n, ZoneOffset.UTC))),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(LocalDateTime.parse("9999-12-31T23:59:59.999999999"),
                        LocalDateTime.parse("0001-01-01T00:00:00"), LocalDateTime.parse("1969-12-31T23:59:59.999"),
                        LocalDateTime.parse("1677-09-21T00:12:43.145224191"))))
                .injectNull(0.08);
        return Arbitraries.of(Shape.values()).flatMap(shape -> Combinators.combine(
                Arbitraries.frequencyOf( // precision 0 more often: TIMESTAMP(0) keeps the text's milliseconds
                        net.jqwik.api.Tuple.of(1, Arbitraries.just(0)),
                        net.jqwik.api.Tuple.of(4, Arbitraries.integers().between(0, shape.maxAdmittedPrecision()))),
                shape == Shape.AVRO_LEGACY ? Arbitraries.just(false) : Arbitraries.of(false, true),
                value.list().ofMinSize(1).ofMaxSize(12),
                Arbitraries.integers().between(0, 9).list().ofSize(12))
                .as((precision, ltz, values, digits) -> new Case(shape, precision, ltz, values, digits)));
    }

    @Property(tries = 800)
    void aScannedTimestampIsWhatFlinksRowHolds(@ForAll("cases") Case c) throws Exception {
        RowType type = type(c.precision(), c.ltz());
        List<byte[]> records = new ArrayList<>();
        List<RowData> kept = new ArrayList<>();
        for (int i = 0; i < c.values().size(); i++) {
            LocalDateTime v = c.values().get(i) == null && c.shape() == Shape.CSV
                    ? LocalDateTime.parse("1900-01-01T00:00:00.5") : c.values().get(i); // a csv field has no null here
            byte[] record = c.shape().record(type, v, c.digits().get(i), c.ltz());
            records.add(record);
            RowData row = c.shape().deserialize(type, record);
            kept.add(new RowDataSerializer(type).copy(row)); // a chained operator's copy: what a stock job has
            if (v != null) {
                int digits = c.shape().isText() ? c.digits().get(i) : c.precision() <= 3 ? 3 : 6;
                EXTRA_DIGITS.addAndGet(digits > c.precision() && v.getNano() != 0 ? 1 : 0);
                PRECISION_ZERO_WITH_MILLIS.addAndGet(c.precision() == 0
                        && row.getTimestamp(0, 0).getMillisecond() % 1000 != 0 ? 1 : 0);
                BEFORE_1970.addAndGet(v.getYear() < 1970 ? 1 : 0);
                YEAR_9999.addAndGet(v.getYear() == 9999 ? 1 : 0);
            }
        }
        try (RootAllocator allocator = new RootAllocator();
                DecodedBatch batch = Formats.decoder(c.shape().format, type, c.shape().options)
                        .decode(DecoderParityCheck.views(records), allocator)) {
            assertThat(batch.rowCount()).isEqualTo(records.size());
            ArrowRowView view = new ArrowRowView(type);
            view.bind(batch.root());
            for (int i = 0; i < records.size(); i++) {
                RowData ours = view.row(i);
                RowData theirs = kept.get(i);
                assertThat(ours.isNullAt(0)).as("null at row %d", i).isEqualTo(theirs.isNullAt(0));
                if (!theirs.isNullAt(0)) {
                    assertThat(ours.getTimestamp(0, c.precision()))
                            .as("%s %s row %d: %s", c.shape(), type.asSummaryString(), i,
                                    new String(records.get(i), StandardCharsets.ISO_8859_1))
                            .isEqualTo(theirs.getTimestamp(0, c.precision()));
                    COMPARED.incrementAndGet();
                }
            }
            BatchEncoder encoder = Formats.encoder(c.shape().format, Projection.all(type), c.shape().options);
            RecordSlab slab = encoder.encode(batch.root());
            ParityCheck.Oracle serializer = c.shape().serializer(type);
            for (int i = 0; i < records.size(); i++) {
                assertThat(slab.copyRecord(i)).as("%s %s row %d re-encoded", c.shape(), type.asSummaryString(), i)
                        .isEqualTo(serializer.serialize(kept.get(i)));
                ENCODED.incrementAndGet();
            }
        }
    }

    @AfterContainer
    static void enoughWasCompared() {
        assertThat(COMPARED.get()).as("timestamps compared").isGreaterThanOrEqualTo(2_400);
        assertThat(EXTRA_DIGITS.get()).as("values with more digits than the precision").isGreaterThanOrEqualTo(1_000);
        assertThat(PRECISION_ZERO_WITH_MILLIS.get()).as("TIMESTAMP(0) values Flink keeps milliseconds of")
                .isGreaterThanOrEqualTo(100);
        assertThat(BEFORE_1970.get()).as("values before 1970").isGreaterThanOrEqualTo(1_000);
        assertThat(YEAR_9999.get()).as("values in year 9999").isGreaterThanOrEqualTo(50);
        assertThat(ENCODED.get()).as("records re-encoded").isGreaterThanOrEqualTo(2_400);
    }
}
