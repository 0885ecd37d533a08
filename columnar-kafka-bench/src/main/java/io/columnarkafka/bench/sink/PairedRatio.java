package io.columnarkafka.bench.sink;

import java.util.ArrayList;
import java.util.List;

/**
 * One comparison of two variants, paired by round: in every counted round where both passed, the ratio
 * of their records/s and of their Flink JVM CPU per record, summarized as median, min and max. Pairing
 * by round keeps a slow phase of the shared machine out of the ratio, which the ratio of two medians
 * (taken from different rounds) does not.
 *
 * @param numerator the variant the ratio is about, e.g. (b)
 * @param denominator the variant it is compared with, e.g. (a)
 * @param objectReuse the object-reuse setting of the DataStream variants compared
 * @param throughputTarget the least median records/s ratio the issue asks for, or NaN for none
 * @param cpuTarget the largest median CPU-per-record ratio the issue asks for, or NaN for none
 */
record PairedRatio(Variant numerator, Variant denominator, boolean objectReuse, double throughputTarget,
                   double cpuTarget) {

    /** The ratios the report gives, with the targets. */
    static List<PairedRatio> all() {
        List<PairedRatio> pairs = new ArrayList<>();
        for (boolean reuse : List.of(false, true)) {
            pairs.add(new PairedRatio(Variant.COLUMNAR, Variant.STOCK_JSON, reuse, 1.5, Double.NaN));
            pairs.add(new PairedRatio(Variant.COLUMNAR, Variant.PREBUILT_BYTES, reuse, 0.85, Double.NaN));
            pairs.add(new PairedRatio(Variant.COLUMNAR, Variant.BARE_PRODUCER, reuse, Double.NaN, Double.NaN));
            pairs.add(new PairedRatio(Variant.PREBUILT_BYTES, Variant.BARE_PRODUCER, reuse, Double.NaN, Double.NaN));
        }
        pairs.add(new PairedRatio(Variant.SQL_COLUMNAR, Variant.SQL_KAFKA, false, 1.25, 0.8));
        return pairs;
    }

    /** Median, min and max of a ratio over the paired rounds; {@code rounds} 0 when no round paired. */
    record Spread(int rounds, double median, double min, double max) {
        static Spread of(List<Double> ratios) {
            double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            if (sorted.length == 0) {
                return new Spread(0, Double.NaN, Double.NaN, Double.NaN);
            }
            int mid = sorted.length / 2;
            double median = sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
            return new Spread(sorted.length, median, sorted[0], sorted[sorted.length - 1]);
        }
    }

    /** The paired ratios of records/s and of CPU per record over the counted rounds. */
    record Result(PairedRatio pair, Spread throughput, Spread cpu) {}

    boolean applies(List<RunResult> results) {
        return results.stream().anyMatch(r -> matches(r, numerator)) && results.stream().anyMatch(r -> matches(r, denominator));
    }

    Result over(List<RunResult> results) {
        List<Double> throughput = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        int[] rounds = results.stream().filter(r -> r.round() > 0).mapToInt(RunResult::round)
                .distinct().sorted().toArray();
        for (int round : rounds) {
            RunResult x = find(results, numerator, round);
            RunResult y = find(results, denominator, round);
            if (x != null && y != null && x.ok() && y.ok()) {
                throughput.add(x.recordsPerSecond() / y.recordsPerSecond());
                cpu.add(x.cpuMicrosPerRecord() / y.cpuMicrosPerRecord());
            }
        }
        return new Result(this, Spread.of(throughput), Spread.of(cpu));
    }

    String label() {
        String ratio = "(" + numerator.letter() + ") / (" + denominator.letter() + ")";
        return numerator.hasObjectReuseSetting() ? ratio + ", object reuse " + (objectReuse ? "on" : "off") : ratio;
    }

    private RunResult find(List<RunResult> results, Variant variant, int round) {
        return results.stream().filter(r -> r.round() == round && matches(r, variant)).findFirst().orElse(null);
    }

    private boolean matches(RunResult r, Variant variant) {
        return r.spec().variant() == variant
                && (!variant.hasObjectReuseSetting() || r.spec().objectReuse() == objectReuse);
    }

    static String describe(Spread s) {
        return s.rounds() == 0 ? "n/a" : String.format(java.util.Locale.ROOT, "%.2f (%.2f – %.2f)", s.median(), s.min(), s.max());
    }
}
