package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.client.decode.KafkaMetadata;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.streaming.connectors.kafka.table.FlinkReadableMetadata;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.StringData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The {@code headers} column against Flink's own metadata converter ({@code KafkaDynamicSource}'s {@code
 * headers}, run on the same {@code ConsumerRecord}s): every record's entries equal, <em>in order</em>, Flink's
 * {@code GenericMapData.keyArray()/valueArray()}. Headers: none, repeated keys, null values, non-BMP and empty
 * keys, sizes across HashMap's resize thresholds, keys crowding one bucket of Flink's {@code StringData} hash
 * past 8 (the HashMap path).
 */
class HeadersColumnProperties {
    private static final AtomicLong RECORDS = new AtomicLong();
    private static final AtomicLong ENTRIES = new AtomicLong();
    private static final List<String> CROWDED = crowded(24);

    @Test
    void sizesAcrossResizeThresholdsAndCrowdedBuckets() {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int n : new int[] {0, 1, 8, 9, 12, 13, 24, 25, 48, 49, 129, 200}) {
            List<RecordHeader> headers = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                headers.add(new RecordHeader("h" + j, j % 5 == 0 ? null : bytes("v" + j)));
            }
            records.add(record(headers));
        }
        for (int n : new int[] {8, 9, 20, 24}) {
            List<RecordHeader> headers = new ArrayList<>();
            CROWDED.subList(0, n).forEach(k -> headers.add(new RecordHeader(k, bytes(k))));
            headers.add(new RecordHeader(CROWDED.get(0), bytes("again"))); // a repeat in the crowded bucket
            records.add(record(headers));
        }
        records.add(record(List.of(new RecordHeader("a", bytes("1")), new RecordHeader("a", null))));
        records.add(record(List.of(new RecordHeader("a", null), new RecordHeader("b", bytes("")),
                new RecordHeader("a", bytes("2")), new RecordHeader("", bytes("e")))));
        assertSameAsFlink(records);
    }

    @Property(tries = 200)
    void randomHeadersAreInFlinksOrder(@ForAll long seed) {
        Random random = new Random(seed);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 1 + random.nextInt(20); i > 0; i--) {
            int n = random.nextInt(4) == 0 ? 0 : random.nextInt(random.nextBoolean() ? 8 : 60);
            int pool = 1 + random.nextInt(40); // a small pool repeats keys
            List<RecordHeader> headers = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                String key = switch (random.nextInt(4)) {
                    case 0 -> CROWDED.get(random.nextInt(CROWDED.size()));
                    case 1 -> new String(Character.toChars(0x1F600 + random.nextInt(pool))) + "ü";
                    default -> "k" + random.nextInt(pool);
                };
                byte[] value = random.nextInt(6) == 0 ? null : new byte[random.nextInt(5)];
                if (value != null) {
                    random.nextBytes(value);
                }
                headers.add(new RecordHeader(key, value));
            }
            records.add(record(headers));
        }
        assertSameAsFlink(records);
    }

    @AfterContainer
    static void comparedEnough() {
        if (RECORDS.get() > 0) {
            assertThat(RECORDS.get()).as("records compared").isGreaterThan(1_000);
            assertThat(ENTRIES.get()).as("map entries compared").isGreaterThan(10_000);
        }
    }

    private static void assertSameAsFlink(List<ConsumerRecord<byte[], byte[]>> records) {
        ConsumerRecord<?, ?>[] array = records.toArray(new ConsumerRecord<?, ?>[0]);
        try (BufferAllocator allocator = new RootAllocator();
                MapVector vector = (MapVector) ArrowLayout.field("h", KafkaMetadata.HEADERS.type(),
                        ArrowLayout.NanoTimestamps.ARROW_NANOSECOND).createVector(allocator)) {
            KafkaMetadata.HEADERS.fill(vector, array, array.length);
            StructVector entries = (StructVector) vector.getDataVector();
            VarCharVector keys = (VarCharVector) entries.getChildByOrdinal(0);
            VarBinaryVector values = (VarBinaryVector) entries.getChildByOrdinal(1);
            for (int row = 0; row < array.length; row++) {
                MapData flink = (MapData) FlinkReadableMetadata.read("headers", array[row]);
                List<String> expected = new ArrayList<>();
                ArrayData flinkKeys = flink.keyArray();
                ArrayData flinkValues = flink.valueArray();
                for (int k = 0; k < flink.size(); k++) {
                    expected.add(entry(flinkKeys.getString(k).toBytes(),
                            flinkValues.isNullAt(k) ? null : flinkValues.getBinary(k)));
                }
                List<String> actual = new ArrayList<>();
                for (int k = vector.getElementStartIndex(row); k < vector.getElementEndIndex(row); k++) {
                    actual.add(entry(keys.get(k), values.isNull(k) ? null : values.get(k)));
                }
                assertThat(actual).as("record %d", row).isEqualTo(expected);
                RECORDS.incrementAndGet();
                ENTRIES.addAndGet(expected.size());
            }
        }
    }

    private static String entry(byte[] key, byte[] value) {
        return new String(key, StandardCharsets.UTF_8) + "=" + (value == null ? "null" : HexFormat.of().formatHex(value));
    }

    private static ConsumerRecord<byte[], byte[]> record(List<RecordHeader> headers) {
        return new ConsumerRecord<>("t", 0, 0L, 0L, TimestampType.CREATE_TIME, 0, 0, null, new byte[0],
                new RecordHeaders(headers.toArray(new RecordHeader[0])), Optional.empty());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Keys sharing one of the 16 first buckets of Flink's {@code HashMap<StringData, ...>}, by Flink's hash. */
    private static List<String> crowded(int count) {
        List<String> keys = new ArrayList<>();
        int target = bucket("x0");
        for (int i = 0; keys.size() < count; i++) {
            if (bucket("x" + i) == target) {
                keys.add("x" + i);
            }
        }
        return keys;
    }

    private static int bucket(String key) {
        int h = StringData.fromString(key).hashCode();
        return (h ^ h >>> 16) & 15;
    }
}
