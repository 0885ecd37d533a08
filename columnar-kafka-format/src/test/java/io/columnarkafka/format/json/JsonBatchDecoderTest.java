package io.columnarkafka.format.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.PlainValues;
import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

/**
 * The decoder's options, errors and named divergences, each shown against Flink's deserializer on the same
 * bytes (the value parity itself is {@code parity/JsonDecodeCorpusTest} and {@code JsonDecodeProperties}).
 */
class JsonBatchDecoderTest {
    private static final RowType TIMESTAMPS = row(
            "ROW<ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), ltz6 TIMESTAMP_LTZ(6)>");

    @Test
    void optionsAreFlinksAndValidatedAsFlinkValidatesThem() {
        assertThat(JsonDecodeOptions.fromMap(Map.of())).isEqualTo(JsonDecodeOptions.defaults());
        assertThat(JsonDecodeOptions.fromMap(Map.of("ignore-parse-errors", "TRUE", "map-null-key.mode", "DROP",
                "timestamp-format.standard", "iso-8601")).ignoreParseErrors()).isTrue();
        assertThatThrownBy(() -> Formats.decoder("json", TIMESTAMPS,
                Map.of("fail-on-missing-field", "true", "ignore-parse-errors", "true")))
                .hasMessage("fail-on-missing-field and ignore-parse-errors shouldn't both be true.");
        assertThatThrownBy(() -> JsonDecodeOptions.fromMap(Map.of("decode.json-parser.enabled", "false")))
                .hasMessageContaining("tree-based");
        assertThatThrownBy(() -> JsonDecodeOptions.fromMap(Map.of("fail-on-missing-fields", "true")))
                .hasMessageContaining("unknown json option 'fail-on-missing-fields'");
        assertThatThrownBy(() -> Formats.decoder("json", row("ROW<m MAP<INT, INT>>"), Map.of()))
                .hasMessageContaining("doesn't support non-string as key type of map");
        assertThat(Formats.decodable()).contains("json");
    }

    /**
     * Flink keeps every fraction digit; the Arrow column keeps its unit, floored. For precision 0–3 (Arrow
     * milliseconds) that equals Flink's binary row; for 6 Flink's raw value has more, so SQL scans fall back.
     */
    @Test
    void timestampFractionsBelowTheArrowUnitAreDroppedTowardThePast() {
        String json = "{\"ts0\":\"1969-12-31 23:59:59.987\",\"ts3\":\"2020-01-02 03:04:05.123456\","
                + "\"ts6\":\"1969-12-31 23:59:59.1234567\",\"ts9\":\"2020-01-02 03:04:05.123456789\","
                + "\"ltz6\":\"2020-01-02 03:04:05.9999999Z\"}";
        var flink = FlinkJsonDecodeOracle.of(TIMESTAMPS, Map.of()).deserialize(bytes(json)).rows().get(0);
        TimestampData ts0 = flink.getTimestamp(0, 0);
        TimestampData ts3 = flink.getTimestamp(1, 3);
        TimestampData ts6 = flink.getTimestamp(2, 6);
        assertThat(ts0.getMillisecond() % 1000).as("Flink keeps .987 in TIMESTAMP(0)").isEqualTo(-13);
        assertThat(ts3.getNanoOfMillisecond()).as("Flink keeps the micros in TIMESTAMP(3)").isEqualTo(456_000);
        assertThat(ts6.getNanoOfMillisecond() % 1000).as("Flink keeps the 7th digit in TIMESTAMP(6)").isEqualTo(700);
        try (RootAllocator allocator = new RootAllocator();
                DecodedBatch decoded = decode(Formats.decoder("json", TIMESTAMPS, Map.of()), allocator, json)) {
            assertThat(epoch(decoded, 0)).as("TIMESTAMP(0) keeps the milliseconds").isEqualTo(ts0.getMillisecond());
            assertThat(epoch(decoded, 1)).isEqualTo(ts3.getMillisecond());
            assertThat(epoch(decoded, 2)).isEqualTo(ts6.getMillisecond() * 1000 + ts6.getNanoOfMillisecond() / 1000);
            assertThat(epoch(decoded, 3)).isEqualTo(1577934245123456789L);
            assertThat(PlainValues.decodedFromArrow(decoded.root(), TIMESTAMPS, 0))
                    .isEqualTo(PlainValues.decodedFromFlink(flink, TIMESTAMPS));
        }
    }

