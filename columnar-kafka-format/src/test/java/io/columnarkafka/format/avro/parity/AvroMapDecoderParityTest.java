package io.columnarkafka.format.avro.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * Avro MAP and MULTISET columns against Flink 2.2.1's {@code AvroRowDataDeserializationSchema}, the entries
 * compared <em>in order</em>: the Arrow map's entry order must be the iteration order of the {@code
 * HashMap} Flink's converter builds ({@code GenericMapData.keyArray()/valueArray()}). Records are written by
 * Flink's serializer (sizes around HashMap's resize thresholds, 12/13, 24/25, 48/49 entries; keys colliding
 * in Avro's {@code Utf8} buckets or in Flink's {@code StringData} buckets, beyond 8 per bucket too; non-BMP
 * keys; null values; nested maps) and by hand (several blocks, negative block counts, repeated keys,
 * malformed UTF-8 keys that Flink merges), plus truncations.
 */
class AvroMapDecoderParityTest {
    static final DecoderParityCheck AVRO = FlinkAvroOracle.decodeCheck();
    static final RowType MAPS = RowTypes.parse("ROW<m MAP<STRING, INT>, ms MULTISET<STRING>,"
            + " n MAP<STRING NOT NULL, ROW<s STRING, a ARRAY<MAP<STRING, BIGINT>>>>, b MAP<STRING, BYTES> NOT NULL>");
    /** NOT NULL as the connector passes it: no union branch before the record. */
    static final RowType SIMPLE = (RowType) RowTypes.parse("ROW<m MAP<STRING, INT> NOT NULL>").copy(false);
    private static final int[] SIZES = {0, 1, 2, 8, 9, 12, 13, 16, 17, 24, 25, 48, 49, 100, 128, 129, 200};
    private static final AtomicLong TRIES = new AtomicLong();
    private static final AtomicLong ROWS = new AtomicLong();
    private static final AtomicLong ENTRIES = new AtomicLong();

    @Test
    void sizesAroundResizeThresholdsCollisionsAndNonBmpKeys() {
        List<RowData> rows = new ArrayList<>();
        Random random = new Random(1);
        for (int size : SIZES) {
            for (KeyKind kind : KeyKind.values()) {
                rows.add(GenericRowData.of(intMap(keys(kind, size, random), random, true), null, null,
                        new GenericMapData(Map.of())));
            }
        }
        List<byte[]> records = AvroDecoderParityTest.written(MAPS, rows, Map.of());
        assertThat(AVRO.assertParity(MAPS, Map.of(), records).comparedRows()).isEqualTo(rows.size());
    }

    /** Keys that share a bucket of 16 in Flink's own {@code StringData.hashCode()}, and Avro's Utf8 collisions. */
    @Test
    void collidingKeysAreTheOnesIntended() {
        List<String> flink = keys(KeyKind.FLINK_BUCKET, 12, new Random(1));
        assertThat(flink.stream().map(k -> bucket(StringData.fromString(k).hashCode())).distinct()).hasSize(1);
        List<String> avro = keys(KeyKind.UTF8_HASH, 12, new Random(1));
        assertThat(avro.stream().map(String::hashCode).distinct()).hasSize(1);
    }

