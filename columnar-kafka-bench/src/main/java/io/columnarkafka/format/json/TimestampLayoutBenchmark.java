package io.columnarkafka.format.json;

import io.columnarkafka.bench.FlinkJson;
import io.columnarkafka.format.arrow.WideTimestamps;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.data.RowData;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A/B of the json decoder's timestamp layout, in one JMH run: a batch of the Nexmark Bid {@code dateTime}
 * texts (TIMESTAMP(3), as Flink's serializer writes them) parsed as {@link TimestampJsonReader} parses them and
 * stored either as the decoder stores every precision since session 8 ({@link WideTimestamps}: a 12-byte
 * FixedSizeBinary of epoch millis and nanos of the milli, every digit Flink's {@code TimestampData} keeps) or as
 * 8-byte epoch millis in a TimeStampMilliVector (what it stored for precision 0–3 before: digits below the milli
 * dropped, so not Flink's value for a text with more digits). Vector allocation per batch included; scores per
 * value. In this package (in the bench module) for the decoder's package-private tokenizer and parser.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx1g", "-Xms1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TimestampLayoutBenchmark {
    private static final int BATCH = 4096;
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final BufferAllocator allocator = new RootAllocator();
    private final JsonTokenizer tokenizer = new JsonTokenizer();
    private final JsonTemporalText text = new JsonTemporalText();
    private final FixedWidthBuffers buffers = new FixedWidthBuffers();
    private byte[][] values;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        BidGenerator bids = new BidGenerator(42);
        SerializationSchema<RowData> writer = FlinkJson.openSerializer(BidGenerator.BID_TYPE);
        Pattern dateTime = Pattern.compile("\"dateTime\":(\"[^\"]*\")");
        values = new byte[BATCH][];
        for (int i = 0; i < BATCH; i++) {
            Matcher m = dateTime.matcher(new String(writer.serialize(bids.row(i)), StandardCharsets.UTF_8));
            if (!m.find()) {
                throw new IllegalStateException("no dateTime in bid " + i);
            }
            values[i] = m.group(1).getBytes(StandardCharsets.UTF_8);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        allocator.close();
    }

    /** The decoder's layout: 12 bytes, epoch millis and nanos of the milli. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long wide12Bytes() {
        try (FixedSizeBinaryVector vector = new FixedSizeBinaryVector("t", allocator, WideTimestamps.BYTE_WIDTH)) {
            fill(vector, true);
            return vector.getDataBuffer().getLong(0);
        }
    }

    /** 8-byte epoch millis (digits below the milli dropped). */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long millis8Bytes() {
        try (TimeStampMilliVector vector = new TimeStampMilliVector("t", allocator)) {
            fill(vector, false);
            return vector.getDataBuffer().getLong(0);
        }
    }

    private void fill(BaseFixedWidthVector vector, boolean wide) {
        vector.setInitialCapacity(BATCH);
        vector.allocateNew();
        buffers.bind(vector);
        for (int i = 0; i < BATCH; i++) {
            tokenizer.reset(values[i], 0, values[i].length);
            tokenizer.next();
            text.parseTimestamp(tokenizer, false, false);
            buffers.ensureRoom(i);
            if (wide) {
                WideTimestamps.putLocal(buffers.values, i, text.epochDay, text.nanoOfDay);
            } else {
                MemoryUtil.putLong(buffers.values + 8L * i, text.epochDay * MILLIS_PER_DAY + text.nanoOfDay / NANOS_PER_MILLI);
            }
            ArrowAppend.setValid(buffers.validity, i);
        }
        vector.setValueCount(BATCH);
    }
}
