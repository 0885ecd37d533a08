package io.columnarkafka.bench;

/**
 * A job's steady-state rate from its progress over time: the rate between the moments its progress crosses
 * {@link #FROM} and {@link #TO} of the total, as Nexmark's own suite reports an unbounded run's throughput from the
 * sources' record rate while the job runs rather than from the job's length. The window leaves out what a bounded job's time holds
 * besides processing: task deployment, the Kafka clients' start (producer and transaction set-up, the first fetch)
 * before the first 10 %, and after the last 10 % the drain and the wait for the final exactly-once checkpoint (up
 * to the checkpoint interval), which an unbounded production job never pays. 10 % and 90 % rather than the first
 * and last record: the ends of the curve are where a single fetch or a single producer flush moves the position,
 * and where one partition may finish before the other.
 *
 * @param eventsPerSecond the rate in events per second: ({@code TO − FROM}) × events / the window's length; NaN if
 *     the progress does not cross both levels within the samples
 * @param fromMillis when the progress crossed {@code FROM} (the samples' clock), NaN if it did not
 * @param toMillis when it crossed {@code TO}, NaN if it did not
 */
record SteadyRate(double eventsPerSecond, double fromMillis, double toMillis) {
    static final double FROM = 0.10;
    static final double TO = 0.90;

    /**
     * The rate of {@code progress} (never decreasing, sampled at {@code millis}) between the crossings of {@code FROM}
     * and {@code TO} of {@code total}, stated in events: the window holds ({@code TO − FROM}) × {@code events}
     * events (for the output, the share of the output written stands for the same share of the input).
     */
    static SteadyRate of(double[] millis, long[] progress, long total, long events) {
        if (millis.length != progress.length) {
            throw new IllegalArgumentException(millis.length + " times for " + progress.length + " samples");
        }
        if (total <= 0) {
            return new SteadyRate(Double.NaN, Double.NaN, Double.NaN);
        }
        double from = crossing(millis, progress, FROM * total);
        double to = crossing(millis, progress, TO * total);
        double seconds = (to - from) / 1e3;
        return new SteadyRate(seconds > 0 ? (TO - FROM) * events / seconds : Double.NaN, from, to);
    }

    /**
     * When {@code progress} first reached {@code level}: linear between the last sample below it and the first at
     * or above it (the samples are tens of ms apart, a rate within them is taken as constant); NaN if it never
     * did, or if the first sample is already at or above it (when it got there is unknown).
     */
    static double crossing(double[] millis, long[] progress, double level) {
        for (int i = 0; i < progress.length; i++) {
            if (progress[i] >= level) {
                if (i == 0) {
                    return Double.NaN;
                }
                double share = (level - progress[i - 1]) / (progress[i] - progress[i - 1]);
                return millis[i - 1] + share * (millis[i] - millis[i - 1]);
            }
        }
        return Double.NaN;
    }
}
