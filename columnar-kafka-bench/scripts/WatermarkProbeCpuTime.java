import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.flink.table.ArrowInPlaceRowView;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.json.JsonBatchDecoder;
import io.columnarkafka.format.json.JsonDecodeOptions;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkJson;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * What Flink's generated watermark code does per row of the Nexmark source (its JFR stacks: {@code
 * currentWatermarkImpl -> RowDataSerializer.copy} of the nested row, then the nested {@code dateTime}), over 500
 * decoded events, in thread CPU time (median of 15 slices, paired in one JVM, variants alternating per slice):
 * stock's rows (Flink's JSON deserializer), the columnar probe's rows before ({@code ArrowRowView}) and after
 * ({@code ArrowInPlaceRowView}). Run with the bench's classpath:
 *
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED \
 *       -cp "columnar-kafka-bench/target/classes:$(cat columnar-kafka-bench/target/classpath.txt)" \
 *       columnar-kafka-bench/scripts/WatermarkProbeCpuTime.java
 */
public class WatermarkProbeCpuTime {
    static final ThreadMXBean T = ManagementFactory.getThreadMXBean();
    static final RowType EVENTS = NexmarkGenerator.EVENT_TYPE;
    static final int BATCH = 500;
    static final RowDataSerializer[] NESTED = new RowDataSerializer[4];
    static final int[] DATE_TIME = new int[4];
    static long sink;

    /** One row as the generated watermark code reads it: a deep copy of each non-null nested row, its dateTime. */
    static long watermarkRead(RowData row) {
        long wm = Long.MIN_VALUE;
        for (int k = 1; k <= 3; k++) {
            if (!row.isNullAt(k)) {
                RowType nested = (RowType) EVENTS.getTypeAt(k);
                RowData copy = NESTED[k].copy(row.getRow(k, nested.getFieldCount()));
                wm = Math.max(wm, copy.getTimestamp(DATE_TIME[k], 3).getMillisecond());
            }
        }
        return wm;
    }

    static void batch(IntFunction<RowData> rows, int count) {
        long acc = 0;
        for (int i = 0; i < count; i++) {
            acc += watermarkRead(rows.apply(i));
        }
        sink += acc;
    }

    public static void main(String[] a) throws Exception {
        for (int k = 1; k <= 3; k++) {
            RowType nested = (RowType) EVENTS.getTypeAt(k);
            NESTED[k] = new RowDataSerializer(nested);
            DATE_TIME[k] = nested.getFieldIndex("dateTime");
        }
        RecordBytes records = new RecordBytes();
        List<byte[]> bytes = new ArrayList<>();
        try (NexmarkJson json = new NexmarkJson(new NexmarkGenerator(NexmarkConfig.defaults(42)))) {
            RecordSlab slab = json.encode(0, BATCH);
            for (int i = 0; i < slab.recordCount(); i++) {
                byte[] record = slab.copyRecord(i);
                records.add(record);
                bytes.add(record);
            }
        }
        JsonParserRowDataDeserializationSchema flink = new JsonParserRowDataDeserializationSchema(EVENTS,
                InternalTypeInfo.of(EVENTS), false, false, TimestampFormat.SQL);
        flink.open(null);
        List<RowData> stockRows = new ArrayList<>();
        Collector<RowData> collect = new Collector<>() {
            public void collect(RowData r) { stockRows.add(r); }
            public void close() {}
        };
        for (byte[] record : bytes) {
            flink.deserialize(record, collect);
        }
        try (BufferAllocator allocator = new RootAllocator()) {
            DecodedBatch decoded = new JsonBatchDecoder(EVENTS, JsonDecodeOptions.defaults()).decode(records, allocator);
            try (VectorSchemaRoot events = decoded.takeRoot()) {
                ArrowRowView copying = new ArrowRowView(EVENTS);
                copying.bind(events);
                ArrowInPlaceRowView inPlace = new ArrowInPlaceRowView(EVENTS);
                inPlace.bind(events);
                int n = events.getRowCount();
                Runnable[] variants = {
                    () -> batch(stockRows::get, n), () -> batch(copying::row, n), () -> batch(inPlace::row, n)};
                String[] names = {"stock rows (Flink JSON)", "columnar before (ArrowRowView)", "columnar after (ArrowInPlaceRowView)"};
                for (int w = 0; w < 3000; w++) {
                    for (Runnable v : variants) v.run();
                }
                double[][] slices = new double[3][15];
                for (int s = 0; s < 15; s++) {
                    for (int v = 0; v < 3; v++) {
                        long t0 = T.getCurrentThreadCpuTime();
                        for (int i = 0; i < 200; i++) variants[v].run();
                        slices[v][s] = (T.getCurrentThreadCpuTime() - t0) / 1e3 / 200;
                    }
                }
                for (int v = 0; v < 3; v++) {
                    Arrays.sort(slices[v]);
                    System.out.printf("%-40s %7.1f us per %d-event batch (slices %.1f-%.1f)%n", names[v],
                            slices[v][7], n, slices[v][0], slices[v][14]);
                }
            }
        }
        System.out.println("(checksum " + sink + ")");
    }
}
