package io.columnarkafka.bench;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
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
 * The columnar JSON encoder against Flink's {@code JsonRowDataSerializationSchema}, on the same rows.
 *
 * <p>One invocation handles one batch of {@code batchSize} rows. Scores are per row (rows/s, and B/row
 * for {@code gc.alloc.rate.norm}) because {@link EncoderBenchmarks} runs each batch size with operations
 * per invocation set to the batch size; JMH's annotation cannot take a parameter, so a run that does
 * not set it is refused rather than reported per batch. {@code outputBytes} counts the bytes produced,
 * reported by JMH per second.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class JsonEncoderBenchmark {

    @Param({"64", "256", "1024", "4096", "16384"})
    public int batchSize;

    @Param({"bid", "wide"})
    public String dataset;

    private BufferAllocator allocator;
    private VectorSchemaRoot batch;
    private JsonRowDataSerializationSchema flink;
    private RowData[] rows;

    /**
     * The columnar encoder, planned only for the columnar benchmarks so that Flink's side can be measured
     * even while the encoder fails.
     */
    @State(Scope.Thread)
    public static class Columnar {
        BatchEncoder encoder;

        @Setup(Level.Trial)
        public void plan(JsonEncoderBenchmark data) {
            encoder = Formats.encoder("json", Projection.all(Dataset.named(data.dataset).rowType()), Map.of());
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
        Dataset data = Dataset.named(dataset);
        allocator = new RootAllocator();
        batch = VectorSchemaRoot.create(ArrowLayout.schema(data.rowType()), allocator);
        data.fill(batch, batchSize);
        rows = new RowData[batchSize];
        Arrays.setAll(rows, data::row);
        flink = FlinkJson.openSerializer(data.rowType());
    }

    /** Refuses to time an encoder whose output differs from Flink's on these rows. */
    void checkSameBytes(BatchEncoder encoder) {
        RecordSlab slab = encoder.encode(batch);
        for (int i = 0; i < batchSize; i++) {
            byte[] expected = flink.serialize(rows[i]);
            byte[] actual = slab.copyRecord(i);
            if (!Arrays.equals(expected, actual)) {
                throw new IllegalStateException("dataset " + dataset + " row " + i + ": columnar JSON differs from"
                        + " Flink's\n  flink:    " + new String(expected, StandardCharsets.UTF_8)
                        + "\n  columnar: " + (actual == null ? "null" : new String(actual, StandardCharsets.UTF_8)));
            }
        }
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

    /** The encoder alone: every record written into the reused slab, none copied out. */
    @Benchmark
    public RecordSlab columnarEncodeOnly(Columnar columnar, OutputBytes output) {
        RecordSlab slab = columnar.encoder.encode(batch);
        output.outputBytes += slab.size();
        return slab;
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
