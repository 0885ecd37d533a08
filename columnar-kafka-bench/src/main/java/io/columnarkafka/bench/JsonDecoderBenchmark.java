package io.columnarkafka.bench;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RecordSlab;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.DeserializationFeature;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The columnar JSON decoder against Flink's default JSON deserializer ({@code
 * JsonParserRowDataDeserializationSchema}) on the same records: Nexmark bids (and {@link AdversarialBids}:
 * escapes, non-ASCII and non-BMP text, extreme numbers, spread timestamps) written by Flink's own JSON
 * serializer. One invocation handles one batch of {@code batchSize} records; scores are per row
 * ({@link EncoderBenchmarks} sets operations per invocation to the batch size).
 *
 * <p>The columnar side is what a columnar source pays: decode the batch into Arrow vectors and release
 * them (the Arrow build is included). Flink's side is what its source pays: {@code deserialize(bytes,
 * collector)} per record into a {@code RowData}. Before anything is timed, the decoded batch is checked
 * against Flink's rows: both are written back as JSON, by the columnar encoder (byte-identical to Flink's
 * serializer, proven by its own tests) and by Flink's serializer; a decoder whose rows differ is refused
 * (a map's entries may come in another order: Flink's maps have none).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx2g", "-Xms2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class JsonDecoderBenchmark {

    @Param({"64", "256", "1024", "4096", "16384"})
    public int batchSize;

    /**
     * {@code bid}: Nexmark bids; {@code adversarial}: Bid-shaped rows with escapes, non-ASCII, spread
     * timestamps; {@code wide}: decimals, doubles, floats, booleans, dates, timestamps, a nested row, an
     * array and a map, with nulls, escapes and non-ASCII text ({@link WideRows}); not in the default sweep,
     * {@code event}: Nexmark events (person, auction, bid rows), every column decoded, and {@code event:bid}: the
     * same decoded as a bid query's scan does, only {@code bid} produced and the rest checked (Flink's side
     * deserializes the whole row in both, as its source does).
     */
    @Param({"bid", "adversarial", "wide"})
    public String dataset;

    /**
     * {@code json}, or {@code avro-confluent}: records written by Flink's avro-confluent serializer (the rows NOT
     * NULL, as Flink's Kafka connector hands them to its format; one schema id, looked up by the decoder once from
     * a {@link ConstantSchemaRegistry}), read by Flink's avro-confluent deserializer and by the columnar one.
     */
    @Param({"json"})
    public String format = "json";

    private static final int SCHEMA_ID = 7;

    private final BufferAllocator allocator = new RootAllocator();
    private final RecordBytes records = new RecordBytes();
    private byte[][] bytes;
    private long inputBytes;
    private DeserializationSchema<RowData> flink;
    /** The decoder's format options (avro-confluent's registry). */
    private Map<String, String> options = Map.of();
    private ConstantSchemaRegistry registry;
    private final List<RowData> collected = new ArrayList<>();
    private final Collector<RowData> collector = new Collector<>() {
        @Override
        public void collect(RowData row) {
            collected.add(row);
        }

        @Override
        public void close() {}
    };

    /** The columnar decoder, planned and checked only for the columnar benchmark. */
    @State(Scope.Thread)
    public static class Columnar {
        BatchDecoder decoder;

        @Setup(Level.Trial)
        public void plan(JsonDecoderBenchmark data) throws Exception {
            decoder = Formats.decoder(data.format, data.rowType(), Dataset.produced(data.dataset), data.options);
            data.checkSameRows(decoder);
        }
    }

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws Exception {
        EncoderFixture.requirePerRowScores(params, batchSize);
        prepare();
    }

    /** The records and Flink's deserializer; {@link JsonDecoderComparison} calls it without JMH. */
    void prepare() throws Exception {
        Dataset data = Dataset.named(dataset);
        RowType type = rowType();
        SerializationSchema<RowData> writer;
        switch (format) {
            case "json":
                writer = FlinkJson.openSerializer(type);
                flink = new JsonParserRowDataDeserializationSchema(type, InternalTypeInfo.of(type), false, false,
                        TimestampFormat.SQL);
                flink.open(null); // open() only builds the ObjectMapper; it does not read the context
                break;
            case "avro-confluent":
                writer = FlinkSerializers.open(format, type, Map.of(), SCHEMA_ID);
                flink = FlinkSerializers.openAvroConfluentDeserializer(type, SCHEMA_ID);
                registry = new ConstantSchemaRegistry(SCHEMA_ID, AvroSchemaConverter.convertToSchema(type).toString());
                options = Map.of("url", registry.url());
                break;
            default:
                throw new IllegalArgumentException("no decoder benchmark for format '" + format + "'");
        }
        bytes = new byte[batchSize][];
        for (int i = 0; i < batchSize; i++) {
            bytes[i] = writer.serialize(data.row(i));
            records.add(bytes[i]);
            inputBytes += bytes[i].length;
        }
    }

    /** The dataset's row type as the format gets it: NOT NULL for avro-confluent (Flink's Kafka connector's). */
    RowType rowType() {
        RowType type = Dataset.named(dataset).rowType();
        return format.equals("json") ? type : (RowType) type.copy(false);
    }

    /** Refuses to time a decoder whose rows differ from Flink's (compared through their JSON, see above). */
    void checkSameRows(BatchDecoder decoder) throws Exception {
        RowType type = decoder.rowType();
        RowType whole = rowType();
        List<RowData.FieldGetter> projection = new ArrayList<>();
        for (String field : type.getFieldNames()) {
            int index = whole.getFieldIndex(field);
            projection.add(RowData.createFieldGetter(whole.getTypeAt(index), index));
        }
        SerializationSchema<RowData> writer = FlinkJson.openSerializer(type);
        BatchEncoder encoder = Formats.encoder("json", Projection.all(type), Map.of());
        try (DecodedBatch decoded = decoder.decode(records, allocator)) {
            if (decoded.rowCount() != batchSize) {
                throw new IllegalStateException("decoder made " + decoded.rowCount() + " rows of " + batchSize);
            }
            RecordSlab slab = encoder.encode(decoded.root());
            for (int i = 0; i < batchSize; i++) {
                collected.clear();
                flink.deserialize(bytes[i], collector);
                GenericRowData projected = new GenericRowData(projection.size());
                for (int f = 0; f < projection.size(); f++) {
                    projected.setField(f, projection.get(f).getFieldOrNull(collected.get(0)));
                }
                byte[] expected = writer.serialize(projected);
                byte[] actual = slab.copyRecord(i);
                if (!Arrays.equals(expected, actual) && !sameMapsInOtherOrder(expected, actual)) {
                    throw new IllegalStateException("decoded row " + i + " differs from Flink's: Flink "
                            + new String(expected, java.nio.charset.StandardCharsets.UTF_8) + " columnar "
                            + new String(actual, java.nio.charset.StandardCharsets.UTF_8));
                }
            }
        }
        if (allocator.getAllocatedMemory() != 0) {
            throw new IllegalStateException("decoder left " + allocator.getAllocatedMemory() + " bytes allocated");
        }
    }

    /** The JSON input of one batch, in bytes. */
    long inputBytes() {
        return inputBytes;
    }

    /**
     * Flink collects a MAP into a {@code HashMap} (no order) and the decoder keeps each key's last
     * occurrence in order, so the two JSON texts may list a map's entries differently: equal once every
     * object's members are sorted by name, every number kept as spelled (the row's fields are in schema
     * order on both sides, so sorting them forgives nothing else).
     */
    static boolean sameMapsInOtherOrder(byte[] expected, byte[] actual) throws java.io.IOException {
        return sortedMembers(TREES.readTree(expected)).equals(sortedMembers(TREES.readTree(actual)));
    }

    private static final ObjectMapper TREES = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    private static String sortedMembers(JsonNode node) {
        if (node.isObject()) {
            java.util.TreeMap<String, String> members = new java.util.TreeMap<>();
            node.fields().forEachRemaining(m -> members.put(m.getKey(), sortedMembers(m.getValue())));
            return members.toString();
        }
        if (node.isArray()) {
            List<String> elements = new ArrayList<>();
            node.elements().forEachRemaining(e -> elements.add(sortedMembers(e)));
            return elements.toString();
        }
        return node.toString();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        allocator.close();
        if (registry != null) {
            registry.close();
        }
    }

    /** What a columnar source pays per batch: decode into Arrow vectors, then release them. */
    @Benchmark
    public int columnarDecode(Columnar columnar, OutputBytes input) {
        try (DecodedBatch decoded = columnar.decoder.decode(records, allocator)) {
            input.outputBytes += inputBytes;
            return decoded.rowCount();
        }
    }

    /** Flink's path: {@code deserialize(bytes, collector)} per record, one {@code RowData} each. */
    @Benchmark
    public void flinkDeserialize(OutputBytes input, Blackhole blackhole) throws Exception {
        for (byte[] record : bytes) {
            collected.clear();
            flink.deserialize(record, collector);
            blackhole.consume(collected.get(0));
        }
        input.outputBytes += inputBytes;
    }
}
