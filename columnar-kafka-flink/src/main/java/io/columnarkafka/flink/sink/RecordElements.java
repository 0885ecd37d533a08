package io.columnarkafka.flink.sink;

import io.columnarkafka.flink.record.PreSerializedRecord;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * What {@link EncodeFunction} hands the chained {@code KafkaSink} writer for each record: the record alone ({@link
 * #RECORDS}), or the record with what the writer's serializer reads of the row it was encoded from (a SQL sink's
 * custom partitioner, which Flink calls with the consumed row). Made once per task; bound to each batch before its
 * records are emitted.
 */
public interface RecordElements<T> {
    /** Each record alone. */
    RecordElements<PreSerializedRecord> RECORDS = new RecordElements<>() {
        @Override
        public void bind(VectorSchemaRoot batch) {}

        @Override
        public PreSerializedRecord element(PreSerializedRecord record, int row) {
            return record;
        }
    };

    /** Points the elements at {@code batch}, whose rows are the ones written. */
    void bind(VectorSchemaRoot batch);

    /**
     * The element of {@code record}, encoded from row {@code row} of the bound batch. It is emitted at once: anything
     * it reads of the batch is read while the batch is open.
     */
    T element(PreSerializedRecord record, int row);
}
