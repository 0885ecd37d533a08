package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.format.arrow.WideTimestamps;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
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
 * at another point only splits a group's accumulators into two rows, which Flink's global aggregate merges (counts
 * and integer sums add, with Java's wrapping; MAX and MIN of integers compare), so the result is the same. Late
 * rows are the global phase's to drop, as with Flink's local phase.
 */
public final class VectorLocalWindowAggOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<ArrowBatch, RowData> {
    private static final long serialVersionUID = 1L;
    /** Groups held before a flush, in place of Flink's buffer-full flush (about 100 MB of keys and accumulators). */
    static final int MAX_GROUPS = 1 << 20;
    private static final ZoneId UTC = ZoneOffset.UTC;

    private final LocalWindowAggSpec spec;
    /** Flink's windowInterval: the slice end interval of the slice assigner (the slice size). */
    private final long sliceEndInterval;

    private transient BufferAllocator allocator;
    private transient GroupTable table;
    private transient BatchKeyColumns keys;
    private transient LocalAccumulators accumulators;
    private transient long[] sliceEnds;
    private transient int[] hashes;
    private transient int[] entries;
    private transient long currentWatermark;
    private transient long nextTriggerWatermark;
    private transient long minSliceEnd;
    private transient StreamRecord<RowData> record;

    public VectorLocalWindowAggOperator(LocalWindowAggSpec spec) {
        this.spec = spec;
        this.sliceEndInterval = spec.sliceSize();
    }

    @Override
    public void open() throws Exception {
        super.open();
        // Only a batch that crossed a shuffle is read into this allocator; a chained one stays where it is.
        allocator = ArrowMemory.newChild(
                "columnar-kafka-vector-local-window-agg " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(),
                ColumnarKafkaSink.DEFAULT_ALLOCATOR_LIMIT);
        accumulators = new LocalAccumulators(spec.aggregates());
        table = new GroupTable(spec.keyTypes(), accumulators.width());
        keys = new BatchKeyColumns(spec.keyColumns(), spec.keyTypes());
        sliceEnds = new long[0];
        hashes = new int[0];
        entries = new int[0];
        minSliceEnd = Long.MAX_VALUE;
        record = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) throws Exception {
        ArrowBatch batch = element.getValue();
        try {
            VectorSchemaRoot root = batch.open(allocator);
            int[] selection = batch.selection();
            int count = batch.selectedCount(allocator);
            if (sliceEnds.length < count) {
                sliceEnds = new long[count];
                hashes = new int[count];
                entries = new int[count];
            }
            assignSliceEnds(root.getVector(spec.rowtimeColumn()), selection, count);
            keys.read(root, selection, count);
            hash(count);
            int from = 0;
            for (int j = 0; j < count; j++) {
                if (table.size() == MAX_GROUPS) {
                    accumulators.accumulate(table, root, selection, entries, from, j);
                    flush();
                    from = j;
                }
                entries[j] = table.entry(sliceEnds[j], hashes[j], keys, j);
                minSliceEnd = Math.min(minSliceEnd, sliceEnds[j]);
            }
            accumulators.accumulate(table, root, selection, entries, from, count);
        } finally {
            batch.close();
        }
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

    private void hash(int count) {
        for (int j = 0; j < count; j++) {
            hashes[j] = (int) BatchKeyColumns.mix(sliceEnds[j]);
        }
        keys.hash(hashes, count);
    }

    /** Flink's {@code LocalSlicingWindowAggOperator.processWatermark}, with its buffer's {@code advanceProgress}. */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (mark.getTimestamp() > currentWatermark) {
            currentWatermark = mark.getTimestamp();
            if (currentWatermark >= nextTriggerWatermark) {
                if (TimeWindowUtil.isWindowFired(minSliceEnd, currentWatermark, UTC)) {
                    flush();
                }
                nextTriggerWatermark =
                        TimeWindowUtil.getNextTriggerWatermark(currentWatermark, sliceEndInterval, UTC, false);
            }
        }
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
    }

    /** Emits one row per group, in the order the groups came: keys, accumulators, slice end. */
    private void flush() {
        int groups = table.size();
        int keyCount = spec.keyTypes().length;
        int width = keyCount + accumulators.width() + 1;
        for (int entry = 0; entry < groups; entry++) {
            GenericRowData out = new GenericRowData(width);
            table.keysInto(entry, out);
            accumulators.into(table, entry, out, keyCount);
            out.setField(width - 1, table.sliceEnd(entry));
            output.collect(record.replace(out));
        }
        table.clear();
        minSliceEnd = Long.MAX_VALUE;
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            if (allocator != null) {
                allocator.close();
                allocator = null;
            }
        }
    }
}
