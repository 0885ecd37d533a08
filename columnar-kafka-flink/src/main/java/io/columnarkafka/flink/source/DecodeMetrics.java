package io.columnarkafka.flink.source;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The metrics of a columnar source reader, registered beside Flink's Kafka source metrics in the
 * reader's metric group (the mirror of the sink's {@code EncodeMetrics}).
 */
public final class DecodeMetrics {
    public static final String BATCHES = "batches";
    public static final String ROWS = "rows";
    public static final String BYTES = "bytes";
    public static final String SKIPPED_RECORDS = "skippedRecords";
    public static final String DECODE_TIME_NANOS = "decodeTimeNanos";
    /**
     * Wall time of each emit step (decoding one chunk and the chained operators' work on its batch): a
     * checkpoint's trigger waits for the step under way, so these are what a source barrier may queue behind.
     */
    public static final String EMIT_STEP_NANOS = "emitStepNanos";
    /** The last steps the step histogram keeps. */
    private static final int STEP_WINDOW = 4096;

    private final Counter batches;
    private final Counter rows;
    private final Counter bytes;
    private final Counter skippedRecords;
    private final Counter decodeTimeNanos;
    private final Histogram emitStepNanos;

    public DecodeMetrics(MetricGroup group) {
        batches = group.counter(BATCHES);
        rows = group.counter(ROWS);
        bytes = group.counter(BYTES);
        skippedRecords = group.counter(SKIPPED_RECORDS);
        decodeTimeNanos = group.counter(DECODE_TIME_NANOS);
        emitStepNanos = group.histogram(EMIT_STEP_NANOS, new DescriptiveStatisticsHistogram(STEP_WINDOW));
    }

    /**
     * Counts one decoded chunk: the rows it gave (0 when every record was skipped, and then no batch is
     * emitted), the records that gave none, the key and value bytes read and the time decoding took.
     */
    public void chunk(int rowCount, int skipped, long byteCount, long decodeNanos) {
        if (rowCount > 0) {
            batches.inc();
        }
        rows.inc(rowCount);
        skippedRecords.inc(skipped);
        bytes.inc(byteCount);
        decodeTimeNanos.inc(decodeNanos);
    }

    /** One emit step took {@code nanos} of wall time. */
    public void step(long nanos) {
        emitStepNanos.update(nanos);
    }
}