    @Test
    void everyColumnShapeWithNullsAndNesting() {
        RandomValues values = new RandomValues(3, false);
        Random random = new Random(3);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            rows.add(randomRow(MAPS, values, random));
        }
        List<byte[]> records = AvroDecoderParityTest.written(MAPS, rows, Map.of());
        assertThat(AVRO.assertParity(MAPS, Map.of(), records).comparedRows()).isEqualTo(150);
        List<byte[]> cut = new ArrayList<>();
        for (byte[] record : records.subList(0, 10)) {
            for (int n = 0; n < record.length; n++) {
                cut.add(java.util.Arrays.copyOf(record, n));
            }
        }
        DecoderParityCheck.Result result = AVRO.assertParity(MAPS, Map.of(), cut);
        assertThat(result.rejectedRecords()).isGreaterThan(cut.size() / 2);
    }

    /** Bytes no Flink writer makes but Avro reads: several blocks, byte-size blocks, repeats, malformed keys. */
    @Test
    void handWrittenBlocksRepeatsAndMalformedKeys() {
        List<byte[]> records = new ArrayList<>();
        List<String> keys = keys(KeyKind.PLAIN, 40, new Random(5));
        for (int first : new int[] {1, 2, 3, 13, 25, 39}) { // Avro's HashMap is sized by the first block
            records.add(new AvroBytes().block(keys.subList(0, first), 0).block(keys.subList(first, 40), first).end());
        }
        records.add(new AvroBytes().sizedBlock(keys.subList(0, 20), 0).sizedBlock(keys.subList(20, 40), 20).end());
        records.add(new AvroBytes().block(List.of("a", "b", "a", "c", "b", "a"), 0).end()); // later value wins
        List<String> repeats = new ArrayList<>(keys.subList(0, 13));
        repeats.addAll(keys.subList(0, 13)); // 26 entries, 13 distinct: the resize counts distinct keys
        records.add(new AvroBytes().block(repeats, 0).end());
        records.add(new AvroBytes().block(keys(KeyKind.UTF8_HASH, 20, new Random(2)), 0).end());
        // 0xFF and 0xFE both read as U+FFFD in Flink: distinct Avro keys, one Flink key
        records.add(new AvroBytes().rawBlock(List.of(new byte[] {(byte) 0xFF}, "x".getBytes(StandardCharsets.UTF_8),
                new byte[] {(byte) 0xFE}, new byte[] {(byte) 0xC0, (byte) 0x80}, new byte[] {'a', (byte) 0xFF}), 0).end());
        records.add(new AvroBytes().block(List.of(), 0).end());
        DecoderParityCheck.Result result = AVRO.assertParity(SIMPLE, Map.of(), records);
        assertThat(result.comparedRows()).isEqualTo(records.size());
    }

    @Property(tries = 200)
    void randomMapsDecodeInFlinksOrder(@ForAll long seed) {
        Random random = new Random(seed);
        RandomValues values = new RandomValues(seed, false);
        List<RowData> rows = new ArrayList<>();
        for (int i = 1 + random.nextInt(6); i > 0; i--) {
            rows.add(randomRow(MAPS, values, random));
        }
        List<byte[]> records = AvroDecoderParityTest.written(MAPS, rows, Map.of());
        boolean cut = random.nextInt(4) == 0; // a record cut short fails as in Flink, the others decode
        if (cut) {
            byte[] record = records.get(0);
            records.set(0, java.util.Arrays.copyOf(record, random.nextInt(record.length)));
        }
        DecoderParityCheck.Result result = AVRO.assertParity(MAPS, Map.of(), records);
        assertThat(result.comparedRows()).isEqualTo(cut ? rows.size() - 1 : rows.size());
        TRIES.incrementAndGet();
        ROWS.addAndGet(result.comparedRows());
        for (int i = cut ? 1 : 0; i < rows.size(); i++) {
            ENTRIES.addAndGet(rows.get(i).isNullAt(0) ? 0 : rows.get(i).getMap(0).size());
        }
    }

    @AfterContainer
    static void comparedEnough() {
        if (TRIES.get() > 0) {
            assertThat(ROWS.get()).as("rows compared").isGreaterThan(500);
            assertThat(ENTRIES.get()).as("map entries of column m compared").isGreaterThan(5_000);
        }
    }

    private static GenericRowData randomRow(RowType type, RandomValues values, Random random) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        for (int f = 0; f < type.getFieldCount(); f++) {
            LogicalType t = type.getTypeAt(f);
            if (t.isNullable() && random.nextInt(8) == 0) {
                continue;
            }
            int size = random.nextInt(3) == 0 ? SIZES[random.nextInt(SIZES.length)] : random.nextInt(30);
            List<String> keys = keys(KeyKind.values()[random.nextInt(KeyKind.values().length)], size, random);
            LogicalType valueType = t instanceof MapType m ? m.getValueType() : null;
            Map<Object, Object> map = new LinkedHashMap<>();
            for (String key : keys) {
                map.put(StringData.fromString(key), t instanceof MultisetType ? 1 + random.nextInt(3) : values.value(valueType));
            }
            row.setField(f, new GenericMapData(map));
        }
        return row;
    }

    private static GenericMapData intMap(List<String> keys, Random random, boolean nulls) {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (String key : keys) {
            map.put(StringData.fromString(key), nulls && random.nextInt(5) == 0 ? null : random.nextInt());
        }
        return new GenericMapData(map);
    }

    enum KeyKind { PLAIN, NON_BMP, UTF8_HASH, FLINK_BUCKET }

    /** {@code size} distinct keys of a kind. */
    static List<String> keys(KeyKind kind, int size, Random random) {
        List<String> keys = new ArrayList<>();
        switch (kind) {
            case PLAIN -> {
                for (int i = 0; keys.size() < size; i++) {
                    keys.add(random.nextBoolean() ? "k" + i : "key-" + Integer.toHexString(random.nextInt()) + i);
                }
            }
            case NON_BMP -> {
                for (int i = 0; keys.size() < size; i++) {
                    keys.add(new String(Character.toChars(0x1F600 + i % 80)) + "é" + i);
                }
            }
            case UTF8_HASH -> { // "Aa" and "BB" hash alike, in String and in Avro's Utf8
                for (int i = 0; keys.size() < size; i++) {
                    StringBuilder b = new StringBuilder();
                    for (int bit = 0; bit < 8; bit++) {
                        b.append((i >> bit & 1) == 0 ? "Aa" : "BB");
                    }
                    keys.add(b.toString());
                }
            }
            case FLINK_BUCKET -> {
                int target = bucket(StringData.fromString("seed").hashCode());
                for (int i = 0; keys.size() < size; i++) {
                    String key = "c" + i;
                    if (bucket(StringData.fromString(key).hashCode()) == target) {
                        keys.add(key);
                    }
                }
            }
            default -> throw new AssertionError(kind);
        }
        return keys;
    }

    private static int bucket(int hash) {
        return (hash ^ hash >>> 16) & 15;
    }

    /** An Avro map of {@code SIMPLE}: NOT NULL map of nullable int values (each the entry's number). */
    static final class AvroBytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        AvroBytes block(List<String> keys, int firstValue) {
            List<byte[]> raw = new ArrayList<>();
            keys.forEach(k -> raw.add(k.getBytes(StandardCharsets.UTF_8)));
            return rawBlock(raw, firstValue);
        }

        AvroBytes rawBlock(List<byte[]> keys, int firstValue) {
            if (keys.isEmpty()) {
                return this;
            }
            varint(keys.size());
            entries(out, keys, firstValue);
            return this;
        }

        /** A block with a negative count followed by its byte size, as Avro's buffered writers may write. */
        AvroBytes sizedBlock(List<String> keys, int firstValue) {
            List<byte[]> raw = new ArrayList<>();
            keys.forEach(k -> raw.add(k.getBytes(StandardCharsets.UTF_8)));
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            entries(body, raw, firstValue);
            varint(-keys.size());
            varint(body.size());
            out.writeBytes(body.toByteArray());
            return this;
        }

        byte[] end() {
            varint(0);
            return out.toByteArray();
        }

        private static void entries(ByteArrayOutputStream to, List<byte[]> keys, int firstValue) {
            for (int i = 0; i < keys.size(); i++) {
                varint(to, keys.get(i).length);
                to.writeBytes(keys.get(i));
                varint(to, 1); // the int branch of ["null", "int"]
                varint(to, firstValue + i);
            }
        }

        private void varint(long v) {
            varint(out, v);
        }

        private static void varint(ByteArrayOutputStream to, long v) {
            long n = (v << 1) ^ (v >> 63);
            while ((n & ~0x7FL) != 0) {
                to.write((int) ((n & 0x7F) | 0x80));
                n >>>= 7;
            }
            to.write((int) n);
        }
    }
}
