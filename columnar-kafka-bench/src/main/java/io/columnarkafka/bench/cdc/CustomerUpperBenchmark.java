package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.CalcBenchmark;
import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.ColumnarCalc;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code cdc-calc}'s {@code UPPER(customer)} on one batch of the CDC benchmark's customers ({@link OrderChanges}: 7 in
 * 10 names hold non-ASCII letters, some non-BMP, 3 in 10 are null): the columnar calc against Flink's own conversion
 * of each value ({@code BinaryStringData#toUpperCase}, what Flink's generated Calc calls per row: a decode to a Java
 * String, its upper case, an encode). One invocation is one batch.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx1g", "-Xms1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CustomerUpperBenchmark {
    private static final RowType INPUT = RowType.of(new VarCharType(VarCharType.MAX_LENGTH));

    @Param({"4096"})
    public int rows;

    private final BufferAllocator allocator = new RootAllocator();
    private VectorSchemaRoot customers;
    /** Each row's bytes, null for a null: Flink's Calc views them afresh per row, with no decoded String cached. */
    private byte[][] values;
    private ColumnarCalc calc;

    @Setup
    public void setUp() {
        OrderChanges changes = new OrderChanges(42, 10L * rows);
        VarCharVector names = new VarCharVector("customer", allocator);
        names.allocateNew(rows);
        values = new byte[rows][];
        for (int r = 0; r < rows; ) {
            OrderRow row = changes.next().after();
            if (row == null) {
                continue; // a delete or a tombstone: no row after it
            }
            if (row.customer() != null) {
                byte[] bytes = row.customer().getBytes(StandardCharsets.UTF_8);
                names.setSafe(r, bytes);
                values[r] = bytes;
            }
            r++;
        }
        names.setValueCount(rows);
        customers = VectorSchemaRoot.of(names);
        Expr upper = new Expr.Call(Op.UPPER, List.of(new Expr.Column(0, INPUT.getTypeAt(0))),
                new VarCharType(VarCharType.MAX_LENGTH));
        calc = ColumnarCalc.plan(new CalcProgram(INPUT, List.of(upper), List.of("upper"), null), allocator);
    }

    @Benchmark
    public int columnar() {
        return CalcBenchmark.applyTo(calc, customers, allocator);
    }

    @Benchmark
    public void flinkPerRow(Blackhole blackhole) {
        for (byte[] value : values) {
            if (value != null) {
                blackhole.consume(BinaryStringData.fromBytes(value).toUpperCase());
            }
        }
    }

    @TearDown
    public void tearDown() {
        calc.close();
        customers.close();
        allocator.close();
    }
}
