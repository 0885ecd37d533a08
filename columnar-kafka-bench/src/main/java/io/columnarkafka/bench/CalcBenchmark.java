package io.columnarkafka.bench;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.ColumnarCalc;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.json.JsonBatchDecoder;
import io.columnarkafka.format.json.JsonDecodeOptions;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkJson;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The columnar calc of Nexmark q0 on one batch of the suite's events as the planner's json scan decodes them
 * (500 events: a Kafka poll): the bid view's {@code WHERE event_type = 2} and the bid's five fields. One
 * invocation is one batch; the output batch is closed inside it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx1g", "-Xms1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CalcBenchmark {
    private static final RowType EVENTS = NexmarkGenerator.EVENT_TYPE;
    private static final int BID = 3;
    private static final int BATCH = 500;

    private final BufferAllocator allocator = new RootAllocator();
    private VectorSchemaRoot events;
    private ColumnarCalc calc;

    @Setup
    public void setUp() {
        RecordBytes records = new RecordBytes();
        try (NexmarkJson json = new NexmarkJson(new NexmarkGenerator(NexmarkConfig.defaults(42)))) {
            RecordSlab slab = json.encode(0, BATCH);
            for (int i = 0; i < slab.recordCount(); i++) {
                records.add(slab.copyRecord(i));
            }
        }
        DecodedBatch decoded = new JsonBatchDecoder(EVENTS, JsonDecodeOptions.defaults()).decode(records, allocator);
        events = decoded.takeRoot();
        calc = ColumnarCalc.plan(q0(), allocator);
    }

    /** The bid view's condition and q0's projections, as the planner stage hands them to the calc. */
    static CalcProgram q0() {
        RowType bid = (RowType) EVENTS.getTypeAt(BID);
        Expr bidRow = new Expr.Column(BID, bid);
        List<Expr> projections = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String name : List.of("auction", "bidder", "price", "dateTime", "extra")) {
            int index = bid.getFieldIndex(name);
            projections.add(new Expr.Field(bidRow, index, bid.getTypeAt(index)));
            names.add(name);
        }
        Expr isBid = Expr.Call.of(Op.EQUALS, new BooleanType(),
                new Expr.Column(0, EVENTS.getTypeAt(0)), new Expr.Literal(2, new IntType(false)));
        return new CalcProgram(EVENTS, projections, names, isBid);
    }

    @Benchmark
    public int batch() {
        return applyTo(calc, events, allocator);
    }

    /** Runs {@code calc} over {@code batch} (lent, as a scan lends its batches), closing its output; rows kept. */
    public static int applyTo(ColumnarCalc calc, VectorSchemaRoot batch, BufferAllocator allocator) {
        try (ArrowBatch out = calc.apply(ArrowBatch.lend(batch, "split"))) {
            return out.selectedCount(allocator);
        }
    }

    @TearDown
    public void tearDown() {
        calc.close();
        events.close();
        allocator.close();
    }
}
