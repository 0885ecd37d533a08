package io.columnarkafka.flink.table;

import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.record.EncodedBatch;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.flink.sink.EncodeMetrics;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.kafka.common.header.Header;

/**
 * The SQL sink's encoding of rows: transposes them into an Arrow batch, encodes a full batch with the
 * columnar encoders, and emits the batch's records as one {@link EncodedBatch}, in input order, which
 * {@link SplitEncodedBatch} splits into records in front of the stock {@code KafkaSink} writer. One element
 * per batch, not per record: where the operator and the writer run in two tasks (behind a legacy source
 * such as {@code datagen}, whose chain never takes the writer), the records cross the network channel as a
 * few bulk copies.
 *
 * <p>A batch is sent when it holds {@code columnar.batch-size} rows, when its first row has waited
 * {@code columnar.max-latency}, before every checkpoint barrier ({@link #prepareSnapshotPreBarrier}, so
 * the rows belong to the checkpoint — and the transaction — they arrived in) and at the end of input. So
 * the operator holds no rows across a checkpoint and needs no state.
 *
 * <p>Per row it keeps only what the format columns cannot carry: the topic when it varies, the
 * timestamp and headers when written, and whether an upsert row is a tombstone (a tombstone's value is not
 * encoded at all: the value encoder gets the other rows as a selection). A changelog value format
 * (debezium-json, canal-json, maxwell-json, ogg-json) gets each row's kind as a column of the batch ({@link
 * EncodePlan#rowKindColumn}).
 *
 * <p>With {@code sink.buffer-flush.*} on an upsert table, rows first go to {@link LatestRowPerKey} (Flink's
 * reducing upsert buffer), which is written into the batch, in Flink's order, when it holds {@code
 * max-rows} keys, when {@code interval} passed since its last flush (Flink's timer, re-armed on every
 * firing), before every checkpoint barrier and at the end of input: still no row waits past a checkpoint.
 *
 * <p>A batch with a record over the producer's limit ({@link RecordSizeLimit}) fails before it is emitted, so
 * neither {@link SplitEncodedBatch} nor the writer sees any of its records (docs/faults.md).
 *
 * <p>Registers the encode metrics ({@link EncodeMetrics}) of the DataStream sink under the same names.
 *
 * <p>What the input is and how each row is read from it is the subclass's: rows handed by Flink's sink node or a
 * row operator ({@link RowDataEncodeOperator}), or the planner stage's Arrow batches for a reducing upsert buffer
 * ({@link ArrowReducingEncodeOperator}); each passes every row it reads to {@link #write}.
 *
 * @param <I> the input elements
 * @param <B> the elements emitted per encoded batch
 */
abstract class RowBatchEncodeOperator<I, B> extends AbstractStreamOperator<B> implements OneInputStreamOperator<I, B> {
    private static final long serialVersionUID = 1L;

    private final EncodePlan plan;
    private final EncodedRecords<B, ?> elements;
    /**
     * Copies rows the operator keeps past {@link #write} (for a partitioner that reads them, or in the reducing
     * buffer) when the row handed may change after the call; else null.
     */
    private final TypeSerializer<RowData> rowCopier;
    /** The largest record the {@code KafkaSink}'s producer accepts: a batch with a larger one is never emitted. */
    private final RecordSizeLimit sizeLimit;

    private transient BufferAllocator allocator;
    private transient RowDataArrowWriter writer;
    private transient BatchEncoder valueEncoder;
    private transient BatchEncoder keyEncoder;
    private transient String[] topics;
    private transient long[] timestamps;
    private transient List<Header>[] headers;
    private transient boolean[] tombstone;
    /** The batch rows that are not tombstones, the only ones whose value is encoded; with tombstones only. */
    private transient int[] valueRows;
    /** Each batch row's consumed row, kept for a partitioner that reads it; else null. */
    private transient RowData[] rows;
    private transient StreamRecord<B> reuse;
    /** Incremented per sent batch, so a latency timer of an already sent batch does nothing. */
    private transient long batchNumber;
    private transient EncodeMetrics metrics;
    private transient long bufferCapacity;
    /** Flink's reducing upsert buffer, or null without {@code sink.buffer-flush.*}. */
    private transient LatestRowPerKey latestRows;
    private transient long lastReducedFlush;

    RowBatchEncodeOperator(EncodePlan plan, EncodedRecords<B, ?> elements, TypeSerializer<RowData> rowCopier,
            RecordSizeLimit sizeLimit) {
        this.plan = plan;
        this.elements = elements;
        this.rowCopier = rowCopier;
        this.sizeLimit = sizeLimit;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        super.open();
        int size = plan.batching().batchSize();
        valueEncoder = plan.valueEncoder();
        keyEncoder = plan.keyEncoder();
        allocator = ArrowMemory.newChild(
                "columnar-kafka-sql " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(),
                ColumnarKafkaSink.DEFAULT_ALLOCATOR_LIMIT);
        writer = new RowDataArrowWriter(
                plan.physicalType(), plan.rowKindColumn(), AdmissionMatcher.NANO_TIMESTAMPS, allocator);
        topics = new String[size];
        if (plan.metadata().hasTimestamp()) {
            timestamps = new long[size];
        }
        if (plan.metadata().hasHeaders()) {
            headers = new List[size];
        }
        if (plan.upsertMode()) {
            tombstone = new boolean[size];
            valueRows = new int[size];
        }
        if (elements.keepsRows()) {
            rows = new RowData[size];
        }
        reuse = new StreamRecord<>(null);
        metrics = new EncodeMetrics(getMetricGroup(), () -> bufferCapacity);
        if (plan.reducingBuffer() != null) {
            latestRows = plan.reducingBuffer().newBuffer(rowCopier);
            lastReducedFlush = System.currentTimeMillis();
            armReducedFlushTimer();
        }
    }

