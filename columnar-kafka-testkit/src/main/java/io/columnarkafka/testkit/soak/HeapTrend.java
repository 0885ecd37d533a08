package io.columnarkafka.testkit.soak;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The growth trend of heap-after-GC samples, by least squares. A killed and restarted process starts again from an
 * empty heap, so each process lifetime (one pid) is a segment of its own: the pooled slope fits one common slope with
 * an intercept per segment (each segment centred on its own means), so restarts neither hide nor fake a trend.
 */
public final class HeapTrend {
    private HeapTrend() {}

    /** The slope of one segment or of all segments pooled, in bytes per minute, and how many samples it used. */
    public record Slope(String label, double bytesPerMinute, int samples, double minutes) {}

    /** The pooled within-segment slope over every segment of at least 3 samples. */
    public static Slope pooled(List<HeapSample> samples) {
        double sxy = 0;
        double sxx = 0;
        int n = 0;
        double span = 0;
        for (List<HeapSample> segment : segments(samples).values()) {
            if (segment.size() < 3) {
                continue;
            }
            double[] sums = centredSums(segment);
            sxy += sums[0];
            sxx += sums[1];
            n += segment.size();
            span += segment.get(segment.size() - 1).minutes() - segment.get(0).minutes();
        }
        return new Slope("pooled", sxx == 0 ? Double.NaN : sxy / sxx, n, span);
    }

    /** The slope of each segment (process name and pid) of at least 3 samples, in order of first sample. */
    public static List<Slope> perSegment(List<HeapSample> samples) {
        List<Slope> slopes = new ArrayList<>();
        segments(samples).forEach((label, segment) -> {
            if (segment.size() >= 3) {
                double[] sums = centredSums(segment);
                slopes.add(new Slope(label, sums[1] == 0 ? Double.NaN : sums[0] / sums[1], segment.size(),
                        segment.get(segment.size() - 1).minutes() - segment.get(0).minutes()));
            }
        });
        return slopes;
    }

    /** Samples by process lifetime, labelled {@code name (pid N)}. */
    static Map<String, List<HeapSample>> segments(List<HeapSample> samples) {
        Map<String, List<HeapSample>> segments = new LinkedHashMap<>();
        for (HeapSample s : samples) {
            segments.computeIfAbsent(s.process() + " (pid " + s.pid() + ")", k -> new ArrayList<>()).add(s);
        }
        return segments;
    }

    /** {sum of (t - mean t)(y - mean y), sum of (t - mean t)^2}. */
    private static double[] centredSums(List<HeapSample> segment) {
        double meanT = segment.stream().mapToDouble(HeapSample::minutes).average().orElse(0);
        double meanY = segment.stream().mapToDouble(HeapSample::bytes).average().orElse(0);
        double sxy = 0;
        double sxx = 0;
        for (HeapSample s : segment) {
            double dt = s.minutes() - meanT;
            sxy += dt * (s.bytes() - meanY);
            sxx += dt * dt;
        }
        return new double[] {sxy, sxx};
    }
}
