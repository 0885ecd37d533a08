import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * Before/after of a JSON decoder change on a loaded machine: two builds of the format classes in one JVM, a class
 * loader each (the build's classes first, then the bench classpath), their columnar decode
 * ({@code io.columnarkafka.bench.ColumnarRound}) timed in alternating rounds, the order flipped every round, so
 * both builds meet the same load. Prints each round and the paired ratio after/before of CPU ns per row (median,
 * min - max) over the second half of the rounds (the first half warms up). The build loaded first can come out a
 * few percent apart from the second on its own: run both orders and take the geometric mean.
 *
 *   java columnar-kafka-bench/scripts/DecoderAB.java bid 4096 30 0.5 CLASSPATH_FILE BEFORE_CLASSES AFTER_CLASSES [FORMAT]
 *
 * CLASSPATH_FILE holds the bench classpath, absolute ({@code columnar-kafka-bench/target/classes} and
 * {@code target/classpath.txt}); BEFORE_CLASSES and AFTER_CLASSES are directories of compiled format classes
 * (e.g. {@code git archive <commit> columnar-kafka-format/src/main/java} compiled with javac against it). FORMAT is
 * {@code json} (the default) or {@code avro-confluent}; or {@code read-phase}, with a stateless Nexmark query (q0,
 * q10, q14, q21) as the dataset: a cell's read phase ({@code io.columnarkafka.bench.ReadPhaseRound}: decode, the query's
 * columnar calc, the sink's encode), CPU ns per input event; then BEFORE_CLASSES and AFTER_CLASSES are the format
 * and flink modules' jars (or class directories) of each build, joined with {@code :}. q14 is planned from its SQL:
 * its CLASSPATH_FILE starts with {@code columnar-kafka-planner/target/planner.classpath} and leaves out the planner
 * loader and the Scala 2.13 jars, as {@code bin/bench-read-phase} builds it.
 */
public class DecoderAB {
    public static void main(String[] a) throws Exception {
        String dataset = a[0];
        int batch = Integer.parseInt(a[1]);
        int rounds = Integer.parseInt(a[2]);
        double seconds = Double.parseDouble(a[3]);
        String classpath = Files.readString(Path.of(a[4])).trim();
        String format = a.length > 7 ? a[7] : "json";
        DoubleUnaryOperator before = load(a[5] + ":" + classpath, format, dataset, batch);
        DoubleUnaryOperator after = load(a[6] + ":" + classpath, format, dataset, batch);
        List<Double> ratios = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            double b;
            double n;
            if (r % 2 == 0) {
                b = before.applyAsDouble(seconds);
                n = after.applyAsDouble(seconds);
            } else {
                n = after.applyAsDouble(seconds);
                b = before.applyAsDouble(seconds);
            }
            System.out.printf("round %d: before %.1f after %.1f ratio %.3f%n", r, b, n, n / b);
            if (r >= rounds / 2) {
                ratios.add(n / b);
            }
        }
        Collections.sort(ratios);
        System.out.printf("%s batch %d: after/before CPU per row median %.3f (%.3f - %.3f) over %d paired rounds%n",
                dataset, batch, ratios.get(ratios.size() / 2), ratios.get(0), ratios.get(ratios.size() - 1),
                ratios.size());
    }

    private static DoubleUnaryOperator load(String classpath, String format, String dataset, int batch)
            throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : classpath.split(":")) {
            if (!entry.isEmpty()) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        ClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        String round = format.equals("read-phase") ? "ReadPhaseRound" : "ColumnarRound";
        return (DoubleUnaryOperator) loader.loadClass("io.columnarkafka.bench." + round)
                .getConstructor(String.class, String.class, Integer.class).newInstance(format, dataset, batch);
    }
}
