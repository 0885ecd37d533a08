package io.columnarkafka.flink.sink;

import org.apache.flink.metrics.MetricGroup;

/** The gauges of a sink subtask's {@link SendWindow}, in the metric group of the operator that sends. */
public final class SendWindowMetrics {
    public static final String BOUND_BYTES = "sendWindowBoundBytes";
    public static final String IN_FLIGHT_BYTES = "sendWindowInFlightBytes";
    public static final String WAIT_NANOS = "sendWindowWaitNanos";

    private SendWindowMetrics() {}

    public static void register(MetricGroup group, SendWindow window) {
        group.gauge(BOUND_BYTES, window::bound);
        group.gauge(IN_FLIGHT_BYTES, window::inFlight);
        group.gauge(WAIT_NANOS, window::waitNanos);
    }
}
