package io.columnarkafka.flink.sink;

import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.record.PreSerializedRecord;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.util.Collector;
import org.apache.flink.util.function.SerializableSupplier;
import org.apache.kafka.common.header.Header;

/**
 * Encodes each {@link ArrowBatch} into one {@link PreSerializedRecord} per row, for the chained
 * {@code KafkaSink} writer, which gets each as the element {@link RecordElements} makes of it (the record alone, or
 * with its row); a tombstone row ({@link BatchEncoding#tombstones}) gets its key and a null value, its value never
 * encoded.
 *
 * <p>A rich flat-map ({@link WindowedSendFunction}) run by Flink's flat-map operator, extended only by the send
 * window's barrier hook ({@link WindowedSendOperator}): it needs only open/close (Flink calls close after success,
 * failure and cancellation alike), the operator's metric group and a collector; it keeps no state and no timers,
 * and element timestamps and watermarks pass through untouched.
 *
 * <p><b>Memory.</b> Each subtask has a bounded child of the per-JVM {@link ArrowMemory} root. A batch
 * received over the network is read into that allocator; a live batch from a chained producer stays in
 * the producer's memory. Either way the batch is closed when its rows have been emitted, also when
 * encoding or emitting fails, so between elements this function holds no Arrow memory; close() then
 * closes the allocator, which reports any leak.
 *
 * <p><b>Record size.</b> A batch with a record over the producer's limit ({@link RecordSizeLimit}) fails
 * before any of its records is emitted: the error names the row and the source split, and Kafka's producer
 * never sees the record (a record it rejects can make Flink stop the TaskManager, see docs/faults.md).
 *
 * <p><b>Backlog.</b> With a {@link SendWindow}, as a checkpoint barrier nears, records wait while the producer holds
 * more unacknowledged bytes than the link drains in a round trip and the queue delay, so a checkpoint's flush stays
 * short.
 */
public final class EncodeFunction<T> extends WindowedSendFunction<ArrowBatch, T> {
    private static final long serialVersionUID = 1L;

    private final BatchEncoding spec;
    private final SerializableSupplier<RecordElements<T>> newElements;
    private final long allocatorLimit;
    private final RecordSizeLimit sizeLimit;

    private transient BufferAllocator allocator;
    private transient BatchEncoder valueEncoder;
    private transient BatchEncoder keyEncoder;
    private transient RecordColumns recordColumns;
    private transient TombstoneRows tombstones;
    /** The written rows parted from the tombstones, or null when the encoding has none. */
    private transient ValueRows valueRows;
    private transient RecordSlab lastValues;
    private transient RecordSlab lastKeys;
    private transient EncodeMetrics metrics;
    private transient RecordElements<T> elements;

    /**
     * @param spec what to encode
     * @param newElements makes each subtask's {@link RecordElements}
     * @param allocatorLimit the bytes this subtask's allocator may hold (a batch read from the network)
     * @param sizeLimit the largest record the {@code KafkaSink}'s producer accepts
     * @param maxQueueDelayNanos the {@link SendWindow}'s queue delay, 0 for none (the {@code KafkaSink}'s producer
     *     then needs no {@link SendWindowInterceptor})
     */
    public EncodeFunction(BatchEncoding spec, SerializableSupplier<RecordElements<T>> newElements, long allocatorLimit,
            RecordSizeLimit sizeLimit, long maxQueueDelayNanos) {
        super(maxQueueDelayNanos);
        this.spec = spec;
        this.newElements = newElements;
        this.allocatorLimit = allocatorLimit;
        this.sizeLimit = sizeLimit;
    }

    /** Emits each record alone ({@link RecordElements#RECORDS}); the parameters as {@link #EncodeFunction}'s. */
    public static EncodeFunction<PreSerializedRecord> ofRecords(BatchEncoding spec, long allocatorLimit,
            RecordSizeLimit sizeLimit, long maxQueueDelayNanos) {
        return new EncodeFunction<>(spec, () -> RecordElements.RECORDS, allocatorLimit, sizeLimit, maxQueueDelayNanos);
    }

    @Override
    public void open(OpenContext openContext) {
        super.open(openContext);
        valueEncoder = spec.valueEncoder();
        keyEncoder = spec.keyEncoder();
        recordColumns = spec.recordColumns();
        tombstones = spec.tombstones();
        valueRows = tombstones == null ? null : new ValueRows();
        elements = newElements.get();
        allocator = ArrowMemory.newChild(
                "columnar-kafka-encode " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(),
                allocatorLimit);
        metrics = new EncodeMetrics(getRuntimeContext().getMetricGroup(), this::bufferCapacity);
    }

    @Override
    public void flatMap(ArrowBatch batch, Collector<T> out) {
        try {
            VectorSchemaRoot root = openBatch(batch);
            checkLayout(root);
            SelectedRows rows = spec.rowsToWrite(root, new SelectedRows(batch.selection(),
                    batch.selection() == null ? root.getRowCount() : batch.selectedCount(null)));
            ArrowLayout.checkNotNull(spec.rowType(), root, rows.selection(), rows.count());
            long encodeStart = System.nanoTime();
            VectorSchemaRoot encoded = spec.encodedColumns(root);
            RecordSlab values = encode(valueEncoder, encoded, valuesOf(root, rows));
            RecordSlab keys = keyEncoder == null ? null : encode(keyEncoder, encoded, rows);
            long drainStart = System.nanoTime();
            lastValues = values;
            lastKeys = keys;
            List<Header>[] headers = null;
            if (recordColumns != null) {
                recordColumns.bind(root);
                headers = headersOf(rows);
            }
            checkSizes(keys, values, batch, rows, headers);
            elements.bind(root);
            emit(keys, values, rows, headers, out);
            long drainEnd = System.nanoTime();
            metrics.batch(
                    rows.count(),
                    keys == null ? 0 : keys.size(),
                    values.size(),
                    drainStart - encodeStart,
                    drainEnd - drainStart);
        } finally {
            batch.close();
        }
    }

