package io.columnarkafka.bench;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.data.GenericRowData;
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
 * Every format's columnar encoder against Flink's serializer of that format, on the same Nexmark Bid
 * rows. Measured as {@link JsonEncoderBenchmark} measures JSON (per row, through {@link
 * EncoderBenchmarks}, same {@code outputBytes} counter), and refused, like it, when the columnar bytes
 * differ from Flink's on any row.
 *
 * <p>Each format sees the rows its Kafka sink would hand it: {@code avro} a NOT NULL row type (Flink's
 * Kafka connector passes the physical row type NOT NULL, which keeps the record schema out of a union);
 * {@code raw}, which takes exactly one column, the {@code url} column alone, projected from the batch on
 * the columnar side and as single-column rows on Flink's side.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FormatEncoderBenchmark {
    private static final long SEED = 42;
    private static final int URL = 4;

    @Param({"4096"})
    public int batchSize;

    @Param({"json", "csv", "avro", "debezium-json", "raw"})
    public String format;

    private BufferAllocator allocator;
    private VectorSchemaRoot batch;
    private Projection projection;
    private SerializationSchema<RowData> flink;
    private RowData[] rows;

    /** The columnar encoder, planned only for the columnar benchmark so Flink's side runs even if it fails. */
    @State(Scope.Thread)
    public static class Columnar {
        BatchEncoder encoder;

        @Setup(Level.Trial)
        public void plan(FormatEncoderBenchmark data) {
            encoder = Formats.encoder(data.format, data.projection, Map.of());
            data.checkSameBytes(encoder);
        }
    }

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws Exception {
        if (params.getOpsPerInvocation() != batchSize) {
            throw new IllegalStateException("operations per invocation is " + params.getOpsPerInvocation()
                    + " but batchSize is " + batchSize + ": run through " + EncoderBenchmarks.class.getName()
                    + " (or pass -opi " + batchSize + ") so that scores are per row");
        }
        BidGenerator bids = new BidGenerator(SEED);
        allocator = new RootAllocator();
        batch = VectorSchemaRoot.create(ArrowLayout.schema(BidGenerator.BID_TYPE), allocator);
        bids.fill(batch, 0, batchSize);
        boolean raw = format.equals("raw");
        RowType bidType = format.equals("avro") ? (RowType) BidGenerator.BID_TYPE.copy(false) : BidGenerator.BID_TYPE;
        projection = raw ? Projection.of(bidType, URL) : Projection.all(bidType);
        rows = new RowData[batchSize];
        Arrays.setAll(rows, i -> raw ? GenericRowData.of(bids.row(i).getString(URL)) : bids.row(i));
        flink = FlinkSerializers.open(format, projection.outputType());
    }

    /** Refuses to time an encoder whose output differs from Flink's on these rows. */
    void checkSameBytes(BatchEncoder encoder) {
        RecordSlab slab = encoder.encode(batch);
        if (slab.recordCount() != batchSize) {
            throw new IllegalStateException(format + ": " + slab.recordCount() + " records for " + batchSize + " rows");
        }
        for (int i = 0; i < batchSize; i++) {
            byte[] expected = flink.serialize(rows[i]);
            byte[] actual = slab.copyRecord(i);
            if (!Arrays.equals(expected, actual)) {
                throw new IllegalStateException("format " + format + " row " + i + ": columnar bytes differ from"
                        + " Flink's\n  flink:    " + hex(expected) + "\n  columnar: " + hex(actual));
            }
        }
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? "null" : HexFormat.ofDelimiter(" ").formatHex(bytes);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        batch.close();
        allocator.close();
    }

    /** What a Kafka sink pays: encode the batch, then copy each record out as its own {@code byte[]}. */
    @Benchmark
    public void columnarEncodeAndDrain(Columnar columnar, OutputBytes output, Blackhole blackhole) {
        RecordSlab slab = columnar.encoder.encode(batch);
        int records = slab.recordCount();
        for (int i = 0; i < records; i++) {
            blackhole.consume(slab.copyRecord(i));
        }
        output.outputBytes += slab.size();
    }

    /** Flink's path: one {@code serialize(row)} per row, each returning a fresh {@code byte[]}. */
    @Benchmark
    public void flinkSerialize(OutputBytes output, Blackhole blackhole) {
        long bytes = 0;
        for (RowData row : rows) {
            byte[] record = flink.serialize(row);
            bytes += record.length;
            blackhole.consume(record);
        }
        output.outputBytes += bytes;
    }
}
