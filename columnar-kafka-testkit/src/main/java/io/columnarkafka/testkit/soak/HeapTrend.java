package io.columnarkafka.testkit.soak;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The growth trend of heap-after-GC samples, by least squares, fitted two ways.
 *
 * <p><b>Per lifetime</b> (the overall figure): a killed and restarted process starts again from an empty heap, so
 * each process lifetime (one pid) is a segment of its own, and the pooled slope fits one common slope with an
 * intercept per segment (each segment centred on its own means), so restarts neither hide nor fake a trend.
 *
 * <p><b>Per phase</b> (the check): a fault also changes what a surviving process holds. When one task manager is
 * killed, the whole job moves to the other, whose heap steps up (and, after the killed one restarts idle, stays up
 * until the next kill moves the job away). A line through such a step reads as growth. So each lifetime is split
 * further at every fault, and a phase only counts samples taken once output has resumed after the fault before it
 * plus {@link #SETTLE_MINUTES} (the first samples after a job is deployed are still settling, higher than the level
 * they decay to). Within a phase the work is constant, so a steady leak shows as a common positive slope, while
 * steps at faults do not. A leak that only grows at faults (a step that never comes back) is not what this measures.
 */
public final class HeapTrend {
    /**
     * Minutes after the job starts, or after output resumes following a fault, whose samples a phase leaves out.
     * In the 20-minute soak of 2026-12-01 the heap after a job moved in decayed for about a minute (e.g. 36.6, 35.0,
     * 30.2, 30.7 MiB 20 s apart); with a fault every 2 minutes, half a minute keeps 3 or more samples per phase.
     */
    public static final double SETTLE_MINUTES = 0.5;

    /** The fewest samples a segment or phase needs to get a slope of its own. */
    static final int MIN_SAMPLES = 3;

    private HeapTrend() {}

    /**
     * The slope of one segment or of all segments pooled, in bytes per minute, its standard error (from the residuals
     * about the fitted lines; NaN with too few samples), how many samples and segments it used and the minutes they
     * span.
     */
    public record Slope(String label, double bytesPerMinute, double standardError, int samples, int segments,
                        double minutes) {}

    /** The pooled within-lifetime slope over every lifetime of at least 3 samples (the overall figure). */
    public static Slope pooled(List<HeapSample> samples) {
        return pool("pooled over lifetimes", segments(samples));
    }

    /** The slope of each lifetime (process name and pid) of at least 3 samples, in order of first sample. */
    public static List<Slope> perSegment(List<HeapSample> samples) {
        return fits(segments(samples));
    }

    /** The pooled within-phase slope over every phase of at least 3 samples (the check). */
    public static Slope pooledOverPhases(List<HeapSample> samples, List<SoakFault> faults) {
        return pool("pooled over phases", phases(samples, faults));
    }

    /** The slope of each phase of at least 3 samples, in order of first sample. */
    public static List<Slope> perPhase(List<HeapSample> samples, List<SoakFault> faults) {
        return fits(phases(samples, faults));
    }

    /** Samples by process lifetime, labelled {@code name (pid N)}. */
    static Map<String, List<HeapSample>> segments(List<HeapSample> samples) {
        Map<String, List<HeapSample>> segments = new LinkedHashMap<>();
        for (HeapSample s : samples) {
            segments.computeIfAbsent(s.process() + " (pid " + s.pid() + ")", k -> new ArrayList<>()).add(s);
        }
        return segments;
    }

    /**
     * Samples by process lifetime and by the interval between faults, labelled {@code name (pid N), from-to min};
     * samples before a phase has settled (see {@link #SETTLE_MINUTES}) are left out, and so is every sample after a
     * fault output never resumed from (recovery {@code -1}) until the next fault.
     */
    static Map<String, List<HeapSample>> phases(List<HeapSample> samples, List<SoakFault> faults) {
        List<SoakFault> ordered = faults.stream()
                .sorted((a, b) -> Double.compare(a.minutes(), b.minutes())).toList();
        Map<String, List<HeapSample>> phases = new LinkedHashMap<>();
        for (HeapSample s : samples) {
            int phase = 0;
            while (phase < ordered.size() && ordered.get(phase).minutes() <= s.minutes()) {
                phase++;
            }
            double settled = phase == 0 ? SETTLE_MINUTES : settledAfter(ordered.get(phase - 1));
            if (s.minutes() < settled) {
                continue;
            }
            double end = phase < ordered.size() ? ordered.get(phase).minutes() : Double.POSITIVE_INFINITY;
            String label = String.format(Locale.ROOT, "%s (pid %d), %.2f-%s min", s.process(), s.pid(), settled,
                    Double.isInfinite(end) ? "end" : String.format(Locale.ROOT, "%.2f", end));
            phases.computeIfAbsent(label, k -> new ArrayList<>()).add(s);
        }
        return phases;
    }

    /** When the samples after {@code fault} start to count: output resumed, plus the settle time. */
    static double settledAfter(SoakFault fault) {
        return fault.recoveryMillis() < 0 ? Double.POSITIVE_INFINITY
                : fault.minutes() + fault.recoveryMillis() / 60_000.0 + SETTLE_MINUTES;
    }

    private static List<Slope> fits(Map<String, List<HeapSample>> segments) {
        List<Slope> slopes = new ArrayList<>();
        segments.forEach((label, segment) -> {
            if (segment.size() >= MIN_SAMPLES) {
                slopes.add(pool(label, Map.of(label, segment)));
            }
        });
        return slopes;
    }

    /** One slope over the segments of at least {@link #MIN_SAMPLES} samples, each with its own intercept. */
    private static Slope pool(String label, Map<String, List<HeapSample>> segments) {
        List<List<HeapSample>> used = segments.values().stream().filter(s -> s.size() >= MIN_SAMPLES).toList();
        double sxy = 0;
        double sxx = 0;
        int n = 0;
        double span = 0;
        for (List<HeapSample> segment : used) {
            double[] sums = centredSums(segment);
            sxy += sums[0];
            sxx += sums[1];
            n += segment.size();
            span += span(segment);
        }
        double slope = sxx == 0 ? Double.NaN : sxy / sxx;
        double residuals = 0;
        for (List<HeapSample> segment : used) {
            double[] sums = centredSums(segment);
            for (HeapSample s : segment) {
                double r = s.bytes() - sums[3] - slope * (s.minutes() - sums[2]);
                residuals += r * r;
            }
        }
        // Degrees of freedom: one intercept per segment and the common slope.
        int freedom = n - used.size() - 1;
        double standardError = freedom <= 0 || sxx == 0 ? Double.NaN : Math.sqrt(residuals / freedom / sxx);
        return new Slope(label, slope, standardError, n, used.size(), span);
    }

    private static double span(List<HeapSample> segment) {
        return segment.get(segment.size() - 1).minutes() - segment.get(0).minutes();
    }

    /** {sum of (t - mean t)(y - mean y), sum of (t - mean t)^2, mean t, mean y}. */
    static double[] centredSums(List<HeapSample> segment) {
        double meanT = segment.stream().mapToDouble(HeapSample::minutes).average().orElse(0);
        double meanY = segment.stream().mapToDouble(HeapSample::bytes).average().orElse(0);
        double sxy = 0;
        double sxx = 0;
        for (HeapSample s : segment) {
            double dt = s.minutes() - meanT;
            sxy += dt * (s.bytes() - meanY);
            sxx += dt * dt;
        }
        return new double[] {sxy, sxx, meanT, meanY};
    }
}
