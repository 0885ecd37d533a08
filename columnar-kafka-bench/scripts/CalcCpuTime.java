import io.columnarkafka.bench.CalcBenchmark;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * {@code CalcBenchmark}'s q0 batch in thread CPU time, which the load of other processes distorts far less than
 * JMH's wall-clock scores on a shared machine: the median of 15 slices of 400 batches after 4,000 warm-up batches.
 * Run against two builds' jars in turn to compare them:
 *
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED -cp columnar-kafka-bench/target/benchmarks.jar \
 *       columnar-kafka-bench/scripts/CalcCpuTime.java after
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
        CalcBenchmark calc = new CalcBenchmark();
        calc.setUp();
        double calcUs = measure(calc::batch, 400);
        calc.tearDown();
        System.out.printf("%s calc_q0_batch500_us %.1f%n", a.length > 0 ? a[0] : "", calcUs);
    }
}
