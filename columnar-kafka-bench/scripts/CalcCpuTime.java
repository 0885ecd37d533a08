import io.columnarkafka.bench.CalcBenchmark;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.ColumnarCalc;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.json.JsonBatchDecoder;
import io.columnarkafka.format.json.JsonDecodeOptions;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkJson;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code CalcBenchmark}'s q0 batch in thread CPU time, which the load of other processes distorts far less than
 * JMH's wall-clock scores on a shared machine: the median of 15 slices of 400 batches after 4,000 warm-up batches.
 * Run against two builds' jars in turn to compare them:
 *
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED -cp columnar-kafka-bench/target/benchmarks.jar \
 *       columnar-kafka-bench/scripts/CalcCpuTime.java after
 *
 * With {@code case-facts}: q0's program as the planner stage builds it (the bid view's condition, {@code dateTime} the
 * source table's CASE over event_type) with the condition as a fact the calc uses ({@code event_type = 2}: the CASE
 * becomes bid.dateTime, shared) and written {@code NOT(event_type <> 2)} (the same rows, no fact: the CASE evaluated
 * per row, as before {@code ConditionFacts}; the NOT adds a little of its own), in 5 rounds, the order alternating.
 */
public class CalcCpuTime {
    static final ThreadMXBean T = ManagementFactory.getThreadMXBean();
    interface Op { void run(); }
    static double measure(Op op, int perSlice) {
        for (int i = 0; i < perSlice * 10; i++) op.run();
        double[] s = new double[15];
        for (int k = 0; k < s.length; k++) {
            long t0 = T.getCurrentThreadCpuTime();
            for (int i = 0; i < perSlice; i++) op.run();
            s[k] = (T.getCurrentThreadCpuTime() - t0) / 1e3 / perSlice;
        }
        Arrays.sort(s);
        return s[s.length / 2];
    }
    public static void main(String[] a) {
        if (a.length > 0 && a[0].equals("case-facts")) {
            caseFacts();
            return;
        }
        CalcBenchmark calc = new CalcBenchmark();
        calc.setUp();
        double calcUs = measure(calc::batch, 400);
        calc.tearDown();
        System.out.printf("%s calc_q0_batch500_us %.1f%n", a.length > 0 ? a[0] : "", calcUs);
    }

    static void caseFacts() {
        RowType events = NexmarkGenerator.EVENT_TYPE;
        BufferAllocator allocator = new RootAllocator();
        RecordBytes records = new RecordBytes();
        try (NexmarkJson json = new NexmarkJson(new NexmarkGenerator(NexmarkConfig.defaults(42)))) {
            RecordSlab slab = json.encode(0, 500);
            for (int i = 0; i < slab.recordCount(); i++) records.add(slab.copyRecord(i));
        }
        VectorSchemaRoot root = new JsonBatchDecoder(events, JsonDecodeOptions.defaults()).decode(records, allocator).takeRoot();
        Expr type = new Expr.Column(0, events.getTypeAt(0));
        Expr eq2 = Expr.Call.of(io.columnarkafka.flink.calc.Op.EQUALS, new BooleanType(), type, new Expr.Literal(2, new IntType(false)));
        Expr ne2 = Expr.Call.of(io.columnarkafka.flink.calc.Op.NOT_EQUALS, new BooleanType(), type, new Expr.Literal(2, new IntType(false)));
        Expr notNe2 = Expr.Call.of(io.columnarkafka.flink.calc.Op.NOT, new BooleanType(), ne2);
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= 5; round++) {
            double with = 0;
            double without = 0;
            // the order alternates from round to round
            for (Expr cond : round % 2 == 0 ? List.of(eq2, notNe2) : List.of(notNe2, eq2)) {
                ColumnarCalc calc = ColumnarCalc.plan(program(events, cond), allocator);
                double us = measure(() -> {
                    try (ArrowBatch out = calc.apply(ArrowBatch.lend(root, "s"))) {
                        out.selectedCount(allocator);
                    }
                }, 400);
                calc.close();
                if (cond == eq2) {
                    with = us;
                } else {
                    without = us;
                }
            }
            System.out.printf("round %d: no fact %.1f us, fact %.1f us per 500-event batch%n", round, without, with);
            ratios.add(without / with);
        }
        Collections.sort(ratios);
        System.out.printf("no fact / fact: median %.2f (min %.2f, max %.2f) over %d rounds%n",
                ratios.get(ratios.size() / 2), ratios.get(0), ratios.get(ratios.size() - 1), ratios.size());
        root.close();
        allocator.close();
    }
    static CalcProgram program(RowType events, Expr cond) {
        List<Expr> p = new ArrayList<>();
        int[] rows = {1, 2, 3};
        Expr[] dt = new Expr[3];
        for (int r = 0; r < 3; r++) {
            RowType rt = (RowType) events.getTypeAt(rows[r]);
            int i = rt.getFieldIndex("dateTime");
            dt[r] = new Expr.Field(new Expr.Column(rows[r], rt), i, rt.getTypeAt(i));
        }
        RowType bid = (RowType) events.getTypeAt(3);
        Expr bidRow = new Expr.Column(3, bid);
        for (String name : List.of("auction", "bidder", "price", "dateTime", "extra")) {
            int i = bid.getFieldIndex(name);
            if (name.equals("dateTime")) {
                Expr type = new Expr.Column(0, events.getTypeAt(0));
                p.add(Expr.Call.of(io.columnarkafka.flink.calc.Op.CASE, dt[2].type(),
                        Expr.Call.of(io.columnarkafka.flink.calc.Op.EQUALS, new BooleanType(), type, new Expr.Literal(0, new IntType(false))), dt[0],
                        Expr.Call.of(io.columnarkafka.flink.calc.Op.EQUALS, new BooleanType(), type, new Expr.Literal(1, new IntType(false))), dt[1],
                        dt[2]));
            } else {
                p.add(new Expr.Field(bidRow, i, bid.getTypeAt(i)));
            }
        }
        return new CalcProgram(events, p, List.of("auction", "bidder", "price", "dateTime", "extra"), cond);
    }
}
