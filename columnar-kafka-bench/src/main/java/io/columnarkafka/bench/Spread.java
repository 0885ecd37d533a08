package io.columnarkafka.bench;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;

/**
 * Median, min and max of a benchmark's per-round figures (e.g. paired ratios); {@code rounds} 0 and NaN
 * figures when there are none.
 */
public record Spread(int rounds, double median, double min, double max) {

    public static Spread of(Collection<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        if (sorted.length == 0) {
            return new Spread(0, Double.NaN, Double.NaN, Double.NaN);
        }
        int mid = sorted.length / 2;
        double median = sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
        return new Spread(sorted.length, median, sorted[0], sorted[sorted.length - 1]);
    }

    /** e.g. {@code 3.21x (2.90x – 3.40x)}, or {@code n/a}. */
    public String ratio() {
        return rounds == 0 ? "n/a" : String.format(Locale.ROOT, "%.2fx (%.2fx – %.2fx)", median, min, max);
    }
}
