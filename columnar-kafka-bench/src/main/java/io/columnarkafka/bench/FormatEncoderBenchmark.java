package io.columnarkafka.bench;

import io.columnarkafka.bench.proto.Bid;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.protobuf.ProtobufFormatOptions;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
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
 * Every format's columnar encoder against Flink's serializer of that format, on the same Bid-shaped
 * rows (Nexmark bids, or the adversarial ones of {@link AdversarialBids}), set up, checked and measured by {@link EncoderFixture} as {@link JsonEncoderBenchmark} measures
 * JSON: per row, the same {@code outputBytes} counter, refused when the columnar bytes differ from
 * Flink's on any row.
 *
 * <p>Each format sees the rows its Kafka sink would hand it: {@code avro} and {@code avro-confluent} a NOT
 * NULL row type (Flink's Kafka connector passes the physical row type NOT NULL, which keeps the record
 * schema out of a union); {@code raw}, which takes exactly one column, the {@code url} column alone;
 * {@code protobuf} the six columns of the {@code Bid} message ({@code bid.proto}), all but {@code dateTime},
 * as Flink's protobuf format has no TIMESTAMP mapping. {@code avro-confluent} learns its schema id from a
 * {@link ConstantSchemaRegistry} once, when the encoder is checked; Flink's side writes the same id from a
 * fixed-id {@link FlinkSerializers} coder, so neither side talks to a registry while it is timed.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
// A fixed, pre-touched heap: first-touch page faults of a growing heap otherwise land on whichever side
// allocates into new memory and make iterations swing (both sides allocate: the drain, and Flink per row).
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx2g", "-Xms2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FormatEncoderBenchmark {
    private static final int URL = 4;
    private static final int DATE_TIME = 5;
    private static final int SCHEMA_ID = 7;

    @Param({"4096"})
    public int batchSize;

    @Param({"json", "csv", "avro", "avro-confluent", "debezium-json", "canal-json", "maxwell-json", "ogg-json",
        "protobuf", "raw"})
    public String format;

    /** {@code bid} or {@code adversarial}: both are Bid-shaped, so every format's projection applies. */
    @Param({"bid", "adversarial"})
    public String dataset;

    /**
     * The {@code RowData} class the SQL path ({@link FromRows}) transposes: {@code binary}, {@code generic}
     * or {@code boxed} ({@link EncoderFixture#rowsAs}).
     */
    @Param({"binary"})
    public String rowClass;

    private EncoderFixture fixture;
    private Projection projection;
    private Map<String, String> options = Map.of();
    private ConstantSchemaRegistry registry;

    /** The columnar encoder, planned only for the columnar benchmark so Flink's side runs even if it fails. */
    @State(Scope.Thread)
    public static class Columnar {
        BatchEncoder encoder;

        @Setup(Level.Trial)
        public void plan(FormatEncoderBenchmark data) {
            encoder = Formats.encoder(data.format, data.projection, data.options);
            data.fixture.checkSameBytes(encoder);
        }
    }

    /**
     * The SQL sink's path: Flink's rows transposed into an Arrow batch ({@link RowDataArrowWriter}), then
     * encoded by an encoder of every column of that batch.
     */
    @State(Scope.Thread)
    public static class FromRows {
        private final BufferAllocator allocator = new RootAllocator();
        RowDataArrowWriter writer;
        BatchEncoder encoder;
        /** The fixture's rows in the benchmark's {@link #rowClass}. */
        RowData[] input;

        @Setup(Level.Trial)
        public void plan(FormatEncoderBenchmark data) {
            RowType rowType = data.projection.outputType();
            writer = new RowDataArrowWriter(rowType, allocator);
            encoder = Formats.encoder(data.format, Projection.all(rowType), data.options);
            input = data.fixture.rowsAs(data.rowClass, rowType);
            data.fixture.checkSameBytes(encoder, EncoderFixture.transpose(writer, input));
        }

        /** What the SQL sink pays for a batch: transpose {@link #input}, encode, copy each record out. */
        long transposeEncodeAndDrain(Blackhole blackhole) {
            return EncoderFixture.encodeAndDrain(encoder, EncoderFixture.transpose(writer, input), blackhole);
        }

        @TearDown(Level.Trial)
        public void close() {
            writer.close();
            allocator.close();
        }
    }

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws Exception {
        EncoderFixture.requirePerRowScores(params, batchSize);
        prepare();
    }

    /** The rows, the projection and Flink's serializer of {@link #format}; tests call it without JMH. */
    void prepare() throws Exception {
        RowType bidType = BidGenerator.BID_TYPE;
        Dataset data = Dataset.named(dataset);
        if (!data.rowType().equals(bidType)) {
            throw new IllegalArgumentException("dataset " + dataset + " is not Bid-shaped: " + data.rowType());
        }
        switch (format) {
            case "avro":
            case "avro-confluent":
                projection = Projection.all((RowType) bidType.copy(false));
                break;
            case "raw":
                projection = Projection.of(bidType, URL);
                break;
            case "protobuf":
                projection = Projection.of(bidType, IntStream.range(0, bidType.getFieldCount())
                        .filter(f -> f != DATE_TIME).toArray());
                options = Map.of(ProtobufFormatOptions.MESSAGE_CLASS_NAME, Bid.class.getName());
                break;
            default:
                projection = Projection.all(bidType);
        }
        if (format.equals("avro-confluent")) {
            registry = new ConstantSchemaRegistry(SCHEMA_ID);
            options = Map.of("url", registry.url(), "subject", "bids-value");
        }
        fixture = new EncoderFixture("format " + format + ", dataset " + dataset, data, batchSize, projection,
                FlinkSerializers.open(format, projection.outputType(), options, SCHEMA_ID));
    }

    /** The rows and Flink's serializer, for {@link InterleavedRowDataComparison}. */
    EncoderFixture fixture() {
        return fixture;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        fixture.close();
        if (registry != null) {
            registry.close();
        }
    }

    /** What a Kafka sink pays: encode the batch, then copy each record out as its own {@code byte[]}. */
    @Benchmark
    public void columnarEncodeAndDrain(Columnar columnar, OutputBytes output, Blackhole blackhole) {
        output.outputBytes += fixture.encodeAndDrain(columnar.encoder, blackhole);
    }

    /** What the SQL sink pays: transpose Flink's rows ({@link #rowClass}) into Arrow, encode, copy each record out. */
    @Benchmark
    public void rowDataTransposeEncodeAndDrain(FromRows fromRows, OutputBytes output, Blackhole blackhole) {
        output.outputBytes += fromRows.transposeEncodeAndDrain(blackhole);
    }

    /** The transpose alone: Flink's rows into the Arrow batch. */
    @Benchmark
    public VectorSchemaRoot rowDataTransposeOnly(FromRows fromRows) {
        return EncoderFixture.transpose(fromRows.writer, fromRows.input);
    }

    /** Flink's path: one {@code serialize(row)} per row, each returning a fresh {@code byte[]}. */
    @Benchmark
    public void flinkSerialize(OutputBytes output, Blackhole blackhole) {
        output.outputBytes += fixture.flinkSerialize(blackhole);
    }
}
