package io.columnarkafka.flink.sink;

import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The metrics of a sink subtask's {@link SendWindow}, in the metric group of the operator that sends: its gauges, and
 * per checkpoint what the window left for the chained writer's flush ({@link #BACKLOG_AT_BARRIER_BYTES}) and how long
 * the flush took ({@link #FLUSH_NANOS}), the two figures that say whether a slow checkpoint waited for the backlog.
 */
public final class SendWindowMetrics {
    public static final String BOUND_BYTES = "sendWindowBoundBytes";
    public static final String IN_FLIGHT_BYTES = "sendWindowInFlightBytes";
    public static final String WAIT_NANOS = "sendWindowWaitNanos";
    /** Bytes sent and not yet acknowledged when a barrier reached the sending operator, before the writer's flush. */
    public static final String BACKLOG_AT_BARRIER_BYTES = "sendWindowBacklogAtBarrierBytes";
    /** From a barrier reaching the sending operator to its snapshot: the chained writer's flush and snapshot. */
    public static final String FLUSH_NANOS = "sendWindowFlushNanos";
    /** The checkpoints each histogram keeps (some minutes at the usual intervals). */
    private static final int CHECKPOINT_WINDOW = 256;

    private final Histogram backlogAtBarrier;
    private final Histogram flushNanos;

    private SendWindowMetrics(MetricGroup group) {
        backlogAtBarrier = group.histogram(BACKLOG_AT_BARRIER_BYTES,
                new DescriptiveStatisticsHistogram(CHECKPOINT_WINDOW));
        flushNanos = group.histogram(FLUSH_NANOS, new DescriptiveStatisticsHistogram(CHECKPOINT_WINDOW));
    }

    public static SendWindowMetrics register(MetricGroup group, SendWindow window) {
        group.gauge(BOUND_BYTES, window::bound);
        group.gauge(IN_FLIGHT_BYTES, window::inFlight);
        group.gauge(WAIT_NANOS, window::waitNanos);
        return new SendWindowMetrics(group);
    }

    void barrier(long backlogBytes) {
        backlogAtBarrier.update(backlogBytes);
    }

    void flushed(long nanos) {
        flushNanos.update(nanos);
    }
}
