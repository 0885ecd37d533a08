package io.columnarkafka.format.avro.parity;

import static io.columnarkafka.format.arrow.FlinkValues.array;
import static io.columnarkafka.format.arrow.FlinkValues.map;
import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.parity.EdgeValues;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** Fixed adversarial corpus: every type Flink's Avro format writes, both timestamp mappings, byte-identical. */
class AvroParityCorpusTest {
    static final ParityCheck PARITY = FlinkAvroOracle.check();
    static final Map<String, String> LEGACY = Map.of();
    static final Map<String, String> MODERN = Map.of("timestamp_mapping.legacy", "false");

    static final String SCALAR_COLUMNS = "b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT,"
            + " f FLOAT, d DOUBLE, d52 DECIMAL(5, 2), d100 DECIMAL(10, 0), d102 DECIMAL(10, 2), d180 DECIMAL(18, 0),"
            + " d182 DECIMAL(18, 2), d190 DECIMAL(19, 0), d380 DECIMAL(38, 0), d3810 DECIMAL(38, 10),"
            + " d3838 DECIMAL(38, 38), c CHAR(5), s STRING, vb BYTES, bin BINARY(3), dt DATE, t0 TIME(0), t3 TIME(3),"
            + " ts0 TIMESTAMP(0), ts1 TIMESTAMP(1), ts3 TIMESTAMP(3), nn INT NOT NULL, nns STRING NOT NULL";
    static final RowType LEGACY_SCALARS = RowTypes.parse("ROW<" + SCALAR_COLUMNS + ">");
    static final RowType MODERN_SCALARS = RowTypes.parse("ROW<" + SCALAR_COLUMNS
            + ", ts4 TIMESTAMP(4), ts6 TIMESTAMP(6), l0 TIMESTAMP_LTZ(0), l3 TIMESTAMP_LTZ(3), l5 TIMESTAMP_LTZ(5),"
            + " l6 TIMESTAMP_LTZ(6)>");

    static final RowType NESTED = RowTypes.parse("ROW<id INT NOT NULL,"
            + " a ARRAY<ROW<m MAP<STRING, ARRAY<ROW<x INT, ts TIMESTAMP(3), d DECIMAL(38, 38), s STRING, f DOUBLE>>>,"
            + " n ROW<b BYTES, dt DATE>>>,"
            + " ms MULTISET<STRING>, mm MAP<STRING, MAP<VARCHAR(5), ROW<v FLOAT, t TIME(0)>>>,"
            + " r ROW<r ROW<r ROW<s STRING, a ARRAY<ARRAY<DATE>>, dd DECIMAL(10, 2)>>>,"
            + " ai ARRAY<INT NOT NULL>, am ARRAY<MAP<VARCHAR(3), TIMESTAMP(3)>>, ks MAP<CHAR(2), BOOLEAN>,"
            + " nr ROW<x BIGINT NOT NULL, y ARRAY<MULTISET<STRING>>> NOT NULL,"
            + " ab ARRAY<BYTES>, mn MAP<STRING NOT NULL, BIGINT NOT NULL>>");

    /** Rows cycling every column through its edge values, then an all-null row (NOT NULL columns set). */
    static List<RowData> edgeRows(RowType type) {
        List<List<Object>> values = new ArrayList<>();
        int longest = 0;
        for (LogicalType field : type.getChildren()) {
            List<Object> edge = EdgeValues.of(field);
            values.add(edge);
            longest = Math.max(longest, edge.size());
        }
        List<RowData> rows = new ArrayList<>();
        for (int r = 0; r < longest; r++) {
            GenericRowData row = new GenericRowData(type.getFieldCount());
            for (int c = 0; c < values.size(); c++) {
                row.setField(c, values.get(c).get(r % values.get(c).size()));
            }
            rows.add(row);
        }
        GenericRowData nulls = new GenericRowData(type.getFieldCount());
        for (int c = 0; c < type.getFieldCount(); c++) {
            if (!type.getTypeAt(c).isNullable()) {
                nulls.setField(c, values.get(c).get(0));
            }
        }
        rows.add(nulls);
        return rows;
    }

    @Test
    void scalarEdgesUnderTheLegacyMapping() {
        PARITY.assertParity(LEGACY_SCALARS, edgeRows(LEGACY_SCALARS), LEGACY);
    }

    @Test
    void scalarEdgesUnderTheModernMappingWriteMillisEvenForMicros() {
        PARITY.assertParity(MODERN_SCALARS, edgeRows(MODERN_SCALARS), MODERN);
    }

