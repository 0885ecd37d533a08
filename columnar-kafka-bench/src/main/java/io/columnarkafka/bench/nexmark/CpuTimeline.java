package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.ChildJvm;
import java.util.ArrayList;
import java.util.List;

/**
 * This JVM's process CPU time sampled over wall time, so a fixed-rate cell can state the CPU cores its Flink job
 * used while steady: between the moments 10 % and 90 % of the input had been read, not over start-up or the final
 * drain. Samples are timed like {@link io.columnarkafka.bench.JobProgress}'s (epoch ms read off the monotonic
 * clock), so the two timelines line up.
 */
final class CpuTimeline implements AutoCloseable {
    static final long INTERVAL_MS = 100;

    private final long anchorMillis = System.currentTimeMillis();
    private final long anchorNanos = System.nanoTime();
    private final List<double[]> samples = new ArrayList<>();
    private final Thread sampler;
    private volatile boolean running = true;

    private CpuTimeline() {
        sampler = new Thread(() -> {
            while (running) {
                try {
                    Thread.sleep(INTERVAL_MS);
                } catch (InterruptedException e) {
                    return;
                }
                sample();
            }
        }, "cpu-timeline");
        sampler.setDaemon(true);
    }

    static CpuTimeline start() {
        CpuTimeline timeline = new CpuTimeline();
        // The first sample now: on a loaded machine the sampler thread may first run much later.
        timeline.sample();
        timeline.sampler.start();
        return timeline;
    }

    private void sample() {
        double millis = anchorMillis + (System.nanoTime() - anchorNanos) / 1e6;
        long cpu = ChildJvm.processCpuNanos();
        synchronized (samples) {
            samples.add(new double[] {millis, cpu});
        }
    }

    /** The CPU cores used on average between two epoch-ms instants inside the sampled span. */
    double coresBetween(double fromMillis, double toMillis) {
        synchronized (samples) {
            double[] millis = samples.stream().mapToDouble(s -> s[0]).toArray();
            double[] cpuNanos = samples.stream().mapToDouble(s -> s[1]).toArray();
            return cores(millis, cpuNanos, fromMillis, toMillis);
        }
    }

    /**
     * (CPU at {@code toMillis} − CPU at {@code fromMillis}) / wall time, each CPU figure interpolated linearly between
     * the samples around it; NaN if the span is empty or not inside the samples.
     */
    static double cores(double[] millis, double[] cpuNanos, double fromMillis, double toMillis) {
        if (!(toMillis > fromMillis) || millis.length < 2 || fromMillis < millis[0]
                || toMillis > millis[millis.length - 1]) {
            return Double.NaN;
        }
        return (at(millis, cpuNanos, toMillis) - at(millis, cpuNanos, fromMillis)) / 1e6 / (toMillis - fromMillis);
    }

    private static double at(double[] millis, double[] values, double t) {
        int i = 1;
        while (i < millis.length - 1 && millis[i] < t) {
            i++;
        }
        double span = millis[i] - millis[i - 1];
        double share = span == 0 ? 1 : (t - millis[i - 1]) / span;
        return values[i - 1] + share * (values[i] - values[i - 1]);
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        sample();
    }
}
