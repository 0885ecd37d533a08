package io.columnarkafka.format.avro.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * The {@code avro} decoder value for value against Flink 2.2.1's {@code AvroRowDataDeserializationSchema}:
 * records Flink's serializer wrote (every scalar type, both timestamp mappings, nested rows and arrays,
 * nulls at every level, a nullable top-level row), every prefix of them (truncated bodies), corrupted
 * bytes and random mutations.
 */
class AvroDecoderParityTest {
    static final DecoderParityCheck AVRO = FlinkAvroOracle.decodeCheck();
    static final RowType NESTED = RowTypes.parse("ROW<id INT NOT NULL,"
            + " a ARRAY<ROW<x INT, ts TIMESTAMP(3), d DECIMAL(38, 38), s STRING, f DOUBLE, n ROW<b BYTES, dt DATE>>>,"
            + " r ROW<r ROW<r ROW<s STRING, a ARRAY<ARRAY<DATE>>, dd DECIMAL(10, 2)>>>,"
            + " ai ARRAY<INT NOT NULL>, nr ROW<x BIGINT NOT NULL, y ARRAY<STRING>> NOT NULL, ab ARRAY<BYTES>>");
    /**
     * The scalar types, for records whose bytes are mutated: a changed timestamp may carry milliseconds,
     * which a precision-0 column keeps as Flink does ({@link #millisecondsOfAPrecisionZeroTimestampAreKept}).
     */
    static final RowType LEGACY_MUTABLE = AvroParityCorpusTest.LEGACY_SCALARS;
    static final RowType MODERN_MUTABLE = AvroParityCorpusTest.MODERN_SCALARS;
    private static final AtomicLong TRIES = new AtomicLong();
    private static final AtomicLong ROWS = new AtomicLong();
    private static final AtomicLong REJECTED = new AtomicLong();

    static List<byte[]> written(RowType type, List<RowData> rows, Map<String, String> options) {
        ParityCheck.Oracle serializer = FlinkAvroOracle.open(type, options);
        List<byte[]> records = new ArrayList<>();
        rows.forEach(row -> records.add(serializer.serialize(row)));
        return records;
    }

    @Test
    void everyScalarTypeInBothTimestampMappings() {
        for (Map<String, String> options : List.of(AvroParityCorpusTest.LEGACY, AvroParityCorpusTest.MODERN)) {
            RowType type = options.isEmpty() ? AvroParityCorpusTest.LEGACY_SCALARS : AvroParityCorpusTest.MODERN_SCALARS;
            List<RowData> rows = AvroParityCorpusTest.edgeRows(type);
            List<byte[]> records = written(type, rows, options);
            records.add(null);
            DecoderParityCheck.Result result = AVRO.assertParity(type, options, records);
            assertThat(result.comparedRows()).isEqualTo(rows.size());
        }
    }

