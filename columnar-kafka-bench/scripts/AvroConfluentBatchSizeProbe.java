import io.columnarkafka.bench.ColumnarRound;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The columnar avro-confluent decode of Bid records at several batch sizes in one JVM, slices alternating between
 * the sizes so each meets the same load: this thread's CPU ns per row, median (min–max) over the counted slices (the
 * first round is a warm-up). Made to tell whether a batch size costs more per row than another, not how fast Flink
 * is (bin/bench-decoders format=avro-confluent does that). Run with the bench's classpath:
 *
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED -Xms2g -Xmx2g \
 *       -cp "columnar-kafka-bench/target/classes:$(cat columnar-kafka-bench/target/classpath.txt)" \
 *       columnar-kafka-bench/scripts/AvroConfluentBatchSizeProbe.java [rounds=9] [seconds=1] [batches=1024,4096,16384]
 */
public class AvroConfluentBatchSizeProbe {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 1;
        int[] batches = Arrays.stream((args.length > 2 ? args[2] : "1024,4096,16384").split(","))
                .mapToInt(Integer::parseInt).toArray();
        List<ColumnarRound> sides = new ArrayList<>();
        List<List<Double>> cpu = new ArrayList<>();
        for (int batch : batches) {
            sides.add(new ColumnarRound("avro-confluent", "bid", batch));
            cpu.add(new ArrayList<>());
        }
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < batches.length; k++) {
                int side = (round + k) % batches.length;
                double nanos = sides.get(side).applyAsDouble(seconds);
                if (round > 0) {
                    cpu.get(side).add(nanos);
                }
            }
        }
        for (int i = 0; i < batches.length; i++) {
            double[] v = cpu.get(i).stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf("batch %6d: CPU ns/row median %.1f (%.1f - %.1f) over %d slices%n", batches[i],
                    v[v.length / 2], v[0], v[v.length - 1], v.length);
        }
        System.exit(0); // the decoders' registry stubs keep their HTTP threads
    }
}