    /**
     * Only the rows written are encoded: rows a columnar filter or the sink's NOT NULL enforcer dropped never become
     * records.
     */
    private static RecordSlab encode(BatchEncoder encoder, VectorSchemaRoot root, SelectedRows rows) {
        return rows.selection() == null
                ? encoder.encode(root)
                : encoder.encode(root, rows.selection(), rows.count());
    }

    /** The rows whose value is encoded: all rows written, but the tombstones. */
    private SelectedRows valuesOf(VectorSchemaRoot root, SelectedRows rows) {
        if (tombstones == null) {
            return rows;
        }
        tombstones.bind(root);
        return valueRows.part(rows, tombstones);
    }

    /** The record in the value slab of written row {@code i}, or -1 for a tombstone. */
    private int valueRecord(int i) {
        return valueRows == null ? i : valueRows.valueRecord(i);
    }

    private VectorSchemaRoot openBatch(ArrowBatch batch) {
        try {
            return batch.open(allocator);
        } catch (OutOfMemoryException e) {
            throw new IllegalStateException(
                    "an Arrow batch does not fit the encode operator's Arrow allocator (limit "
                            + allocatorLimit + " bytes, " + allocator.getAllocatedMemory()
                            + " in use); raise ColumnarKafkaSink.Builder#setAllocatorLimit or send smaller"
                            + " batches",
                    e);
        }
    }

    private void checkLayout(VectorSchemaRoot root) {
        try {
            ArrowLayout.check(spec.rowType(), root);
        } catch (BatchLayoutException e) {
            throw new BatchLayoutException(
                    e.column(),
                    "the Arrow batch does not fit the sink's row type " + spec.rowType().asSummaryString()
                            + ": " + e.getMessage());
        }
    }

    /**
     * The headers of each row written, read once for both the size check and the records; null when no record has
     * headers.
     */
    @SuppressWarnings("unchecked")
    private List<Header>[] headersOf(SelectedRows rows) {
        if (!recordColumns.writesHeaders()) {
            return null;
        }
        List<Header>[] headers = new List[rows.count()];
        for (int i = 0; i < headers.length; i++) {
            headers[i] = recordColumns.headers(rows.row(i));
        }
        return headers;
    }

    /** Fails the batch before any record is emitted if one is over the producer's limit. */
    private void checkSizes(RecordSlab keys, RecordSlab values, ArrowBatch batch, SelectedRows rows,
            List<Header>[] headers) {
        // The description is built only for a record over the limit, never per batch.
        sizeLimit.check(rows.count(), values.size() + (keys == null ? 0L : keys.size()),
                keys == null ? i -> -1 : keys::length, i -> valueRecord(i) < 0 ? -1 : values.length(valueRecord(i)),
                headers == null ? null : i -> headers[i],
                i -> (recordColumns == null ? "topic '" + spec.topic() + "', " : "") + "row " + rows.row(i)
                        + " of the Arrow batch"
                        + (batch.splitId() == null ? "" : " read from split '" + batch.splitId() + "'"));
    }

    /** One record per row; the single copy per record is the one Kafka's producer keeps. */
    private void emit(RecordSlab keys, RecordSlab values, SelectedRows written, List<Header>[] headers,
            Collector<T> out) {
        int rows = written.count();
        if (keys != null && keys.recordCount() != rows) {
            throw new IllegalStateException(
                    "key encoder produced " + keys.recordCount() + " records for " + rows + " rows");
        }
        SendWindow window = window();
        if (window == null) {
            for (int i = 0; i < rows; i++) {
                out.collect(elements.element(record(keys, values, written, headers, i), written.row(i)));
            }
            return;
        }
        window.beginSending();
        try {
            for (int i = 0; i < rows; i++) {
                window.awaitRoom();
                out.collect(elements.element(record(keys, values, written, headers, i), written.row(i)));
            }
        } finally {
            window.endSending();
        }
    }

    /** Record {@code i} of the slabs: row {@code written.row(i)} of the batch. */
    private PreSerializedRecord record(RecordSlab keys, RecordSlab values, SelectedRows written,
            List<Header>[] headers, int i) {
        byte[] key = keys == null ? null : keys.copyRecord(i);
        int valueRecord = valueRecord(i);
        byte[] value = valueRecord < 0 ? null : values.copyRecord(valueRecord);
        if (recordColumns == null) {
            return new PreSerializedRecord(spec.topic(), null, null, key, value, List.of());
        }
        int row = written.row(i);
        return new PreSerializedRecord(recordColumns.topic(row), null, recordColumns.timestamp(row), key, value,
                headers == null ? List.of() : headers[i]);
    }

    private long bufferCapacity() {
        return (lastValues == null ? 0 : lastValues.capacity()) + (lastKeys == null ? 0 : lastKeys.capacity());
    }

    @Override
    public void close() {
        BufferAllocator toClose = allocator;
        allocator = null;
        if (toClose != null) {
            toClose.close();
        }
    }
}