    @Test
    void nestedRowsAndArraysWithNullsEverywhere() {
        RandomValues random = new RandomValues(7, false);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            rows.add(random.row(NESTED));
        }
        DecoderParityCheck.Result result = AVRO.assertParity(NESTED, Map.of(), written(NESTED, rows, Map.of()));
        assertThat(result.comparedRows()).isEqualTo(200);
    }

    @Test
    void nullableTopLevelRowReadsTheUnionBranch() {
        RowType type = (RowType) RowTypes.parse("ROW<a INT, s STRING>").copy(true);
        List<byte[]> records = new ArrayList<>(written(type, new RandomValues(3, false).rows(type, 20), Map.of()));
        records.add(new byte[] {0}); // the null branch: Flink's converter fails on it
        records.add(new byte[] {4}); // branch 2 of a 2-branch union
        DecoderParityCheck.Result result = AVRO.assertParity(type, Map.of(), records);
        assertThat(result.comparedRows()).isEqualTo(20);
        assertThat(result.rejectedRecords()).isEqualTo(2);
    }

    @Test
    void truncatedAndCorruptBodiesAreRejectedAsFlinkRejectsThem() {
        for (RowType type : List.of(LEGACY_MUTABLE, NESTED)) {
            List<RowData> rows = new RandomValues(11, false).rows(type, 6);
            List<byte[]> records = new ArrayList<>();
            Random random = new Random(5);
            for (byte[] record : written(type, rows, Map.of())) {
                for (int cut = 0; cut < record.length; cut++) {
                    records.add(Arrays.copyOf(record, cut));
                }
                for (int k = 0; k < 20; k++) {
                    byte[] corrupt = record.clone();
                    corrupt[random.nextInt(corrupt.length)] = (byte) random.nextInt(256);
                    records.add(corrupt);
                }
                records.add(Arrays.copyOf(record, record.length + 3)); // trailing bytes are ignored
            }
            records.add(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
            records.add(new byte[0]);
            DecoderParityCheck.Result result = AVRO.assertParity(type, Map.of(), records);
            assertThat(result.rejectedRecords()).isGreaterThan(records.size() / 3);
            assertThat(result.comparedRows()).isGreaterThan(20);
        }
    }

    /** Flink keeps the milliseconds of a TIMESTAMP(0) value, and so does the Arrow MILLISECOND column. */
    @Test
    void millisecondsOfAPrecisionZeroTimestampAreKept() throws Exception {
        RowType type = RowTypes.parse("ROW<ts0 TIMESTAMP(0) NOT NULL>");
        // TIMESTAMP(3) has the same Avro schema (timestamp-millis): Flink writes the milliseconds.
        byte[] record = FlinkAvroOracle.open(RowTypes.parse("ROW<ts0 TIMESTAMP(3) NOT NULL>"), Map.of())
                .serialize(org.apache.flink.table.data.GenericRowData.of(
                        io.columnarkafka.format.arrow.FlinkValues.ts("1969-12-31T23:59:58.999")));
        RowData flink = FlinkAvroOracle.deserializer(type, Map.of()).deserialize(record);
        long millis = flink.getTimestamp(0, 0).getMillisecond();
        assertThat(millis % 1000).as("Flink keeps the milliseconds").isNotZero();
        try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                io.columnarkafka.format.DecodedBatch batch = Formats.decoder("avro", type, Map.of())
                        .decode(DecoderParityCheck.views(List.of(record)), allocator)) {
            assertThat(((org.apache.arrow.vector.TimeStampVector) batch.root().getVector(0)).get(0))
                    .isEqualTo(millis);
        }
    }

    @Test
    void refusesWhatFlinkRefuses() {
        for (String t : List.of("TIMESTAMP_LTZ(3)", "TIMESTAMP(6)", "TIME(6)")) {
            RowType type = RowTypes.parse("ROW<v " + t + ">");
            assertThatThrownBy(() -> FlinkAvroOracle.deserializer(type, Map.of())).as("Flink refuses %s", t)
                    .isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> Formats.decoder("avro", type, Map.of())).as(t).isInstanceOf(RuntimeException.class);
        }
        for (String t : List.of("MAP<INT, INT>", "MULTISET<INT>")) {
            RowType type = RowTypes.parse("ROW<v " + t + ">");
            assertThatThrownBy(() -> FlinkAvroOracle.deserializer(type, Map.of())).as("Flink refuses %s", t)
                    .isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> Formats.decoder("avro", type, Map.of())).as(t).isInstanceOf(RuntimeException.class);
        }
    }

    /** Random rows of the scalar and nested types, Flink-written, some records cut or with a byte changed. */
    @Property(tries = 300)
    void randomRecordsDecodeAsFlinkDecodesThem(@ForAll long seed) {
        Random random = new Random(seed);
        boolean modern = random.nextBoolean();
        Map<String, String> options = modern ? AvroParityCorpusTest.MODERN : AvroParityCorpusTest.LEGACY;
        RowType type = random.nextBoolean() ? NESTED : modern ? MODERN_MUTABLE : LEGACY_MUTABLE;
        List<byte[]> records = new ArrayList<>();
        for (byte[] record : written(type, new RandomValues(seed, false).rows(type, 1 + random.nextInt(10)), options)) {
            if (random.nextInt(4) == 0 && record.length > 0) {
                record = random.nextBoolean() ? Arrays.copyOf(record, random.nextInt(record.length)) : record.clone();
                if (record.length > 0) {
                    record[random.nextInt(record.length)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            records.add(record);
        }
        DecoderParityCheck.Result result = AVRO.assertParity(type, options, records);
        TRIES.incrementAndGet();
        ROWS.addAndGet(result.comparedRows());
        REJECTED.addAndGet(result.rejectedRecords());
    }

    @AfterContainer
    static void comparedEnough() {
        if (TRIES.get() > 0) {
            assertThat(ROWS.get()).as("rows compared").isGreaterThan(800);
            assertThat(REJECTED.get()).as("records both rejected").isGreaterThan(20);
        }
    }
}
