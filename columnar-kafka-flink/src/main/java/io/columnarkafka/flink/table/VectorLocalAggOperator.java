package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.types.RowKind;

/**
 * What the vectorised local aggregates share ({@link VectorLocalGroupAggOperator}, {@link
 * VectorLocalWindowAggOperator}): per batch, the key columns read once ({@link BatchKeyColumns}), then the
 * subclass's grouping of the rows into {@link GroupTable} entries, whose accumulators it updates column by column
 * ({@link LocalAccumulators}); a flush emits one row per group in the order the groups came: keys, accumulators,
 * then what the subclass adds.
 *
 * <p>Each row is written straight into a {@link BinaryRowData} with Flink's {@link BinaryRowWriter}: the bytes
 * {@code RowDataSerializer.toBinaryRow} makes of the row Flink's local aggregate emits (a distinct accumulator's
 * map in another entry order, see {@link DistinctViewBytes}), so the serializer of the exchange behind takes its
 * binary path and nothing is boxed. One row and writer serve every flush: a row is written again only once the
 * output has taken the last. That holds because the output is always a network one, which serializes the row
 * inside {@code collect}: Flink's planner puts an exchange behind every local aggregate (its two-phase rules make
 * global(exchange(local(input))), and a stream exchange is a hash or global partitioner, never a forward one, so
 * the global aggregate is never chained to it), and this operator only ever replaces a local aggregate. A chained
 * consumer with object reuse on would keep the reused row; none exists.
 */
abstract class VectorLocalAggOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<ArrowBatch, RowData> {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final int[] keyColumns;
    private final AggColumnType[] keyTypes;
    private final LocalAggCall[] calls;
    /** Flink's distinct accumulators count each value's rows per call (they consume retractions). */
    private final boolean distinctRowCounts;
    /** Fields a flushed row has after the accumulators (a window aggregate's slice end). */
    private final int trailingFields;
    /** The input's row-kind column over a changelog (its rows retracted or accumulated by kind), else -1. */
    private final int rowKindColumn;

    private transient BufferAllocator allocator;
    private transient LocalAccumulators accumulators;
    private transient StreamRecord<RowData> record;
    private transient BinaryRowData row;
    private transient BinaryRowWriter writer;
    transient GroupTable table;
    transient BatchKeyColumns keys;
    /** The current batch's rows' hashes and entries, grown to the largest batch. */
    transient int[] hashes;
    transient int[] entries;

    VectorLocalAggOperator(String name, int[] keyColumns, AggColumnType[] keyTypes, LocalAggCall[] calls,
            boolean distinctRowCounts, int trailingFields, int rowKindColumn) {
        this.name = name;
        this.keyColumns = keyColumns;
        this.keyTypes = keyTypes;
        this.calls = calls;
        this.distinctRowCounts = distinctRowCounts;
        this.trailingFields = trailingFields;
        this.rowKindColumn = rowKindColumn;
    }

    @Override
    public void open() throws Exception {
        super.open();
        // Only a batch that crossed a shuffle is read into this allocator; a chained one stays where it is.
        allocator = ArrowMemory.newChild(
                "columnar-kafka-" + name + " " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(),
                ColumnarKafkaSink.DEFAULT_ALLOCATOR_LIMIT);
        accumulators = new LocalAccumulators(calls, distinctRowCounts, rowKindColumn);
        table = new GroupTable(keyTypes, accumulators.columns());
        keys = new BatchKeyColumns(keyColumns, keyTypes);
        hashes = new int[0];
        entries = new int[0];
        record = new StreamRecord<>(null);
        row = new BinaryRowData(keyTypes.length + accumulators.width() + trailingFields);
        writer = new BinaryRowWriter(row);
    }

    @Override
    public final void processElement(StreamRecord<ArrowBatch> element) throws Exception {
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
            accumulators.read(root, selection, count);
            group(root, selection, count);
        } finally {
            batch.close();
        }
    }

    /**
     * Finds the entries of the batch's first {@code count} selected rows (their keys read into {@link #keys}) and
     * accumulates them ({@link #accumulate}), flushing where the operator's rules say.
     */
    abstract void group(VectorSchemaRoot root, int[] selection, int count);

    /** Accumulates the batch's selected rows [from, to) into their entries ({@link #entries}). */
    final void accumulate(VectorSchemaRoot root, int[] selection, int from, int to) {
        accumulators.accumulate(table, root, selection, entries, from, to);
    }

    /**
     * Emits one row per group, in the order the groups came (keys, accumulators, then {@link #completeRow}), and
     * forgets them.
     */
    final void flush() {
        int groups = table.size();
        int keyCount = keyTypes.length;
        int accumulatorsEnd = keyCount + accumulators.width();
        for (int entry = 0; entry < groups; entry++) {
            writer.reset();
            writer.writeRowKind(RowKind.INSERT);
            // the fields in order, as toBinaryRow writes them: the variable-length ones land in the same places
            table.keysInto(entry, writer);
            accumulators.into(table, entry, writer, keyCount);
            completeRow(entry, writer, accumulatorsEnd);
            writer.complete();
            output.collect(record.replace(row));
        }
        table.clear();
        accumulators.clear();
    }

    /** Writes a flushed row's fields after the accumulators, from field {@code first}: none unless overridden. */
    void completeRow(int entry, BinaryRowWriter out, int first) {}

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
