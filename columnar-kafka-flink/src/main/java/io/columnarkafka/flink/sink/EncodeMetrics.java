package io.columnarkafka.flink.sink;

import java.util.function.LongSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The metrics of an encode operator, registered in its metric group: the DataStream sink's {@code
 * EncodeFunction} and the SQL sink's encode operator register the same names with the same meaning.
 */
public final class EncodeMetrics {
    public static final String BATCHES = "batches";
    public static final String ROWS = "rows";
    public static final String KEY_BYTES = "keyBytes";
    public static final String VALUE_BYTES = "valueBytes";
    public static final String ENCODE_TIME_NANOS = "encodeTimeNanos";
    public static final String DRAIN_TIME_NANOS = "drainTimeNanos";
    public static final String BUFFER_CAPACITY = "bufferCapacity";

    private final Counter batches;
    private final Counter rows;
    private final Counter keyBytes;
    private final Counter valueBytes;
    private final Counter encodeTimeNanos;
    private final Counter drainTimeNanos;

    /**
     * @param group the operator's metric group
     * @param bufferCapacity capacity in bytes of the reused value and key slabs
     */
    public EncodeMetrics(MetricGroup group, LongSupplier bufferCapacity) {
        batches = group.counter(BATCHES);
        rows = group.counter(ROWS);
        keyBytes = group.counter(KEY_BYTES);
        valueBytes = group.counter(VALUE_BYTES);
        encodeTimeNanos = group.counter(ENCODE_TIME_NANOS);
        drainTimeNanos = group.counter(DRAIN_TIME_NANOS);
        group.gauge(BUFFER_CAPACITY, bufferCapacity::getAsLong);
    }

    /** Counts one encoded batch: its rows, encoded bytes (null keys count 0), encode and drain time. */
    public void batch(int rowCount, long keyByteCount, long valueByteCount, long encodeNanos, long drainNanos) {
        batches.inc();
        rows.inc(rowCount);
        keyBytes.inc(keyByteCount);
        valueBytes.inc(valueByteCount);
        encodeTimeNanos.inc(encodeNanos);
        drainTimeNanos.inc(drainNanos);
    }
}