    /**
     * Writes a row the sink consumes (its physical columns, then its metadata columns), of its kind. {@link #append}
     * writes each row's columns into the Arrow batch at once and keeps no reference to it but in {@link #rows} (for a
     * partitioner that reads rows), and the reducing buffer keeps the latest row per key: both copy with {@link
     * #rowCopier}, which the subclass sets whenever the row may change after this call.
     */
    final void write(RowData row) {
        if (latestRows == null) {
            append(rows != null && rowCopier != null ? rowCopier.copy(row) : row);
        } else if (latestRows.put(row) >= plan.reducingBuffer().maxRows()) {
            flushLatestRows();
        }
    }

    /**
     * As Flink's reducing writer: a timer at the last flush plus the interval flushes the buffer if no
     * other flush came in between, then arms the next one.
     */
    private void armReducedFlushTimer() {
        long interval = plan.reducingBuffer().intervalMillis();
        getProcessingTimeService().registerTimer(lastReducedFlush + interval, time -> {
            if (time >= lastReducedFlush + interval) {
                flushLatestRows();
            }
            armReducedFlushTimer();
        });
    }

    /** Writes the reducing buffer's rows in Flink's order and sends them. */
    private void flushLatestRows() {
        for (RowData row : latestRows.inWriteOrder()) {
            append(row);
        }
        latestRows.clear();
        lastReducedFlush = System.currentTimeMillis();
        sendBatch();
    }

    /** Adds a row to the open batch, sending the batch when full; the row must not change until then. */
    private void append(RowData row) {
        int i = writer.rowCount();
        if (rows != null) {
            rows[i] = row;
        }
        topics[i] = plan.topics().topicOf(row);
        writer.write(row);
        if (timestamps != null) {
            Long timestamp = plan.metadata().timestamp(row);
            timestamps[i] = timestamp == null ? EncodedBatch.NO_TIMESTAMP : timestamp;
        }
        if (headers != null) {
            headers[i] = plan.metadata().headers(row);
        }
        if (tombstone != null) {
            RowKind kind = row.getRowKind();
            tombstone[i] = kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE;
        }
        if (i == 0) {
            long batch = batchNumber;
            long deadline = getProcessingTimeService().getCurrentProcessingTime() + plan.batching().maxLatencyMillis();
            getProcessingTimeService().registerTimer(deadline, time -> {
                if (batch == batchNumber) {
                    sendBatch();
                }
            });
        }
        if (i + 1 >= plan.batching().batchSize()) {
            sendBatch();
        }
    }

    private void sendBatch() {
        int count = writer.rowCount();
        if (count == 0) {
            return;
        }
        VectorSchemaRoot batch = writer.finish();
        long encodeStart = System.nanoTime();
        RecordSlab values = tombstone == null ? valueEncoder.encode(batch)
                : valueEncoder.encode(batch, valueRows, selectValueRows(count));
        RecordSlab keys = keyEncoder == null ? null : keyEncoder.encode(batch);
        long drainStart = System.nanoTime();
        EncodedBatch encoded = new EncodedBatch(Arrays.copyOf(topics, count),
                timestamps == null ? null : Arrays.copyOf(timestamps, count),
                headers == null ? null : Arrays.copyOf(headers, count),
                keys == null ? null : EncodedBatch.Slab.copyOf(keys),
                EncodedBatch.Slab.copyOf(values, count, tombstone));
        encoded.checkSizes(sizeLimit);
        output.collect(reuse.replace(elements.batch(encoded, rows == null ? null : Arrays.copyOf(rows, count))));
        long drainEnd = System.nanoTime();
        bufferCapacity = values.capacity() + (keys == null ? 0 : keys.capacity());
        metrics.batch(count, keys == null ? 0 : keys.size(), values.size(), drainStart - encodeStart,
                drainEnd - drainStart);
        writer.reset();
        Arrays.fill(topics, 0, count, null);
        if (headers != null) {
            Arrays.fill(headers, 0, count, null);
        }
        if (rows != null) {
            Arrays.fill(rows, 0, count, null);
        }
        batchNumber++;
    }

    /**
     * Fills {@link #valueRows} with the batch rows that are not tombstones and returns their number: Flink
     * never serializes a tombstone row's value, so neither does this operator (a value its format would
     * reject there, such as a null map key, must fail nothing).
     */
    private int selectValueRows(int count) {
        int selected = 0;
        for (int i = 0; i < count; i++) {
            if (!tombstone[i]) {
                valueRows[selected++] = i;
            }
        }
        return selected;
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    private void flush() {
        if (latestRows != null) {
            flushLatestRows(); // also when empty: as in Flink, every flush restarts the interval
        } else {
            sendBatch();
        }
    }

    /** The subtask's allocator: the batches' memory, and that of the input batches a subclass reads off the network. */
    final BufferAllocator allocator() {
        return allocator;
    }

    /** What the subclass opened to read its input, closed before the batch memory; null for nothing. */
    abstract AutoCloseable inputResources();

    @Override
    public void close() throws Exception {
        try {
            // each closed even when one before it throws: the first failure is thrown, the others suppressed in it
            AutoCloseables.close(inputResources(), writer, allocator);
        } finally {
            writer = null;
            allocator = null;
            super.close();
        }
    }
}
