package io.columnarkafka.flink.source.reader;

import io.columnarkafka.flink.source.DecodingSpec;
import io.columnarkafka.flink.source.KafkaDecodeException;
import io.columnarkafka.flink.source.KafkaMetadata;
import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decodes a {@link RecordChunk} into rows of the source's row type, as Flink's {@code
 * DynamicKafkaDeserializationSchema} makes them: values by the value format; with key fields, keys by
 * the key format, and a record gives a row only if both its value and its key give one; key and value
 * fields are placed at their positions in the row, value fields winning where both hold one.
 *
 * <p>Metadata columns (the row's last ones, {@link KafkaMetadata}) are filled from each row's record.
 *
 * <p>The record views point into the consumer's records (no copy). Whole columns move into the result
 * without copying; only when some keys give no row are the value rows that keep a key copied out.
 */
final class ChunkDecoder {
    private final BatchDecoder valueDecoder;
    private final BatchDecoder keyDecoder;
    private final int[] keyProjection;
    private final int[] valueProjection;
    private final Schema schema;
    private final List<KafkaMetadata> metadata;
    private final RecordBytes values = new RecordBytes();
    private final RecordBytes keys = new RecordBytes();

    ChunkDecoder(DecodingSpec spec) {
        this.valueDecoder = spec.valueDecoder();
        this.keyDecoder = spec.keyDecoder();
        this.keyProjection = spec.keyProjection();
        this.valueProjection = spec.valueProjection();
        this.schema = schema(spec);
        this.metadata = spec.metadata();
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
        for (int field : spec.valueProjection()) {
            layouts[field] = spec.valueDecoder().timestampLayout();
        }
        List<Field> fields = new ArrayList<>(layouts.length);
        for (int i = 0; i < layouts.length; i++) {
            fields.add(ArrowLayout.field(rowType.getFieldNames().get(i), rowType.getTypeAt(i), layouts[i]));
        }
        return new Schema(fields);
    }

    /**
     * The rows of {@code chunk}, owned by the caller, or null when no record gave a row.
     *
     * @throws KafkaDecodeException for a record the format rejects, naming its topic, partition, offset
     *     and field; nothing stays allocated
     */
    VectorSchemaRoot decode(RecordChunk chunk, BufferAllocator allocator) {
        try (DecodedBatch decodedValues = decodeValues(chunk, allocator)) {
            if (decodedValues.rowCount() == 0) {
                return null;
            }
            if (keyDecoder == null && valueProjection.length == schema.getFields().size()) {
                return decodedValues.takeRoot();
            }
            try (DecodedBatch decodedKeys = keyDecoder == null ? null : decodeKeys(chunk, decodedValues, allocator)) {
                VectorSchemaRoot rows = assemble(decodedValues, decodedKeys, allocator);
                if (!metadata.isEmpty()) {
                    try {
                        fillMetadata(rows, chunk, decodedValues, decodedKeys);
                    } catch (RuntimeException e) {
                        rows.close();
                        throw e;
                    }
                }
                return rows;
            }
        }
    }

    /** The metadata columns (the last ones) of each row's record: its value's, kept only if its key decoded. */
    private void fillMetadata(VectorSchemaRoot rows, RecordChunk chunk, DecodedBatch values, DecodedBatch keys) {
        int rowCount = rows.getRowCount();
        ConsumerRecord<?, ?>[] records = new ConsumerRecord<?, ?>[rowCount];
        for (int row = 0; row < rowCount; row++) {
            records[row] = chunk.record(values.recordOf(keys == null ? row : keys.recordOf(row)));
        }
        List<FieldVector> vectors = rows.getFieldVectors();
        int first = vectors.size() - metadata.size();
        for (int i = 0; i < metadata.size(); i++) {
            metadata.get(i).fill(vectors.get(first + i), records, rowCount);
        }
    }

    private DecodedBatch decodeValues(RecordChunk chunk, BufferAllocator allocator) {
        values.clear();
        try {
            for (int i = 0; i < chunk.size(); i++) {
                values.add(chunk.record(i).value());
            }
            return valueDecoder.decode(values, allocator);
        } catch (DecodeException e) {
            throw located(chunk.record(e.record()), false, e);
        } finally {
            values.clear();
        }
    }

    /** Keys of the records whose value gave a row, in row order. */
    private DecodedBatch decodeKeys(RecordChunk chunk, DecodedBatch decodedValues, BufferAllocator allocator) {
        keys.clear();
        try {
            for (int row = 0; row < decodedValues.rowCount(); row++) {
                keys.add(chunk.record(decodedValues.recordOf(row)).key());
            }
            return keyDecoder.decode(keys, allocator);
        } catch (DecodeException e) {
            throw located(chunk.record(decodedValues.recordOf(e.record())), true, e);
        } finally {
            keys.clear();
        }
    }

    /** Places the key and value columns at their fields; rows whose key gave no row are dropped. */
    private VectorSchemaRoot assemble(DecodedBatch decodedValues, DecodedBatch decodedKeys, BufferAllocator allocator) {
        int rows = decodedKeys == null ? decodedValues.rowCount() : decodedKeys.rowCount();
        boolean everyRowKeyed = decodedKeys == null || rows == decodedValues.rowCount();
        VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator);
        try {
            List<FieldVector> outVectors = out.getFieldVectors();
            if (decodedKeys != null) {
                place(decodedKeys.root(), keyProjection, outVectors, null);
            }
            place(decodedValues.root(), valueProjection, outVectors, everyRowKeyed ? null : decodedKeys);
            out.setRowCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /**
     * Moves column {@code i} of {@code from} into field {@code projection[i]} of the result; with {@code
     * keyedRows}, copies only the rows a key was decoded for.
     */
    private static void place(VectorSchemaRoot from, int[] projection, List<FieldVector> out, DecodedBatch keyedRows) {
        for (int i = 0; i < projection.length; i++) {
            FieldVector source = from.getVector(i);
            FieldVector target = out.get(projection[i]);
            if (keyedRows == null) {
                target.clear();
                source.makeTransferPair(target).transfer();
            } else {
                target.clear();
                int rows = keyedRows.rowCount();
                for (int row = 0; row < rows; row++) {
                    target.copyFromSafe(keyedRows.recordOf(row), row, source);
                }
                target.setValueCount(rows);
            }
        }
    }

    private static KafkaDecodeException located(ConsumerRecord<?, ?> record, boolean key, DecodeException e) {
        return new KafkaDecodeException(record.topic(), record.partition(), record.offset(), key, e);
    }
}
