package io.columnarkafka.flink.table;

import io.columnarkafka.format.arrow.WideTimestamps;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.runtime.operators.window.TimeWindow;
import org.apache.flink.table.runtime.util.TimeWindowUtil;

/**
 * The local phase of a window aggregate computed on the batches' vectors ({@link LocalWindowAggSpec}): per batch,
 * the slice ends from the rowtime vector and the key hashes from the key vectors, column by column, then each row's
 * group in a flat hash table ({@link GroupTable}) and its accumulators updated in place: no row, key row or
 * boxed value per input row.
 *
 * <p>It emits what Flink's {@code LocalSlicingWindowAggOperator} emits, when it emits it: Flink's operator buffers
 * the rows of each (slice end, key) and, on a flush, emits one row per group in the order the groups first came
 * (keys, the accumulators its generated handler built from the group's rows in order, slice end). It flushes on a
 * watermark above the last one (it starts at 0) that reaches its next trigger watermark, if the smallest buffered
 * slice end has fired ({@link TimeWindowUtil}'s rules, UTC: the rowtime is a TIMESTAMP), before every checkpoint
 * barrier, and when its managed-memory buffer is full. This operator flushes at the same points, except the last:
 * it holds one accumulator per group, not the rows, and flushes when it holds {@link #MAX_GROUPS} groups. A flush
 * at another point only splits a group's accumulators into two rows, which Flink's global aggregate merges (counts,
 * integer sums and AVG's sum and count add, with Java's wrapping; MAX and MIN of integers and strings compare; a
 * distinct column's maps merge value by value), so the result is the same. Late
 * rows are the global phase's to drop, as with Flink's local phase.
 */
public final class VectorLocalWindowAggOperator extends VectorLocalAggOperator {
    private static final long serialVersionUID = 1L;
    /** Groups held before a flush, in place of Flink's buffer-full flush (about 100 MB of keys and accumulators). */
    static final int MAX_GROUPS = 1 << 20;
    private static final ZoneId UTC = ZoneOffset.UTC;

    private final LocalWindowAggSpec spec;
    /** Flink's windowInterval: the slice end interval of the slice assigner (the slice size). */
    private final long sliceEndInterval;

    private transient long[] sliceEnds;
    private transient long currentWatermark;
    private transient long nextTriggerWatermark;
    private transient long minSliceEnd;

    public VectorLocalWindowAggOperator(LocalWindowAggSpec spec) {
        super("vector-local-window-agg", spec.keyColumns(), spec.keyTypes(), spec.aggregates(),
                spec.distinctRowCounts(), 1, spec.rowKindColumn());
        this.spec = spec;
        this.sliceEndInterval = spec.sliceSize();
    }

    @Override
    public void open() throws Exception {
        super.open();
        sliceEnds = new long[0];
        minSliceEnd = Long.MAX_VALUE;
    }

    @Override
    void group(VectorSchemaRoot root, int[] selection, int count) {
        if (sliceEnds.length < count) {
            sliceEnds = new long[count];
        }
        assignSliceEnds(root.getVector(spec.rowtimeColumn()), selection, count);
        for (int j = 0; j < count; j++) {
            hashes[j] = (int) BatchKeyColumns.mix(sliceEnds[j]);
        }
        keys.hash(hashes, count);
        int from = 0;
        for (int j = 0; j < count; j++) {
            if (table.size() == MAX_GROUPS) {
                accumulate(root, selection, from, j);
                flushSlices();
                from = j;
            }
            entries[j] = table.entry(sliceEnds[j], hashes[j], keys, j);
            minSliceEnd = Math.min(minSliceEnd, sliceEnds[j]);
        }
        accumulate(root, selection, from, count);
    }

    /** Flink's slice assigners' slice end: the slice's start with the window's offset, plus the slice size. */
    private void assignSliceEnds(FieldVector rowtime, int[] selection, int count) {
        long size = spec.sliceSize();
        long offset = spec.offset();
        boolean wide = WideTimestamps.carries(rowtime);
        long data = rowtime.getDataBuffer().memoryAddress();
        long unitsPerMilli = 1;
        long millisPerUnit = 1;
        if (!wide) {
            switch (((ArrowType.Timestamp) rowtime.getField().getType()).getUnit()) {
                case SECOND -> millisPerUnit = 1000;
                case MILLISECOND -> { }
                case MICROSECOND -> unitsPerMilli = 1000;
                case NANOSECOND -> unitsPerMilli = 1_000_000;
            }
        }
        TimeStampVector timestamps = wide ? null : (TimeStampVector) rowtime;
        for (int j = 0; j < count; j++) {
            int row = BatchKeyColumns.row(selection, j);
            if (rowtime.isNull(row)) {
                // Flink's slice assigner's own message
                throw new RuntimeException(
                        "RowTime field should not be null, please convert it to a non-null long value.");
            }
            long millis = wide ? WideTimestamps.millis(data, row)
                    : Math.floorDiv(timestamps.get(row), unitsPerMilli) * millisPerUnit;
            sliceEnds[j] = TimeWindow.getWindowStartWithOffset(millis, offset, size) + size;
        }
    }

    /** Flink's {@code LocalSlicingWindowAggOperator.processWatermark}, with its buffer's {@code advanceProgress}. */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (mark.getTimestamp() > currentWatermark) {
            currentWatermark = mark.getTimestamp();
            if (currentWatermark >= nextTriggerWatermark) {
                if (TimeWindowUtil.isWindowFired(minSliceEnd, currentWatermark, UTC)) {
                    flushSlices();
                }
                nextTriggerWatermark =
                        TimeWindowUtil.getNextTriggerWatermark(currentWatermark, sliceEndInterval, UTC, false);
            }
        }
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flushSlices();
    }

    /** Emits one row per group, in the order the groups came: keys, accumulators, slice end. */
    private void flushSlices() {
        flush();
        minSliceEnd = Long.MAX_VALUE;
    }

    @Override
    void completeRow(int entry, BinaryRowWriter out, int first) {
        out.writeLong(first, table.sliceEnd(entry));
    }
}
