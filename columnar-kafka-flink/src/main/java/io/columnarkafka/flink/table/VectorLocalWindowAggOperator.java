package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.flink.table.LocalWindowAggSpec.Aggregate;
import io.columnarkafka.flink.table.LocalWindowAggSpec.ColumnType;
import io.columnarkafka.format.arrow.WideTimestamps;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.operators.window.TimeWindow;
import org.apache.flink.table.runtime.util.TimeWindowUtil;

/**
 * The local phase of a window aggregate computed on the batches' vectors ({@link LocalWindowAggSpec}): per batch,
 * the slice ends from the rowtime vector and the key hashes from the key vectors, column by column, then each row's
 * group in a flat hash table ({@link SliceGroupTable}) and its accumulators updated in place: no row, key row or
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
    private transient SliceGroupTable table;
    private transient Keys keys;
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
        table = new SliceGroupTable(spec.keyTypes(), spec.aggregates().length);
        keys = new Keys(spec.keyTypes());
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
            keys.read(root, spec.keyColumns(), selection, count);
            hash(count);
            int from = 0;
            for (int j = 0; j < count; j++) {
                if (table.size() == MAX_GROUPS) {
                    accumulate(root, selection, from, j);
                    flush();
                    from = j;
                }
                entries[j] = table.entry(sliceEnds[j], hashes[j], keys, j);
                minSliceEnd = Math.min(minSliceEnd, sliceEnds[j]);
            }
            accumulate(root, selection, from, count);
        } finally {
            batch.close();
        }
    }

    /** Accumulates rows [from, to) of the batch into their entries. */
    private void accumulate(VectorSchemaRoot root, int[] selection, int from, int to) {
        Aggregate[] aggregates = spec.aggregates();
        for (int a = 0; a < aggregates.length; a++) {
            long[] values = table.accValues(a);
            boolean[] set = table.accSet(a);
            Aggregate aggregate = aggregates[a];
            FieldVector vector = aggregate.column() < 0 ? null : root.getVector(aggregate.column());
            switch (aggregate.function()) {
                case COUNT_STAR -> {
                    for (int j = from; j < to; j++) {
                        values[entries[j]]++;
                    }
                }
                case COUNT -> {
                    for (int j = from; j < to; j++) {
                        if (!vector.isNull(row(selection, j))) {
                            values[entries[j]]++;
                        }
                    }
                }
                case SUM, MAX, MIN -> accumulateValues(aggregate, vector, values, set, selection, from, to);
            }
        }
    }

    private void accumulateValues(Aggregate aggregate, FieldVector vector, long[] values, boolean[] set,
            int[] selection, int from, int to) {
        boolean isInt = aggregate.type() == ColumnType.INT;
        ArrowBuf data = vector.getDataBuffer();
        for (int j = from; j < to; j++) {
            int row = row(selection, j);
            if (vector.isNull(row)) {
                continue;
            }
            long value = isInt ? data.getInt((long) row * IntVector.TYPE_WIDTH)
                    : data.getLong((long) row * BigIntVector.TYPE_WIDTH);
            int entry = entries[j];
            if (!set[entry]) {
                values[entry] = value;
                set[entry] = true;
                continue;
            }
            long acc = values[entry];
            values[entry] = switch (aggregate.function()) {
                // Flink's generated plus on the accumulator's type: int or long arithmetic, wrapping
                case SUM -> isInt ? (int) acc + (int) value : acc + value;
                case MAX -> value > acc ? value : acc;
                case MIN -> value < acc ? value : acc;
                default -> throw new IllegalStateException(aggregate.toString());
            };
        }
    }

    private static int row(int[] selection, int j) {
        return selection == null ? j : selection[j];
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
            int row = row(selection, j);
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
            hashes[j] = (int) mix(sliceEnds[j]);
        }
        ColumnType[] types = spec.keyTypes();
        for (int k = 0; k < types.length; k++) {
            for (int j = 0; j < count; j++) {
                long h;
                if (keys.isNull(k, j)) {
                    h = 0x5bd1e995L;
                } else if (types[k] == ColumnType.VARCHAR) {
                    h = bytesHash(keys.bytes(k), keys.start(k, j), keys.end(k, j));
                } else {
                    h = keys.value(k, j);
                }
                hashes[j] = (int) mix(hashes[j] * 31L + h);
            }
        }
    }

    private static long bytesHash(byte[] bytes, int start, int end) {
        long h = end - start;
        for (int i = start; i < end; i++) {
            h = h * 31 + bytes[i];
        }
        return h;
    }

    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
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
        ColumnType[] keyTypes = spec.keyTypes();
        Aggregate[] aggregates = spec.aggregates();
        int width = keyTypes.length + aggregates.length + 1;
        for (int entry = 0; entry < groups; entry++) {
            GenericRowData out = new GenericRowData(width);
            for (int k = 0; k < keyTypes.length; k++) {
                if (!table.keyIsNull(k, entry)) {
                    out.setField(k, switch (keyTypes[k]) {
                        case INT -> (int) table.keyValue(k, entry);
                        case BIGINT -> table.keyValue(k, entry);
                        case VARCHAR -> StringData.fromBytes(table.keyBytes(k, entry));
                    });
                }
            }
            for (int a = 0; a < aggregates.length; a++) {
                long value = table.accValues(a)[entry];
                Aggregate aggregate = aggregates[a];
                boolean counts = aggregate.column() < 0 || aggregate.function() == LocalWindowAggSpec.Function.COUNT;
                if (counts) {
                    out.setField(keyTypes.length + a, value);
                } else if (table.accSet(a)[entry]) {
                    out.setField(keyTypes.length + a, aggregate.type() == ColumnType.INT ? (Object) (int) value : value);
                }
            }
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

    /** The key columns of one batch's selected rows, read once per batch. */
    private static final class Keys implements SliceGroupTable.BatchKeys {
        private final ColumnType[] types;
        private final boolean[][] nulls;
        private final long[][] values;
        private final byte[][] bytes;
        private final int[][] starts;
        private final int[][] ends;

        Keys(ColumnType[] types) {
            this.types = types;
            int n = types.length;
            nulls = new boolean[n][0];
            values = new long[n][0];
            bytes = new byte[n][0];
            starts = new int[n][0];
            ends = new int[n][0];
        }

        void read(VectorSchemaRoot root, int[] columns, int[] selection, int count) {
            for (int k = 0; k < types.length; k++) {
                FieldVector vector = root.getVector(columns[k]);
                if (nulls[k].length < count) {
                    nulls[k] = new boolean[count];
                    values[k] = new long[count];
                    starts[k] = new int[count];
                    ends[k] = new int[count];
                }
                for (int j = 0; j < count; j++) {
                    nulls[k][j] = vector.isNull(row(selection, j));
                }
                switch (types[k]) {
                    case INT -> {
                        ArrowBuf data = vector.getDataBuffer();
                        for (int j = 0; j < count; j++) {
                            values[k][j] = data.getInt((long) row(selection, j) * IntVector.TYPE_WIDTH);
                        }
                    }
                    case BIGINT -> {
                        ArrowBuf data = vector.getDataBuffer();
                        for (int j = 0; j < count; j++) {
                            values[k][j] = data.getLong((long) row(selection, j) * BigIntVector.TYPE_WIDTH);
                        }
                    }
                    case VARCHAR -> readStrings(k, vector, selection, count);
                }
            }
        }

        /** The column's data buffer copied once; each row's bytes are a range of it. */
        private void readStrings(int k, FieldVector vector, int[] selection, int count) {
            int rows = vector.getValueCount();
            long length = rows == 0 ? 0 : startOffset(vector, rows);
            if (length > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("a string column of " + length + " bytes in one batch");
            }
            if (bytes[k].length < length) {
                bytes[k] = new byte[(int) Math.max(length, bytes[k].length * 2L)];
            }
            vector.getDataBuffer().getBytes(0, bytes[k], 0, (int) length);
            for (int j = 0; j < count; j++) {
                int row = row(selection, j);
                starts[k][j] = (int) startOffset(vector, row);
                ends[k][j] = (int) startOffset(vector, row + 1);
            }
        }

        private static long startOffset(FieldVector vector, int index) {
            return vector instanceof BaseLargeVariableWidthVector
                    ? vector.getOffsetBuffer().getLong((long) index * BaseLargeVariableWidthVector.OFFSET_WIDTH)
                    : vector.getOffsetBuffer().getInt((long) index * BaseVariableWidthVector.OFFSET_WIDTH);
        }

        @Override
        public boolean isNull(int key, int j) {
            return nulls[key][j];
        }

        @Override
        public long value(int key, int j) {
            return values[key][j];
        }

        @Override
        public byte[] bytes(int key) {
            return bytes[key];
        }

        @Override
        public int start(int key, int j) {
            return starts[key][j];
        }

        @Override
        public int end(int key, int j) {
            return ends[key][j];
        }
    }
}
