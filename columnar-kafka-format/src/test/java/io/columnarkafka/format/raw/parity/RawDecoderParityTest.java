package io.columnarkafka.format.raw.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.parity.EdgeValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.raw.RawFormatDeserializationSchema;
import org.apache.flink.formats.raw.RawFormatSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code raw} decoder value for value against Flink 2.2.1's {@link RawFormatDeserializationSchema}
 * (flink-table-runtime): every type, charset and byte order of {@link RawParityCorpusTest}, records written
 * by Flink's serializer plus wrong sizes, empty and undecodable bytes and null records.
 */
class RawDecoderParityTest {
    static final DecoderParityCheck RAW = new DecoderParityCheck("raw", RawDecoderParityTest::oracle);
    private static final AtomicLong PROPERTY_TRIES = new AtomicLong();
    private static final AtomicLong PROPERTY_ROWS = new AtomicLong();
    private static final AtomicLong PROPERTY_REJECTED = new AtomicLong();

    static DeserializationSchema<RowData> oracle(RowType type, Map<String, String> options) {
        RawFormatDeserializationSchema schema = new RawFormatDeserializationSchema(type.getTypeAt(0),
                InternalTypeInfo.of(type), options.getOrDefault("charset", "UTF-8"),
                !options.getOrDefault("endianness", "big-endian").equals("little-endian"));
        try {
            schema.open(null); // open() only opens the string converter; it does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema;
    }

    /** Flink's bytes of {@code value} as the raw format writes it. */
    private static byte[] serialize(LogicalType type, Map<String, String> options, Object value) {
        RawFormatSerializationSchema schema = new RawFormatSerializationSchema(type,
                options.getOrDefault("charset", "UTF-8"),
                !options.getOrDefault("endianness", "big-endian").equals("little-endian"));
        try {
            schema.open(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema.serialize(GenericRowData.of(value));
    }

    /** Records of every edge value written by Flink, a null record, and byte strings of every length to 9. */
    private static List<byte[]> records(LogicalType type, Map<String, String> options) {
        List<byte[]> records = new ArrayList<>();
        for (Object value : EdgeValues.of(type)) {
            records.add(serialize(type, options, value));
        }
        records.add(null);
        records.add(EdgeValues.invalidUtf8().toBytes());
        for (int length = 0; length <= 9; length++) {
            byte[] bytes = new byte[length];
            for (int i = 0; i < length; i++) {
                bytes[i] = (byte) (0x80 + 37 * i + length);
            }
            records.add(bytes);
        }
        records.add(new byte[] {(byte) 0xFE, (byte) 0xFF, 0, 'a', (byte) 0xD8, 0x3D});
        return records;
    }

    @ParameterizedTest
    @MethodSource("io.columnarkafka.format.raw.parity.RawParityCorpusTest#types")
    void everyTypeInEveryOption(String typeName) {
        RowType type = RowTypes.parse("ROW<v " + typeName + ">");
        RawParityCorpusTest.options().forEach(options -> {
            List<byte[]> records = records(type.getTypeAt(0), options);
            DecoderParityCheck.Result result = RAW.assertParity(type, options, records);
            // Every record yields a row unless Flink refused its size; a null record is a row with a null value.
            assertThat(result.comparedRows() + result.rejectedRecords()).isEqualTo(records.size());
            assertThat(result.recordsWithoutRows()).isZero();
        });
    }

    @Test
    void nullRecordIsARowWithANullValueAsInFlink() {
        for (String typeName : List.of("INT", "STRING", "BYTES", "BOOLEAN", "DOUBLE")) {
            RowType type = RowTypes.parse("ROW<v " + typeName + ">");
            DecoderParityCheck.Result result = RAW.assertParity(type, Map.of(), java.util.Arrays.asList(null, null));
            assertThat(result.comparedRows()).isEqualTo(2);
            assertThat(result.outcomes().get(0).rows().get(0).isNullAt(0)).isTrue();
        }
    }

    @Test
    void wrongSizesAreRejectedWithFlinksMessage() {
        Map<String, Integer> widths = Map.of("BOOLEAN", 1, "TINYINT", 1, "SMALLINT", 2, "INT", 4, "BIGINT", 8,
                "FLOAT", 4, "DOUBLE", 8);
        widths.forEach((typeName, width) -> {
            RowType type = RowTypes.parse("ROW<v " + typeName + ">");
            for (int length : new int[] {0, width - 1, width + 1, 2 * width}) {
                if (length == width) {
                    continue;
                }
                List<byte[]> records = List.of(new byte[width], new byte[length], new byte[width]);
                DecoderParityCheck.Result result = RAW.assertParity(type, Map.of(), records);
                assertThat(result.rejections()).containsOnlyKeys(1);
                String reason = result.rejections().get(1).reason();
                assertThat(result.outcomes().get(1).rejectionMessages()).as(typeName).contains(reason);
                assertThat(result.rejections().get(1).field()).isEqualTo("v");
                assertThat(result.comparedRows()).isEqualTo(2);
            }
        });
    }

    @Test
    void refusesWhatFlinkRefuses() {
        assertThatThrownBy(() -> Formats.decoder("raw", RowTypes.parse("ROW<a INT, b INT>"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("single physical column");
        for (String t : List.of("DECIMAL(10, 2)", "DATE", "TIMESTAMP(3)", "ARRAY<INT>", "ROW<x INT>")) {
            RowType type = RowTypes.parse("ROW<v " + t + ">");
            assertThatThrownBy(() -> oracle(type, Map.of())).as("Flink refuses %s", t)
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> Formats.decoder("raw", type, Map.of())).as(t)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'raw' format");
        }
        for (Map<String, String> bad : List.of(Map.of("charset", "NO-SUCH"), Map.of("endianness", "BIG-ENDIAN"))) {
            assertThatThrownBy(() -> Formats.decoder("raw", RowTypes.parse("ROW<v STRING>"), bad))
                    .as("%s", bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** Random byte strings (mostly of the type's width) of a random type under random options. */
    @Property(tries = 300)
    void randomBytesDecodeAsFlinkDecodesThem(@ForAll long seed) {
        Random random = new Random(seed);
        List<String> types = RawParityCorpusTest.types().toList();
        RowType type = RowTypes.parse("ROW<v " + types.get(random.nextInt(types.size())) + ">");
        List<Map<String, String>> allOptions = RawParityCorpusTest.options().toList();
        Map<String, String> options = allOptions.get(random.nextInt(allOptions.size()));
        int width = switch (type.getTypeAt(0).getTypeRoot()) {
            case BOOLEAN, TINYINT -> 1;
            case SMALLINT -> 2;
            case INTEGER, FLOAT -> 4;
            case BIGINT, DOUBLE -> 8;
            default -> random.nextInt(40);
        };
        List<byte[]> records = new ArrayList<>();
        for (int r = random.nextInt(20); r >= 0; r--) {
            if (random.nextInt(10) == 0) {
                records.add(null);
                continue;
            }
            byte[] bytes = new byte[random.nextInt(20) == 0 ? random.nextInt(10) : width];
            random.nextBytes(bytes);
            records.add(bytes);
        }
        DecoderParityCheck.Result result = RAW.assertParity(type, options, records);
        PROPERTY_TRIES.incrementAndGet();
        PROPERTY_ROWS.addAndGet(result.comparedRows());
        PROPERTY_REJECTED.addAndGet(result.rejectedRecords());
    }

    @AfterContainer
    static void propertyComparedEnough() {
        if (PROPERTY_TRIES.get() > 0) { // the JUnit engine runs this class's other tests without the property
            assertThat(PROPERTY_ROWS.get()).as("rows compared by the property").isGreaterThan(2000);
            assertThat(PROPERTY_REJECTED.get()).as("wrong sizes rejected by the property").isGreaterThan(20);
        }
    }
}
