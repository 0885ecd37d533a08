package io.columnarkafka.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The SQL sink's path against Flink's serializer with paired, interleaved rounds in one JVM, for a loaded
 * machine where JMH's one-benchmark-after-the-other runs compare minutes apart: each round times
 * Flink's {@code serialize} per row, the columnar path from Flink's {@code BinaryRowData} (transpose +
 * encode + drain) and the columnar encode + drain of a ready Arrow batch, for the same wall time each, in an
 * order rotated per round; round 0 is a warm-up and not counted. Reports per side rows/s and thread CPU
 * per row, and the per-round ratios to Flink as median, min and max.
 *
 * <p>Uses {@link FormatEncoderBenchmark}'s setup, which refuses a columnar side whose bytes differ from
 * Flink's. Usage: {@code java -cp benchmarks.jar io.columnarkafka.bench.InterleavedRowDataComparison
 * [format=json] [rounds=7] [seconds=2] [batchSize=4096] [dataset=bid] [rowClass=binary|generic|boxed]}.
 */
public final class InterleavedRowDataComparison {
    private static final String[] SIDES = {"flink", "rowdata", "columnar"};

    private InterleavedRowDataComparison() {}

    public static void main(String[] args) throws Exception {
        String format = arg(args, 0, "json");
        int rounds = Integer.parseInt(arg(args, 1, "7"));
        double seconds = Double.parseDouble(arg(args, 2, "2"));
        FormatEncoderBenchmark data = new FormatEncoderBenchmark();
        data.format = format;
        data.batchSize = Integer.parseInt(arg(args, 3, "4096"));
        data.dataset = arg(args, 4, "bid");
        data.rowClass = arg(args, 5, "binary");
        data.prepare();
        FormatEncoderBenchmark.Columnar columnar = new FormatEncoderBenchmark.Columnar();
        FormatEncoderBenchmark.FromRows fromRows = new FormatEncoderBenchmark.FromRows();
        columnar.plan(data);
        fromRows.plan(data);
        Blackhole blackhole = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        List<ToLongFunction<Blackhole>> batches = List.of(
                b -> data.fixture().flinkSerialize(b),
                fromRows::transposeEncodeAndDrain,
                b -> data.fixture().encodeAndDrain(columnar.encoder, b));
        double[][] rowsPerSecond = new double[SIDES.length][rounds];
        double[][] cpuNanosPerRow = new double[SIDES.length][rounds];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try {
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < SIDES.length; k++) {
                    int side = (round + k) % SIDES.length;
                    long rows = 0;
                    long cpuStart = threads.getCurrentThreadCpuTime();
                    long start = System.nanoTime();
                    long end = start + (long) (seconds * 1e9);
                    while (System.nanoTime() < end) {
                        batches.get(side).applyAsLong(blackhole);
                        rows += data.batchSize;
                    }
                    long wall = System.nanoTime() - start;
                    rowsPerSecond[side][round] = rows * 1e9 / wall;
                    cpuNanosPerRow[side][round] = (threads.getCurrentThreadCpuTime() - cpuStart) / (double) rows;
                }
                System.out.printf(Locale.ROOT, "round %d%s: flink %,.0f rows/s, rowdata %,.0f, columnar %,.0f%n",
                        round, round == 0 ? " (warm-up)" : "", rowsPerSecond[0][round], rowsPerSecond[1][round],
                        rowsPerSecond[2][round]);
            }
        } finally {
            fromRows.close();
            data.tearDown();
        }
        System.out.printf(Locale.ROOT, "%n%s, %s, %s rows, batch %d, %d counted rounds of %.1f s per side,"
                + " order rotated per round%n%n", format, data.dataset, data.rowClass, data.batchSize, rounds - 1, seconds);
        System.out.println("| side | rows/s (median) | CPU ns/row (median) | paired ratio to Flink: median | min | max |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (int side = 0; side < SIDES.length; side++) {
            List<Double> ratios = new ArrayList<>();
            List<Double> rates = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            for (int round = 1; round < rounds; round++) {
                ratios.add(rowsPerSecond[side][round] / rowsPerSecond[0][round]);
                rates.add(rowsPerSecond[side][round]);
                cpu.add(cpuNanosPerRow[side][round]);
            }
            System.out.printf(Locale.ROOT, "| %s | %,.0f | %.1f | %.2fx | %.2fx | %.2fx |%n", SIDES[side],
                    median(rates), median(cpu), median(ratios), Collections.min(ratios), Collections.max(ratios));
        }
    }

    private static String arg(String[] args, int index, String fallback) {
        return args.length > index ? args[index] : fallback;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
