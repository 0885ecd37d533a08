package io.columnarkafka.flink.table;

import java.util.Arrays;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.api.watermark.Watermark;

/**
 * The local phase of a mini-batch group aggregate computed on the batches' vectors ({@link LocalGroupAggSpec},
 * {@link VectorLocalAggOperator}): per batch, the key hashes from the key vectors, column by column, then each row's
 * group in a flat hash table ({@link GroupTable}) and its accumulators updated in place ({@link LocalAccumulators}):
 * no row, key row or boxed value per input row, where Flink's operator reads each row, projects and copies its key
 * row and looks it up in a heap map. Over a changelog each row's kind, read from the batch's row-kind column, says
 * whether it is accumulated (INSERT, UPDATE_AFTER) or retracted (UPDATE_BEFORE, DELETE), as Flink's {@code
 * MiniBatchLocalGroupAggFunction} decides per row.
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
 * The admitted functions' merges (counts and integer sums add, MAX and MIN of integers and strings compare, a
 * distinct column's maps merge value by value) give the same accumulator for the same rows of a key in the same
 * order.
 */
public final class VectorLocalGroupAggOperator extends VectorLocalAggOperator {
    private static final long serialVersionUID = 1L;

    /** Flink's {@code CountBundleTrigger}'s count: the rows a bundle holds before it is finished. */
    private final long bundleSize;

    /** Input rows since the last flush (Flink's trigger's count). */
    private transient long rowsInBundle;

    public VectorLocalGroupAggOperator(LocalGroupAggSpec spec, long bundleSize) {
        // over a changelog Flink's distinct accumulators consume retractions (count rows per value and call), else
        // they keep the calls' bits
        super("vector-local-group-agg", spec.keyColumns(), spec.keyTypes(), spec.aggregates(),
                spec.rowKindColumn() >= 0, 0, spec.rowKindColumn());
        if (bundleSize <= 0) {
            throw new IllegalArgumentException("bundle size " + bundleSize + " (Flink's trigger needs it positive)");
        }
        this.bundleSize = bundleSize;
    }

    @Override
    void group(VectorSchemaRoot root, int[] selection, int count) {
        Arrays.fill(hashes, 0, count, 0);
        keys.hash(hashes, count);
        int from = 0;
        for (int j = 0; j < count; j++) {
            entries[j] = table.entry(0, hashes[j], keys, j);
            if (++rowsInBundle >= bundleSize) {
                accumulate(root, selection, from, j + 1);
                finishBundle();
                from = j + 1;
            }
        }
        accumulate(root, selection, from, count);
    }

    /** Flink's {@code AbstractMapBundleOperator.processWatermark}: the bundle finished, then the watermark. */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        finishBundle();
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        finishBundle();
    }

    @Override
    public void finish() throws Exception {
        finishBundle();
        super.finish();
    }

    /** One row per group (keys, accumulators), in the order the groups came; restarts the count. */
    private void finishBundle() {
        flush();
        rowsInBundle = 0;
    }
}
