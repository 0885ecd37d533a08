package io.columnarkafka.format;

import java.util.Arrays;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The batch loop of the decoders whose records give at most one row each (avro, avro-confluent, csv, protobuf):
 * one root per batch, rows in record order, and the root freed whole when a record fails, so a failed batch
 * leaves no Arrow memory behind.
 */
public final class RowPerRecord {
    private RowPerRecord() {}

    /** Reads one record into one row. */
    @FunctionalInterface
    public interface RecordReader {
        /**
         * Reads record {@code record} into row {@code row} of {@code root}.
         *
         * @return false if the record gives no row (a tombstone, or a record skipped under {@code
         *     ignore-parse-errors}); the row is then written again by the next record
         * @throws RuntimeException if the record fails the batch
         */
        boolean read(RecordBytes records, int record, int row, VectorSchemaRoot root);
    }

    /**
     * Decodes {@code records} into a new root of {@code schema}, whose vectors are handed to {@code bind} once
     * allocated, then each record to {@code reader}.
     */
    public static DecodedBatch decode(Schema schema, RecordBytes records, BufferAllocator allocator,
            Consumer<VectorSchemaRoot> bind, RecordReader reader) {
        int count = records.count();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            root.allocateNew();
            bind.accept(root);
            int[] rowRecords = new int[count];
            int rows = 0;
            for (int i = 0; i < count; i++) {
                if (reader.read(records, i, rows, root)) {
                    rowRecords[rows++] = i;
                }
            }
            root.setRowCount(rows);
            return new DecodedBatch(root, rows == count ? null : Arrays.copyOf(rowRecords, rows), count);
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }
}
