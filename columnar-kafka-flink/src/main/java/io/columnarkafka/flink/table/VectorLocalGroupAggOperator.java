package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

/**
 * The local phase of a mini-batch group aggregate computed on the batches' vectors ({@link LocalGroupAggSpec}): per
 * batch, the key hashes from the key vectors, column by column, then each row's group in a flat hash table ({@link
 * GroupTable}) and its accumulators updated in place ({@link LocalAccumulators}): no row, key row or boxed value
 * per input row, where Flink's operator reads each row, projects and copies its key row and looks it up in a heap
 * map.
 *
 * <p>It flushes where Flink's {@code MapBundleOperator} (with {@code MiniBatchLocalGroupAggFunction} and a {@code
 * CountBundleTrigger} of {@code table.exec.mini-batch.size}) finishes its bundle: after the input row that brings
 * the rows since the last flush to the bundle size (inside a batch, which is split there), on every watermark (the
 * mini-batch assigner's) before forwarding it, before every checkpoint barrier, and at the end of input; every flush
 * restarts the count. Each flush emits one row per group: its keys, then its accumulators (which Flink's generated
 * handler would have built from the same rows in the same order).
 *
 * <p>Within a flush it emits the groups in the order they first came, where Flink's operator emits them in its
 * {@code HashMap}'s order. That does not change the global phase's results: a flush holds each key once, so the
 * rows of one key reach the global aggregate in the same order, from the same subtask, flush after flush; the
 * global phase merges each key's rows apart from every other key's; and where its own mini-batch ends among a
 * flush's rows already depends, in Flink too, on how the rows of the local subtasks interleave at its input.
 * The admitted functions' merges (counts and integer sums add, MAX and MIN of integers compare) give the same
 * accumulator for the same rows of a key in the same order.
 */
public final class VectorLocalGroupAggOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<ArrowBatch, RowData> {
    private static final long serialVersionUID = 1L;

    private final LocalGroupAggSpec spec;
    /** Flink's {@code CountBundleTrigger}'s count: the rows a bundle holds before it is finished. */
    private final long bundleSize;

    private transient BufferAllocator allocator;
    private transient GroupTable table;
    private transient BatchKeyColumns keys;
    private transient LocalAccumulators accumulators;
    private transient int[] hashes;
    private transient int[] entries;
    /** Input rows since the last flush (Flink's trigger's count). */
    private transient long rowsInBundle;
    private transient StreamRecord<RowData> record;

    public VectorLocalGroupAggOperator(LocalGroupAggSpec spec, long bundleSize) {
        if (bundleSize <= 0) {
            throw new IllegalArgumentException("bundle size " + bundleSize + " (Flink's trigger needs it positive)");
        }
        this.spec = spec;
        this.bundleSize = bundleSize;
    }

    @Override
    public void open() throws Exception {
        super.open();
        // Only a batch that crossed a shuffle is read into this allocator; a chained one stays where it is.
        allocator = ArrowMemory.newChild(
                "columnar-kafka-vector-local-group-agg " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(),
                ColumnarKafkaSink.DEFAULT_ALLOCATOR_LIMIT);
        accumulators = new LocalAccumulators(spec.aggregates());
        table = new GroupTable(spec.keyTypes(), accumulators.width());
        keys = new BatchKeyColumns(spec.keyColumns(), spec.keyTypes());
        hashes = new int[0];
        entries = new int[0];
        record = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) throws Exception {
        ArrowBatch batch = element.getValue();
        try {
            VectorSchemaRoot root = batch.open(allocator);
            int[] selection = batch.selection();
            int count = batch.selectedCount(allocator);
            if (hashes.length < count) {
                hashes = new int[count];
                entries = new int[count];
            }
            keys.read(root, selection, count);
            Arrays.fill(hashes, 0, count, 0);
            keys.hash(hashes, count);
            int from = 0;
            for (int j = 0; j < count; j++) {
                entries[j] = table.entry(0, hashes[j], keys, j);
                if (++rowsInBundle >= bundleSize) {
                    accumulators.accumulate(table, root, selection, entries, from, j + 1);
                    flush();
                    from = j + 1;
                }
            }
            accumulators.accumulate(table, root, selection, entries, from, count);
        } finally {
            batch.close();
        }
    }

    /** Flink's {@code AbstractMapBundleOperator.processWatermark}: the bundle finished, then the watermark. */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    /** Emits one row per group, in the order the groups came: keys, accumulators; restarts the count. */
    private void flush() {
        int groups = table.size();
        int keyCount = spec.keyTypes().length;
        int width = keyCount + accumulators.width();
        for (int entry = 0; entry < groups; entry++) {
            GenericRowData out = new GenericRowData(width);
            table.keysInto(entry, out);
            accumulators.into(table, entry, out, keyCount);
            output.collect(record.replace(out));
        }
        table.clear();
        rowsInBundle = 0;
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
