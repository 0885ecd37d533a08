package io.columnarkafka.flink.source.reader;

import io.columnarkafka.client.decode.RecordChunk;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.WideTimestamps;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The event time of a batch: the largest value of the timestamp field in epoch milliseconds, or
 * without one (or when it is null in every row) the largest Kafka record timestamp of the chunk, which
 * is what Flink's Kafka source stamps on each record.
 *
 * <p>Why the largest: the split's watermark generator sees the batch once, after all its rows are in the
 * stream, so stamping the batch with its latest row's time moves the split's watermark exactly as far as
 * Flink's row-at-a-time source would after that row, never past a row not yet emitted.
 */
final class BatchTimestamps {
    private final int field;
    /** Milliseconds = value * toMillisMultiplier / toMillisDivisor (floored), by the field's time unit. */
    private final long toMillisMultiplier;
    private final long toMillisDivisor;

    BatchTimestamps(RowType rowType, int field) {
        this.field = field;
        if (field < 0) {
            this.toMillisMultiplier = 1;
            this.toMillisDivisor = 1;
            return;
        }
        LogicalType type = rowType.getTypeAt(field);
        int precision;
        if (type instanceof TimestampType) {
            precision = ((TimestampType) type).getPrecision();
        } else if (type instanceof LocalZonedTimestampType) {
            precision = ((LocalZonedTimestampType) type).getPrecision();
        } else {
            throw new IllegalArgumentException("the timestamp field '" + rowType.getFieldNames().get(field)
                    + "' must be a TIMESTAMP or TIMESTAMP_LTZ, not " + type.asSummaryString());
        }
        switch (ArrowLayout.timeUnit(precision)) {
            case SECOND:
                this.toMillisMultiplier = 1000;
                this.toMillisDivisor = 1;
                break;
            case MILLISECOND:
                this.toMillisMultiplier = 1;
                this.toMillisDivisor = 1;
                break;
            case MICROSECOND:
                this.toMillisMultiplier = 1;
                this.toMillisDivisor = 1000;
                break;
            default:
                this.toMillisMultiplier = 1;
                this.toMillisDivisor = 1_000_000;
        }
    }

    long of(VectorSchemaRoot rows, RecordChunk chunk) {
        if (field >= 0) {
            // Arrow units (epoch value in the unit, 8 bytes) or the WideTimestamps layout (epoch millis first)
            FieldVector times = rows.getVector(field);
            boolean wide = WideTimestamps.carries(times);
            int width = wide ? WideTimestamps.BYTE_WIDTH : Long.BYTES;
            ArrowBuf data = times.getDataBuffer();
            long max = Long.MIN_VALUE;
            boolean any = false;
            for (int i = 0, n = rows.getRowCount(); i < n; i++) {
                if (!times.isNull(i)) {
                    max = Math.max(max, data.getLong((long) i * width));
                    any = true;
                }
            }
            if (any) {
                return wide ? max : Math.floorDiv(max * toMillisMultiplier, toMillisDivisor);
            }
        }
        long max = Long.MIN_VALUE;
        for (int i = 0; i < chunk.size(); i++) {
            max = Math.max(max, chunk.record(i).timestamp());
        }
        return max;
    }
}