    /** The second named divergence: a value the unit's 64 bits cannot hold is rejected; Flink accepts it. */
    @Test
    void nanosecondTimestampsOutsideTheArrowRangeAreRejected() {
        String json = "{\"ts9\":\"2262-04-11 23:47:16.854775808\"}";
        assertThat(FlinkJsonDecodeOracle.of(TIMESTAMPS, Map.of()).deserialize(bytes(json)).rejected()).isFalse();
        try (RootAllocator allocator = new RootAllocator()) {
            BatchDecoder decoder = Formats.decoder("json", TIMESTAMPS, Map.of());
            assertThatThrownBy(() -> decode(decoder, allocator, "{\"ts9\":\"2262-04-11 23:47:16.854775807\"}", json))
                    .isInstanceOfSatisfying(DecodeException.class, e -> {
                        assertThat(e.record()).isEqualTo(1);
                        assertThat(e.field()).isEqualTo("ts9");
                        assertThat(e.reason()).contains("out of range of Arrow NANOSECOND timestamps");
                    });
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void aRejectedRecordNamesItsIndexTheFieldPathAndFlinksReasonAndFreesTheBatch() {
        RowType type = row("ROW<id INT, r ROW<a INT, inner ROW<x BIGINT>>>");
        String bad = "{\"id\":2,\"r\":{\"a\":1,\"inner\":{\"x\":\"seven\"}}}";
        assertThat(FlinkJsonDecodeOracle.of(type, Map.of()).deserialize(bytes(bad)).rejected()).isTrue();
        try (RootAllocator allocator = new RootAllocator()) {
            BatchDecoder decoder = Formats.decoder("json", type, Map.of());
            assertThatThrownBy(() -> decode(decoder, allocator, "{\"id\":1}", "", bad, "{\"id\":3}"))
                    .isInstanceOfSatisfying(DecodeException.class, e -> {
                        assertThat(e.record()).isEqualTo(2);
                        assertThat(e.field()).isEqualTo("r.inner.x");
                        assertThat(e.reason()).startsWith("Fail to deserialize at field: x.")
                                .contains("seven");
                    });
            assertThat(allocator.getAllocatedMemory()).isZero();
            try (DecodedBatch skipped = decode(Formats.decoder("json", type, Map.of("ignore-parse-errors", "true")),
                    allocator, "{\"id\":1}", "{\"id\":", "[{\"id\":3},{\"id\":4}]")) {
                assertThat(skipped.rowCount()).isEqualTo(3);
                assertThat(skipped.skippedRecords()).isEqualTo(1); // the truncated one; the array gave two rows
                assertThat(skipped.recordOf(0)).isZero();
                assertThat(skipped.recordOf(1)).isEqualTo(2);
                assertThat(skipped.recordOf(2)).isEqualTo(2);
            }
        }
    }

    private static long epoch(DecodedBatch decoded, int column) {
        return ((TimeStampVector) decoded.root().getVector(column)).get(0);
    }

    private static DecodedBatch decode(BatchDecoder decoder, RootAllocator allocator, String... records) {
        RecordBytes batch = new RecordBytes();
        for (String record : records) {
            batch.add(bytes(record));
        }
        return decoder.decode(batch, allocator);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static RowType row(String type) {
        return (RowType) LogicalTypeParser.parse(type, JsonBatchDecoderTest.class.getClassLoader());
    }
}
