import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import io.columnarkafka.flink.calc.eval.RowOfLargestTimestamp;
import io.columnarkafka.flink.table.ArrowInPlaceRowView;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.json.JsonBatchDecoder;
import io.columnarkafka.format.json.JsonDecodeOptions;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkJson;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DayTimeIntervalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The scan's watermark step per 500-event Nexmark batch, in thread CPU time (median of 15 slices, variants
 * alternating per slice in one JVM): the row probe's per-row work as Flink's generated code does it (a deep copy of
 * the nested row read, then its dateTime; see WatermarkProbeCpuTime.java) over ArrowInPlaceRowView, against the
 * columnar path (the suite's watermark, CASE ... END - INTERVAL '4' SECOND, evaluated as one column by
 * RowOfLargestTimestamp). Both bind the view and copy the one chosen row, as ArrowBatchWatermarks does. Run with the
 * bench's classpath:
 *
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED \
 *       -cp "columnar-kafka-bench/target/classes:$(cat columnar-kafka-bench/target/classpath.txt)" \
 *       columnar-kafka-bench/scripts/WatermarkColumnCpuTime.java
 */
public class WatermarkColumnCpuTime {
    static final ThreadMXBean T = ManagementFactory.getThreadMXBean();
    static final RowType EVENTS = NexmarkGenerator.EVENT_TYPE;
    static final int BATCH = 500;
    static final RowDataSerializer[] NESTED = new RowDataSerializer[4];
    static final int[] DATE_TIME = new int[4];
    static long sink;

    static long watermarkRead(RowData row) {
        long wm = Long.MIN_VALUE;
        for (int k = 1; k <= 3; k++) {
            if (!row.isNullAt(k)) {
                RowType nested = (RowType) EVENTS.getTypeAt(k);
                RowData copy = NESTED[k].copy(row.getRow(k, nested.getFieldCount()));
                wm = Math.max(wm, copy.getTimestamp(DATE_TIME[k], 3).getMillisecond() - 4000);
            }
        }
        return wm;
    }

    static Expr dateTimeOf(int column) {
        RowType nested = (RowType) EVENTS.getTypeAt(column);
        int field = nested.getFieldIndex("dateTime");
        return new Expr.Field(new Expr.Column(column, nested), field, nested.getTypeAt(field));
    }

    static Expr isType(int type) {
        return Expr.Call.of(Op.EQUALS, new BooleanType(), new Expr.Column(0, EVENTS.getTypeAt(0)),
                new Expr.Literal(type, new IntType(false)));
    }

    public static void main(String[] a) throws Exception {
        for (int k = 1; k <= 3; k++) {
            RowType nested = (RowType) EVENTS.getTypeAt(k);
            NESTED[k] = new RowDataSerializer(nested);
            DATE_TIME[k] = nested.getFieldIndex("dateTime");
        }
        LogicalType ts = new TimestampType(3);
        Expr caseWhen = new Expr.Call(Op.CASE, List.of(isType(0), dateTimeOf(1), isType(1), dateTimeOf(2), dateTimeOf(3)), ts);
        Expr watermark = Expr.Call.of(Op.MINUS, ts, caseWhen, new Expr.Literal(4000L, new DayTimeIntervalType(false,
                DayTimeIntervalType.DayTimeResolution.SECOND, DayTimeIntervalType.DEFAULT_DAY_PRECISION, 3)));
        RowOfLargestTimestamp column = RowOfLargestTimestamp.compile(EVENTS, watermark);
        RowDataSerializer copier = new RowDataSerializer(EVENTS);
        RecordBytes records = new RecordBytes();
        try (NexmarkJson json = new NexmarkJson(new NexmarkGenerator(NexmarkConfig.defaults(42)))) {
            RecordSlab slab = json.encode(0, BATCH);
            for (int i = 0; i < slab.recordCount(); i++) {
                records.add(slab.copyRecord(i));
            }
        }
        try (BufferAllocator allocator = new RootAllocator()) {
            DecodedBatch decoded = new JsonBatchDecoder(EVENTS, JsonDecodeOptions.defaults()).decode(records, allocator);
            try (VectorSchemaRoot events = decoded.takeRoot()) {
                ArrowInPlaceRowView view = new ArrowInPlaceRowView(EVENTS);
                int n = events.getRowCount();
                Runnable probe = () -> {
                    view.bind(events);
                    int best = n - 1;
                    long largest = Long.MIN_VALUE;
                    for (int i = 0; i < n; i++) {
                        long wm = watermarkRead(view.row(i));
                        if (wm > largest) {
                            largest = wm;
                            best = i;
                        }
                    }
                    sink += copier.copy(view.row(best)).getArity();
                };
                Runnable columnar = () -> {
                    view.bind(events);
                    int best = column.rowOf(events);
                    sink += copier.copy(view.row(best < 0 ? n - 1 : best)).getArity() + best;
                };
                Runnable[] variants = {probe, columnar};
                String[] names = {"row probe (generated code's reads, in place)", "columnar (RowOfLargestTimestamp)"};
                for (int w = 0; w < 3000; w++) {
                    for (Runnable v : variants) v.run();
                }
                double[][] slices = new double[2][15];
                for (int s = 0; s < 15; s++) {
                    for (int v = 0; v < 2; v++) {
                        long t0 = T.getCurrentThreadCpuTime();
                        for (int i = 0; i < 200; i++) variants[v].run();
                        slices[v][s] = (T.getCurrentThreadCpuTime() - t0) / 1e3 / 200;
                    }
                }
                double[] ratios = new double[15];
                for (int s = 0; s < 15; s++) {
                    ratios[s] = slices[0][s] / slices[1][s];
                }
                Arrays.sort(ratios);
                for (int v = 0; v < 2; v++) {
                    Arrays.sort(slices[v]);
                    System.out.printf("%-48s %7.1f us per %d-event batch (slices %.1f-%.1f)%n", names[v],
                            slices[v][7], n, slices[v][0], slices[v][14]);
                }
                System.out.printf("probe / columnar, paired per slice: median %.2fx (%.2f-%.2f)%n", ratios[7], ratios[0],
                        ratios[14]);
            }
        }
        System.out.println("(checksum " + sink + ")");
    }
}
