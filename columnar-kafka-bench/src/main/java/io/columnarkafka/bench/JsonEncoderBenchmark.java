package io.columnarkafka.bench;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * The columnar JSON encoder against Flink's {@code JsonRowDataSerializationSchema}, on the same rows
 * (set up, checked and measured by {@link EncoderFixture}).
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
// A fixed, pre-touched heap: first-touch page faults of a growing heap otherwise land on whichever side
// allocates into new memory and make iterations swing (both sides allocate: the drain, and Flink per row).
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx2g", "-Xms2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class JsonEncoderBenchmark {

    @Param({"64", "256", "1024", "4096", "16384"})
    public int batchSize;

    @Param({"bid", "adversarial", "wide"})
    public String dataset;

    private EncoderFixture fixture;

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
            data.fixture.checkSameBytes(encoder);
        }
    }

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws Exception {
        EncoderFixture.requirePerRowScores(params, batchSize);
        Dataset data = Dataset.named(dataset);
        fixture = new EncoderFixture("dataset " + dataset, data, batchSize, Projection.all(data.rowType()),
                FlinkJson.openSerializer(data.rowType()));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        fixture.close();
    }

    /** What a Kafka sink pays: encode the batch, then copy each record out as its own {@code byte[]}. */
    @Benchmark
    public void columnarEncodeAndDrain(Columnar columnar, OutputBytes output, Blackhole blackhole) {
        output.outputBytes += fixture.encodeAndDrain(columnar.encoder, blackhole);
    }

    /** The encoder alone: every record written into the reused slab, none copied out. */
    @Benchmark
    public RecordSlab columnarEncodeOnly(Columnar columnar, OutputBytes output) {
        RecordSlab slab = columnar.encoder.encode(fixture.batch);
        output.outputBytes += slab.size();
        return slab;
    }

    /** Flink's path: one {@code serialize(row)} per row, each returning a fresh {@code byte[]}. */
    @Benchmark
    public void flinkSerialize(OutputBytes output, Blackhole blackhole) {
        output.outputBytes += fixture.flinkSerialize(blackhole);
    }
}
