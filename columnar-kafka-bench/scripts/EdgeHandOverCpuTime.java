import io.columnarkafka.flink.table.ArrowInPlaceRowView;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * What the source task does per row behind the Arrow-to-rows edge when a keyed exchange follows (the JFR stacks of
 * bench-results/nexmark-profile-20261203-stateful-edge-loaded.md): the edge's row, the key projected and written as a
 * binary row and hashed (what Flink's key selector and partitioner do), the row serialized by Flink's
 * RowDataSerializer into a buffer (the record writer). In thread CPU time per row, median of 15 slices of 200 batches
 * of 1,000 rows, the two edge forms alternating per slice in one JVM: row views (EdgeRows.VIEWS) against binary rows
 * (EdgeRows.BINARY). Two row types: q15's edge (day STRING, price, bidder, auction) keyed by the day, and q19's (the bid
 * row) keyed by auction. Run with the bench's classpath:
 *
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED \
 *       -cp "columnar-kafka-bench/target/classes:$(cat columnar-kafka-bench/target/classpath.txt)" \
 *       columnar-kafka-bench/scripts/EdgeHandOverCpuTime.java
 */
public class EdgeHandOverCpuTime {
    static final ThreadMXBean T = ManagementFactory.getThreadMXBean();
    static final int ROWS = 1000;
    static long sink;

    public static void main(String[] args) {
        run("q15 edge", RowTypes.parse("ROW<bid_day STRING, price BIGINT, bidder BIGINT, auction BIGINT>"), 0,
                (r, i) -> GenericRowData.of(StringData.fromString("2015-07-" + (10 + i % 5)), (long) r.nextInt(1_000_000),
                        (long) r.nextInt(10_000), (long) r.nextInt(100_000)));
        run("q19 edge", RowTypes.parse("ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
                + " dateTime TIMESTAMP(3), extra STRING>"), 0,
                (r, i) -> GenericRowData.of((long) r.nextInt(100_000), (long) r.nextInt(10_000),
                        (long) r.nextInt(1_000_000), StringData.fromString("channel-" + r.nextInt(10_000)),
                        StringData.fromString("https://www.nexmark.com/" + Long.toHexString(r.nextLong()) + "/item.htm?query=1"),
                        TimestampData.fromEpochMillis(1_436_918_400_000L + i), StringData.fromString("x".repeat(r.nextInt(80) + 20))));
    }

    interface RowMaker {
        GenericRowData make(Random random, int index);
    }

    static void run(String name, RowType type, int keyField, RowMaker maker) {
        Random random = new Random(42);
        RowDataSerializer rows = new RowDataSerializer(type);
        RowType keyType = RowType.of(type.getTypeAt(keyField));
        RowDataSerializer keys = new RowDataSerializer(keyType);
        ProjectedRowData key = ProjectedRowData.from(new int[] {keyField});
        DataOutputSerializer out = new DataOutputSerializer(1 << 20);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            for (int i = 0; i < ROWS; i++) {
                writer.write(maker.make(random, i));
            }
            VectorSchemaRoot batch = writer.finish();
            ArrowRowView views = new ArrowRowView(type);
            ArrowInPlaceRowView binary = new ArrowInPlaceRowView(type);
            String[] names = {"row views (before)", "binary rows (after)"};
            double[][] slices = new double[2][15];
            for (int s = -3; s < 15; s++) { // 3 slices of warm-up
                for (int k = 0; k < 2; k++) {
                    int v = (s + k) % 2 == 0 ? 0 : 1; // alternate which goes first
                    v = Math.floorMod(v, 2);
                    IntFunction<RowData> row;
                    if (v == 0) {
                        views.bind(batch);
                        row = views::row;
                    } else {
                        binary.bind(batch);
                        row = binary::binaryRow;
                    }
                    long t0 = T.getCurrentThreadCpuTime();
                    for (int b = 0; b < 200; b++) {
                        out.clear();
                        for (int i = 0; i < ROWS; i++) {
                            RowData r = row.apply(i);
                            sink += keys.toBinaryRow(key.replaceRow(r)).hashCode();
                            try {
                                rows.serialize(r, out);
                            } catch (java.io.IOException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                        sink += out.length();
                    }
                    if (s >= 0) {
                        slices[v][s] = (T.getCurrentThreadCpuTime() - t0) / 200.0 / ROWS;
                    }
                }
            }
            for (int v = 0; v < 2; v++) {
                double[] sorted = slices[v].clone();
                Arrays.sort(sorted);
                System.out.printf("%s, %s: median %.1f ns/row (min %.1f, max %.1f)%n", name, names[v], sorted[7],
                        sorted[0], sorted[14]);
            }
            double[] ratios = new double[15];
            for (int s = 0; s < 15; s++) {
                ratios[s] = slices[1][s] / slices[0][s];
            }
            Arrays.sort(ratios);
            System.out.printf("%s, binary / views per slice: median %.2f (min %.2f, max %.2f)%n", name, ratios[7],
                    ratios[0], ratios[14]);
        }
        System.err.println("checksum " + sink);
    }
}
