package io.columnarkafka.client.decode;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.RowKindVector;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decodes a {@link RecordChunk} into rows of the source's row type, as Flink's {@code
 * DynamicKafkaDeserializationSchema} makes them: values by the value format; with key fields, keys by
 * the key format, and a record gives a row only if both its value and its key give one; key and value
 * fields are placed at their positions in the row, value fields winning where both hold one.
 *
 * <p>In upsert mode ({@link DecodingSpec#upsert()}) a record with a null value is not given to the value format:
 * it is a DELETE row holding its key fields and nulls elsewhere (if its key gives a row), in record order among the
 * value rows (INSERT); the last column holds each row's kind ({@link RowKindVector}). A changelog value format
 * ({@link DecodingSpec#valueRowKinds()}) fills that column itself, and one record may give it several rows (an
 * update's UPDATE_BEFORE and UPDATE_AFTER): each of them takes the record's key, as Flink's source emits a row per
 * value row and key row.
 *
 * <p>Metadata columns (the last ones before the row kinds, {@link KafkaMetadata}) are filled from each row's record.
 *
 * <p>The record views point into the consumer's records (no copy). Whole columns move into the result
 * without copying; only when some keys give no row, or a tombstone sits among the value rows, are the value
 * rows copied out.
 */
public final class ChunkDecoder {
    private final BatchDecoder valueDecoder;
    private final BatchDecoder keyDecoder;
    private final int[] keyProjection;
    private final int[] valueProjection;
    /** For each value column, the key column holding the same field ({@code value.fields-include} ALL), or -1. */
    private final int[] keyColumnOfValue;
    private final boolean upsert;
    /** Whether the value decoder gives a last row-kind column, moved to the batch's last column. */
    private final boolean valueRowKinds;
    /** Columns of the value decoder's rows: the value fields, then any row-kind column. */
    private final int valueColumns;
    private final Schema schema;
    private final List<KafkaMetadata> metadata;
    private final RecordBytes values = new RecordBytes();
    private final RecordBytes keys = new RecordBytes();
    /** Upsert mode: the chunk record of each value given to the value decoder (grown as needed). */
    private int[] fedRecords = new int[0];
    /** The root the value decoder made for the last chunk when it went out whole: see {@link #recycle}. */
    private VectorSchemaRoot valuesRoot;
    /** How many records of the last chunk decoded gave a row. */
    private int recordsWithRows;

    /** Plans the value and key decoders of {@code spec}, once. */
    public ChunkDecoder(DecodingSpec spec) {
        this.valueDecoder = spec.valueDecoder();
        this.keyDecoder = spec.keyDecoder();
        this.keyProjection = spec.keyProjection();
        this.valueProjection = spec.valueProjection();
        this.keyColumnOfValue = new int[valueProjection.length];
        for (int j = 0; j < valueProjection.length; j++) {
            keyColumnOfValue[j] = indexOf(keyProjection, valueProjection[j]);
        }
        this.upsert = spec.upsert();
        this.valueRowKinds = spec.valueRowKinds();
        this.valueColumns = valueProjection.length + (valueRowKinds ? 1 : 0);
        this.schema = schema(spec);
        this.metadata = spec.metadata();
    }

    private static int indexOf(int[] fields, int field) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i] == field) {
                return i;
            }
        }
        return -1;
    }

    /** The layout of the batches {@link #decode} returns. */
    public Schema schema() {
        return schema;
    }

    /**
     * The layout of the rows: each key and value column as its decoder lays it out (json and csv carry
     * timestamps as millis + nanos of the milli, other formats in Arrow units), metadata columns in Arrow's.
     */
    private static Schema schema(DecodingSpec spec) {
        RowType rowType = spec.rowType();
        ArrowLayout.NanoTimestamps[] layouts = new ArrowLayout.NanoTimestamps[rowType.getFieldCount()];
        Arrays.fill(layouts, ArrowLayout.NanoTimestamps.ARROW_NANOSECOND);
        if (spec.keyDecoder() != null) {
            for (int field : spec.keyProjection()) {
                layouts[field] = spec.keyDecoder().timestampLayout();
            }
        }
        ArrowLayout.NanoTimestamps valueLayout = spec.valueDecoder().timestampLayout();
        for (int field : spec.valueProjection()) {
            layouts[field] = valueLayout;
        }
        List<Field> fields = new ArrayList<>(layouts.length);
        for (int i = 0; i < layouts.length; i++) {
            fields.add(ArrowLayout.field(rowType.getFieldNames().get(i), rowType.getTypeAt(i), layouts[i]));
        }
        return new Schema(fields);
    }

    /**
     * The rows of {@code chunk}, owned by the caller, or null when no record gave a row (the value decoder may then
     * keep its vectors for the next chunk: {@link #releaseRecycled} before closing {@code allocator}).
     *
     * @throws KafkaDecodeException for a record the format rejects, naming its topic, partition, offset
     *     and field; nothing stays allocated
     * @throws IllegalStateException when the rows do not fit {@code allocator}'s limit, naming it
     */
    public VectorSchemaRoot decode(RecordChunk chunk, BufferAllocator allocator) {
        try {
            return decodeRows(chunk, allocator);
        } catch (OutOfMemoryException e) {
            throw new IllegalStateException(
                    "a batch of " + chunk.size() + " records (" + chunk.bytes() + " bytes) of " + chunk.partition()
                            + " does not fit the Arrow allocator '" + allocator.getName() + "' (limit "
                            + allocator.getLimit() + " bytes, " + allocator.getAllocatedMemory() + " in use); raise"
                            + " the allocator limit or lower the max rows or bytes per batch",
                    e);
        }
    }

    private VectorSchemaRoot decodeRows(RecordChunk chunk, BufferAllocator allocator) {
        boolean[] tombstones = upsert ? new boolean[chunk.size()] : null;
        int tombstoneCount = 0;
        values.clear();
        for (int i = 0; i < chunk.size(); i++) {
            ByteBuffer value = chunk.record(i).value();
            if (upsert && value == null) {
                tombstones[i] = true;
                tombstoneCount++;
            } else {
                if (upsert) {
                    fed(values.count(), i);
                }
                values.add(value);
            }
        }
        recordsWithRows = 0;
        valuesRoot = null;
        try (DecodedBatch decodedValues = decodeValues(chunk, allocator)) {
            ChunkRows rows = ChunkRows.of(decodedValues, upsert ? fedRecords : null, tombstones, tombstoneCount);
            if (rows.count() == 0) {
                throwFirstKeyError(chunk, allRecords(chunk.size()), allocator);
                // no row, but the decoder's vectors are still good for the next chunk
                valueDecoder.recycle(decodedValues.takeRoot());
                return null;
            }
            if (keyDecoder == null && valueColumns == schema.getFields().size()) {
                recordsWithRows = recordsOf(rows, null, rows.count());
                valuesRoot = decodedValues.takeRoot();
                return valuesRoot;
            }
            try (DecodedBatch decodedKeys = keyDecoder == null ? null : decodeKeys(chunk, rows, allocator)) {
                VectorSchemaRoot out = assemble(rows, decodedValues, decodedKeys, allocator);
                recordsWithRows = recordsOf(rows, decodedKeys, out.getRowCount());
                try {
                    if (upsert) {
                        fillRowKinds(out, rows, decodedKeys);
                    }
                    if (!metadata.isEmpty()) {
                        fillMetadata(out, chunk, rows, decodedKeys);
                    }
                } catch (RuntimeException e) {
                    out.close();
                    throw e;
                }
                return out;
            }
        }
    }

    /**
     * Gives back the rows {@link #decode} returned last, once their owner is done with them (the caller gives them up
     * and nothing reads their vectors any more): the value decoder may build a later batch in the same vectors
     * ({@link BatchDecoder#recycle}). Any other rows are closed.
     */
    public void recycle(VectorSchemaRoot rows) {
        if (rows == valuesRoot) {
            valuesRoot = null;
            valueDecoder.recycle(rows);
        } else {
            rows.close();
        }
    }

    /** Frees the vectors the value decoder kept from {@link #recycle}: before the allocator is closed. */
    public void releaseRecycled() {
        valueDecoder.releaseRecycled();
    }

    /** How many records of the chunk last decoded gave a row (a record may give several). */
    public int recordsWithRows() {
        return recordsWithRows;
    }

    /** The records the first {@code rowCount} output rows come from (rows are in record order). */
    private static int recordsOf(ChunkRows rows, DecodedBatch keys, int rowCount) {
        int records = 0;
        int last = -1;
        for (int row = 0; row < rowCount; row++) {
            int record = rows.record(rowOf(row, keys));
            if (record != last) {
                records++;
                last = record;
            }
        }
        return records;
    }

    private void fed(int fedIndex, int record) {
        if (fedIndex == fedRecords.length) {
            fedRecords = Arrays.copyOf(fedRecords, Math.max(16, fedRecords.length * 2));
        }
        fedRecords[fedIndex] = record;
    }

    /** The row of output row {@code row} among {@code rows}: the row its key was decoded for. */
    private static int rowOf(int row, DecodedBatch keys) {
        return keys == null ? row : keys.recordOf(row);
    }

    /** The last column: DELETE for a tombstone's row, INSERT (the value format's kind) for every other. */
    private static void fillRowKinds(VectorSchemaRoot out, ChunkRows rows, DecodedBatch keys) {
        TinyIntVector kinds = (TinyIntVector) out.getVector(out.getFieldVectors().size() - 1);
        int rowCount = out.getRowCount();
        kinds.allocateNew(rowCount);
        for (int row = 0; row < rowCount; row++) {
            RowKindVector.set(kinds, row, rows.tombstone(rowOf(row, keys)) ? RowKind.DELETE : RowKind.INSERT);
        }
        kinds.setValueCount(rowCount);
    }

    /** The metadata columns (after the physical ones) of each row's record. */
    private void fillMetadata(VectorSchemaRoot out, RecordChunk chunk, ChunkRows rows, DecodedBatch keys) {
        int rowCount = out.getRowCount();
        ConsumerRecord<?, ?>[] records = new ConsumerRecord<?, ?>[rowCount];
        for (int row = 0; row < rowCount; row++) {
            records[row] = chunk.record(rows.record(rowOf(row, keys)));
        }
        List<FieldVector> vectors = out.getFieldVectors();
        int first = vectors.size() - metadata.size() - (upsert || valueRowKinds ? 1 : 0);
        for (int i = 0; i < metadata.size(); i++) {
            metadata.get(i).fill(vectors.get(first + i), records, rowCount);
        }
    }

    /**
     * Decodes the values gathered in {@link #values}. A value the format rejects fails the chunk, unless a key the
     * key format rejects comes first: Flink's source decodes each record's key before its value.
     */
    private DecodedBatch decodeValues(RecordChunk chunk, BufferAllocator allocator) {
        try {
            return valueDecoder.decode(values, allocator);
        } catch (DecodeException e) {
            int record = upsert ? fedRecords[e.record()] : e.record();
            throwFirstKeyError(chunk, allRecords(record + 1), allocator);
            throw located(chunk.record(record), false, e);
        } finally {
            values.clear();
        }
    }

    /**
     * Keys of the records of {@code rows}, in row order. The keys of the records that gave no row are decoded too,
     * and thrown away, as Flink's source decodes every record's key before its value: a key the format rejects fails
     * the job even where the value gives no row (a tombstone outside upsert mode, a value skipped under {@code
     * ignore-parse-errors}); of two rejected keys the first record's fails it.
     */
    private DecodedBatch decodeKeys(RecordChunk chunk, ChunkRows rows, BufferAllocator allocator) {
        int[] withoutRows = recordsWithoutRows(chunk.size(), rows);
        KeyError unrowed = firstKeyError(chunk, withoutRows, allocator);
        DecodedBatch decoded;
        keys.clear();
        try {
            for (int row = 0; row < rows.count(); row++) {
                keys.add(chunk.record(rows.record(row)).key());
            }
            decoded = keyDecoder.decode(keys, allocator);
        } catch (DecodeException e) {
            int record = rows.record(e.record());
            throw unrowed != null && unrowed.record() < record ? unrowed.error()
                    : located(chunk.record(record), true, e);
        } finally {
            keys.clear();
        }
        if (unrowed != null) {
            decoded.close();
            throw unrowed.error();
        }
        return decoded;
    }

    /** A key the key format rejects: the chunk record it belongs to, and the error naming it. */
    private record KeyError(int record, KafkaDecodeException error) {}

    /** Throws the error of the first key among {@code records} the key format rejects, if any. */
    private void throwFirstKeyError(RecordChunk chunk, int[] records, BufferAllocator allocator) {
        KeyError error = firstKeyError(chunk, records, allocator);
        if (error != null) {
            throw error.error();
        }
    }

    /**
     * The first key among the chunk records {@code records} (ascending) the key format rejects, or null (also when
     * there are no key fields). What the key decoder makes of them is freed at once.
     */
    private KeyError firstKeyError(RecordChunk chunk, int[] records, BufferAllocator allocator) {
        if (keyDecoder == null || records.length == 0) {
            return null;
        }
        keys.clear();
        try {
            for (int record : records) {
                keys.add(chunk.record(record).key());
            }
            keyDecoder.decode(keys, allocator).close();
            return null;
        } catch (DecodeException e) {
            int record = records[e.record()];
            return new KeyError(record, located(chunk.record(record), true, e));
        } finally {
            keys.clear();
        }
    }

    /** The chunk records 0 to {@code count} - 1. */
    private static int[] allRecords(int count) {
        int[] records = new int[count];
        Arrays.setAll(records, i -> i);
        return records;
    }

    /** The chunk records (of {@code recordCount}) no row of {@code rows} comes from, ascending. */
    private static int[] recordsWithoutRows(int recordCount, ChunkRows rows) {
        int[] without = new int[recordCount - recordsOf(rows, null, rows.count())];
        int n = 0;
        int row = 0;
        for (int record = 0; record < recordCount && n < without.length; record++) {
            if (row < rows.count() && rows.record(row) == record) {
                while (row < rows.count() && rows.record(row) == record) {
                    row++;
                }
            } else {
                without[n++] = record;
            }
        }
        return without;
    }

    /**
     * Places the key and value columns at their fields: rows whose key gave no row are dropped; a tombstone's row
     * has its key fields and nulls elsewhere.
     */
    private VectorSchemaRoot assemble(ChunkRows rows, DecodedBatch decodedValues, DecodedBatch decodedKeys,
            BufferAllocator allocator) {
        int rowCount = decodedKeys == null ? rows.count() : decodedKeys.rowCount();
        boolean wholeColumns = rows.valueRowsOnly() && rowCount == rows.count();
        VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator);
        try {
            List<FieldVector> outVectors = out.getFieldVectors();
            VectorSchemaRoot valueRoot = decodedValues.root();
            for (int j = 0; j < valueProjection.length; j++) {
                FieldVector target = outVectors.get(valueProjection[j]);
                target.clear();
                if (wholeColumns) {
                    valueRoot.getVector(j).makeTransferPair(target).transfer();
                } else {
                    FieldVector keySource = keyColumnOfValue[j] < 0 || decodedKeys == null ? null
                            : decodedKeys.root().getVector(keyColumnOfValue[j]);
                    copyRows(valueRoot.getVector(j), keySource, target, rows, decodedKeys, rowCount);
                }
            }
            if (valueRowKinds) {
                FieldVector target = outVectors.get(outVectors.size() - 1);
                target.clear();
                FieldVector kinds = valueRoot.getVector(valueProjection.length);
                if (wholeColumns) {
                    kinds.makeTransferPair(target).transfer();
                } else {
                    copyRows(kinds, null, target, rows, decodedKeys, rowCount);
                }
            }
            if (decodedKeys != null) {
                for (int i = 0; i < keyProjection.length; i++) {
                    if (indexOf(valueProjection, keyProjection[i]) < 0) {
                        FieldVector target = outVectors.get(keyProjection[i]);
                        target.clear();
                        decodedKeys.root().getVector(i).makeTransferPair(target).transfer();
                    }
                }
            }
            out.setRowCount(rowCount);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /**
     * Copies into {@code target} each output row's value; a tombstone's row takes the key's value where the key
     * holds the field ({@code keySource}, whose rows are the output rows), else null.
     */
    private static void copyRows(FieldVector source, FieldVector keySource, FieldVector target, ChunkRows rows,
            DecodedBatch keys, int rowCount) {
        target.setInitialCapacity(rowCount);
        target.allocateNew();
        for (int row = 0; row < rowCount; row++) {
            int from = rowOf(row, keys);
            if (!rows.tombstone(from)) {
                target.copyFromSafe(rows.valueRow(from), row, source);
            } else if (keySource != null) {
                target.copyFromSafe(row, row, keySource);
            } else {
                target.setNull(row);
            }
        }
        target.setValueCount(rowCount);
    }

    private static KafkaDecodeException located(ConsumerRecord<?, ?> record, boolean key, DecodeException e) {
        return new KafkaDecodeException(record.topic(), record.partition(), record.offset(), key, e);
    }
}