    @Test
    void aNotNullRowTypeHasNoUnionByteANullableOneHas() {
        RowType nullable = RowTypes.parse("ROW<i INT, s STRING NOT NULL>");
        RowType notNull = (RowType) nullable.copy(false);
        List<RowData> rows = List.of(row(1, str("x")), row(null, str("")));
        PARITY.assertParity(nullable, rows, LEGACY);
        PARITY.assertParity(notNull, rows, LEGACY);
        assertThat(FlinkAvroOracle.open(nullable, LEGACY).serialize(rows.get(0))).startsWith(2, 2, 2);
        assertThat(FlinkAvroOracle.open(notNull, LEGACY).serialize(rows.get(0))).startsWith(2, 2, 2, 'x');
    }

    @Test
    void nestedTypesWithRandomValues() {
        RandomValues random = new RandomValues(11, false);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(random.row(NESTED));
        }
        PARITY.assertParity(NESTED, rows, LEGACY);
        PARITY.assertParity(NESTED, rows, MODERN);
    }

    @Test
    void mapOrderIsFlinksHashMapOrder() {
        RowType type = RowTypes.parse("ROW<m MAP<STRING, INT>, s MULTISET<STRING>>");
        List<RowData> rows = new ArrayList<>();
        // sizes across HashMap capacity steps, keys with non-ASCII, non-BMP and colliding hashes ("Aa" / "BB")
        for (int size : new int[] {0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 24, 25, 48, 49, 100, 300}) {
            Map<Object, Object> m = new LinkedHashMap<>();
            for (int k = 0; k < size; k++) {
                String key = switch (k % 5) {
                    case 0 -> "k" + k;
                    case 1 -> "\u00e9\u4e2d" + k;
                    case 2 -> "\uD83D\uDE00" + k;
                    case 3 -> k % 2 == 0 ? "Aa" + k : "BB" + k;
                    default -> EdgeValues.STRINGS.get(k % EdgeValues.STRINGS.size()) + k;
                };
                m.put(str(key), k);
            }
            rows.add(row(new GenericMapData(m), new GenericMapData(m)));
        }
        PARITY.assertParity(type, rows, LEGACY);
    }

    @Test
    void crowdedBucketsAndDuplicateKeysFollowHashMap() {
        RowType type = RowTypes.parse("ROW<m MAP<STRING, STRING>>");
        // "Aa" and "BB" share a hash, so concatenations of them all collide: one bucket of many keys
        List<String> colliding = new ArrayList<>();
        for (int bits = 0; bits < 32; bits++) {
            StringBuilder key = new StringBuilder();
            for (int b = 0; b < 5; b++) {
                key.append((bits >> b & 1) == 0 ? "Aa" : "BB");
            }
            colliding.add(key.toString());
        }
        List<RowData> rows = new ArrayList<>();
        for (int size : new int[] {2, 8, 9, 10, 20, 32}) {
            List<Object> kv = new ArrayList<>();
            for (int k = 0; k < size; k++) {
                kv.add(str(colliding.get(k)));
                kv.add(str("v" + k));
            }
            rows.add(row(map(kv.toArray())));
        }
        // a key repeated (possible in Arrow and in MapData): first position, last value
        rows.add(row(map(str("a"), str("1"), str("b"), str("2"), str("a"), str("3"), str("Aa"), null,
                str("BB"), str("4"), str("Aa"), str("5"))));
        PARITY.assertParity(type, rows, LEGACY);
    }

    @Test
    void malformedUtf8IsDecodedAndReencodedAsFlinkDoes() {
        RowType type = RowTypes.parse("ROW<s STRING, a ARRAY<STRING>, m MAP<STRING, STRING>>");
        StringData bad = EdgeValues.invalidUtf8();
        StringData surrogate = BinaryStringData.fromBytes(new byte[] {'x', (byte) 0xED, (byte) 0xA0, (byte) 0x80});
        StringData overlong = BinaryStringData.fromBytes(new byte[] {(byte) 0xC0, (byte) 0xAF, 'y'});
        PARITY.assertParity(type, List.of(
                row(bad, array(bad, str("ok")), map(bad, bad, str("k"), str("v"))),
                row(surrogate, array(overlong), map(surrogate, overlong)),
                row(str("\u00e9"), array(str("plain")), map(str("k"), surrogate))), LEGACY);
    }

    @Test
    void keyProjectionUsesTheStrippedNames() {
        RowType batch = RowTypes.parse("ROW<k_id BIGINT, v DOUBLE, k_name STRING, payload ARRAY<ROW<x INT>>,"
                + " k_ts TIMESTAMP(3)>");
        Projection key = Projection.of(batch, 4, 0, 2).withNames(List.of("ts", "id", "name"));
        Projection value = Projection.of(batch, 1, 3);
        RandomValues random = new RandomValues(7, false);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            rows.add(random.row(batch));
        }
        PARITY.assertParity(key, rows, LEGACY);
        PARITY.assertParity(value, rows, MODERN);
    }

    @Test
    void aNullMapKeyIsRejectedAsFlinkRejectsIt() {
        RowType type = RowTypes.parse("ROW<i INT, m MAP<STRING, INT>>");
        PARITY.assertParityAsGiven(type, List.of(row(1, map(str("a"), 1)), row(2, map(null, 2))), LEGACY);
    }

    /**
     * A known difference, pinned: on a {@code BinaryRowData} (what Flink's planner hands a sink) Flink's
     * Avro serializer does not reject a null map key, because {@code BinaryArrayData.getString} of a null
     * element reads an empty string; it writes the key {@code ""}. The columnar encoder rejects the null key
     * whichever row class the batch came from. If this test fails, Flink changed and the encoder can follow.
     */
    @Test
    void onABinaryRowFlinkWritesANullMapKeyAsAnEmptyStringWhereTheEncoderRejectsIt() {
        RowType type = RowTypes.parse("ROW<i INT, m MAP<STRING, INT>>");
        RowData binary = new org.apache.flink.table.runtime.typeutils.RowDataSerializer(type)
                .toBinaryRow(row(2, map(null, 2))).copy();
        byte[] flink = FlinkAvroOracle.open(type, LEGACY).serialize(binary);
        byte[] emptyKey = FlinkAvroOracle.open(type, LEGACY).serialize(row(2, map(str(""), 2)));
        assertThat(flink).isEqualTo(emptyKey);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(binary);
            assertThatThrownBy(() -> Formats.encoder("avro", Projection.all(type), LEGACY).encode(writer.finish()))
                    .isInstanceOf(EncodeException.class)
                    .hasMessageContaining("map has a null key");
        }
    }

    @Test
    void aNullInANotNullColumnIsRejected() {
        RowType type = RowTypes.parse("ROW<i INT NOT NULL>");
        RowType nullable = RowTypes.parse("ROW<i INT>");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(nullable, allocator)) {
            writer.write(row(1));
            writer.write(row((Object) null));
            var encoder = Formats.encoder("avro", Projection.all(type), LEGACY);
            assertThatThrownBy(() -> FlinkAvroOracle.open(type, LEGACY).serialize(row((Object) null)))
                    .isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> encoder.encode(writer.finish()))
                    .isInstanceOfSatisfying(EncodeException.class, e -> {
                        assertThat(e.row()).isEqualTo(1);
                        assertThat(e.column()).isEqualTo("i");
                    });
        }
    }

    @Test
    void emptyBatchHasNoRecords() {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(NESTED, allocator)) {
            RecordSlab slab = Formats.encoder("avro", Projection.all(NESTED), LEGACY).encode(writer.finish());
            assertThat(slab.recordCount()).isZero();
        }
    }

    @Test
    void unknownOptionsAndJsonEncodingAreRejected() {
        RowType type = RowTypes.parse("ROW<i INT>");
        assertThatThrownBy(() -> Formats.encoder("avro", Projection.all(type), Map.of("encoding", "json")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("encoding");
        assertThatThrownBy(() -> Formats.encoder("avro", Projection.all(type), Map.of("timestamp-mapping", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timestamp-mapping");
    }

    @Test
    void intervalsAreRejectedAsFlinkRejectsThem() {
        RowType type = (RowType) EdgeValues.INTERVALS.copy(false);
        assertThatThrownBy(() -> FlinkAvroOracle.open(type, Map.of()).serialize(EdgeValues.intervalRows().get(0)))
                .as("Flink's avro").hasMessage("Unsupported to derive Schema for type: INTERVAL YEAR(2) TO MONTH");
        assertThatThrownBy(() -> Formats.encoder("avro", Projection.all(type), Map.of()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("Unsupported to derive Schema for type: INTERVAL YEAR(2) TO MONTH");
    }
}
