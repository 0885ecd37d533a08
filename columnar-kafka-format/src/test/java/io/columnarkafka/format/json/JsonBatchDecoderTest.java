package io.columnarkafka.format.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.arrow.PlainValues;
import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import io.columnarkafka.format.arrow.ArrowLayout;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
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
     * Flink keeps every fraction digit of the text whatever the precision; so does the decoded column (Flink's
     * epoch millis + nanos of the milli), read back through the row view as Flink's {@code TimestampData}.
     */
    @Test
    void everyFractionDigitOfTheTextIsKeptWhateverThePrecision() {
        String json = "{\"ts0\":\"1969-12-31 23:59:59.987\",\"ts3\":\"2020-01-02 03:04:05.123456\","
                + "\"ts6\":\"1969-12-31 23:59:59.1234567\",\"ts9\":\"2020-01-02 03:04:05.123456789\","
                + "\"ltz6\":\"2020-01-02 03:04:05.9999999Z\"}";
        var flink = FlinkJsonDecodeOracle.of(TIMESTAMPS, Map.of()).deserialize(bytes(json)).rows().get(0);
        assertThat(flink.getTimestamp(0, 0).getMillisecond() % 1000).as("Flink keeps .987 in TIMESTAMP(0)")
                .isEqualTo(-13);
        assertThat(flink.getTimestamp(1, 3).getNanoOfMillisecond()).as("Flink keeps the micros in TIMESTAMP(3)")
                .isEqualTo(456_000);
        assertThat(flink.getTimestamp(2, 6).getNanoOfMillisecond() % 1000).as("Flink keeps the 7th digit in"
                + " TIMESTAMP(6)").isEqualTo(700);
        try (RootAllocator allocator = new RootAllocator();
                DecodedBatch decoded = decode(Formats.decoder("json", TIMESTAMPS, Map.of()), allocator, json)) {
            ArrowRowView view = new ArrowRowView(TIMESTAMPS);
            view.bind(decoded.root());
            int[] precisions = {0, 3, 6, 9, 6};
            for (int c = 0; c < precisions.length; c++) {
                assertThat(view.row(0).getTimestamp(c, precisions[c])).as("column %d", c)
                        .isEqualTo(flink.getTimestamp(c, precisions[c]));
            }
            assertThat(PlainValues.decodedFromArrow(decoded.root(), TIMESTAMPS, 0))
                    .isEqualTo(PlainValues.decodedFromFlink(flink, TIMESTAMPS));
        }
    }

    /** Flink's whole range, year 0001 to 9999, beyond Arrow's 64-bit nanoseconds (1677..2262). */
    @Test
    void nanosecondTimestampsOfFlinksWholeRangeAreKept() {
        String[] records = {"{\"ts9\":\"2262-04-11 23:47:16.854775808\"}", "{\"ts9\":\"0001-01-01 00:00:00.000000001\"}",
            "{\"ts9\":\"9999-12-31 23:59:59.999999999\"}"};
        try (RootAllocator allocator = new RootAllocator();
                DecodedBatch decoded = decode(Formats.decoder("json", TIMESTAMPS, Map.of()), allocator, records)) {
            ArrowRowView view = new ArrowRowView(TIMESTAMPS);
            view.bind(decoded.root());
            for (int i = 0; i < records.length; i++) {
                var flink = FlinkJsonDecodeOracle.of(TIMESTAMPS, Map.of()).deserialize(bytes(records[i])).rows().get(0);
                assertThat(view.row(i).getTimestamp(3, 9)).isEqualTo(flink.getTimestamp(3, 9));
            }
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

    /** A batch belongs to its owner and may outlive the next decodes: it keeps its rows, Flink's. */
    @Test
    void aBatchKeptPastTheNextDecodeKeepsItsRows() {
        RowType type = row("ROW<id BIGINT, name STRING, r ROW<x INT, s STRING>>");
        String[] first = {"{\"id\":1,\"name\":\"a\",\"r\":{\"x\":10,\"s\":\"p\"}}", "{\"id\":2,\"name\":null}"};
        String[] second = {"{\"id\":3,\"name\":\"bee\",\"r\":{\"x\":30,\"s\":\"q\u00e9\"}}"};
        String[] third = {"{\"name\":\"c\",\"r\":null}", "{\"id\":5,\"r\":{\"s\":\"long enough to grow\"}}",
            "{\"id\":6}"};
        BatchDecoder decoder = Formats.decoder("json", type, Map.of());
        try (RootAllocator allocator = new RootAllocator()) {
            DecodedBatch one = decode(decoder, allocator, first);
            DecodedBatch two = decode(decoder, allocator, second);
            assertSameRowsAsFlink(type, one, first);
            one.close();
            DecodedBatch three = decode(decoder, allocator, third);
            assertSameRowsAsFlink(type, two, second);
            assertSameRowsAsFlink(type, three, third);
            two.close();
            three.close();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    /**
     * A root given back is the vector tree of the next batch: after a bigger batch, after a batch of no rows, after a
     * root of another decoder is refused, every batch holds Flink's rows, and nothing stays allocated.
     */
    @Test
    void aRecycledRootBuildsTheNextBatchWithFlinksRows() {
        RowType type = row("ROW<id BIGINT, name STRING, r ROW<x INT, s STRING>>");
        String[] big = new String[40];
        for (int i = 0; i < big.length; i++) {
            big[i] = "{\"id\":" + i + ",\"name\":\"name " + "x".repeat(i) + "\",\"r\":{\"x\":" + i + ",\"s\":\"s" + i
                    + "\"}}";
        }
        String[] small = {"{\"id\":7,\"r\":null}"};
        String[] none = {};
        String[] last = {"{\"name\":\"c\",\"r\":{\"s\":\"t\"}}", "{\"id\":9,\"name\":null,\"r\":{\"x\":1}}"};
        BatchDecoder decoder = Formats.decoder("json", type, Map.of());
        try (RootAllocator allocator = new RootAllocator()) {
            DecodedBatch first = decode(decoder, allocator, big);
            assertSameRowsAsFlink(type, first, big);
            VectorSchemaRoot tree = first.takeRoot();
            decoder.recycle(tree);
            for (String[] records : new String[][] {small, none, last, big}) {
                DecodedBatch batch = decode(decoder, allocator, records);
                assertThat(batch.root()).as("the recycled vector tree").isSameAs(tree);
                assertSameRowsAsFlink(type, batch, records);
                decoder.recycle(batch.takeRoot());
            }
            long kept = allocator.getAllocatedMemory();
            VectorSchemaRoot foreign = VectorSchemaRoot.create(ArrowLayout.schema(type), allocator);
            foreign.allocateNew();
            decoder.recycle(foreign);
            assertThat(allocator.getAllocatedMemory()).as("a root the decoder did not make is closed").isEqualTo(kept);
            DecodedBatch after = decode(decoder, allocator, small);
            assertThat(after.root()).isSameAs(tree);
            assertSameRowsAsFlink(type, after, small);
            after.close();
            DecodedBatch fresh = decode(decoder, allocator, small);
            assertThat(fresh.root()).as("a closed batch is not taken back").isNotSameAs(tree);
            fresh.close();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static void assertSameRowsAsFlink(RowType type, DecodedBatch batch, String... records) {
        FlinkJsonDecodeOracle flink = FlinkJsonDecodeOracle.of(type, Map.of());
        assertThat(batch.rowCount()).isEqualTo(records.length);
        for (int i = 0; i < records.length; i++) {
            assertThat(PlainValues.decodedFromArrow(batch.root(), type, i)).as("row %d", i)
                    .isEqualTo(PlainValues.decodedFromFlink(flink.deserialize(bytes(records[i])).rows().get(0), type));
        }
    }

    static DecodedBatch decode(BatchDecoder decoder, BufferAllocator allocator, String... records) {
        RecordBytes batch = new RecordBytes();
        for (String record : records) {
            batch.add(bytes(record));
        }
        return decoder.decode(batch, allocator);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static RowType row(String type) {
        return (RowType) LogicalTypeParser.parse(type, JsonBatchDecoderTest.class.getClassLoader());
    }
}
