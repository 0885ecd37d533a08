package io.columnarkafka.flink.table;

import io.columnarkafka.flink.record.PreSerializedRecord;
import java.io.Serializable;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.table.data.RowData;

/**
 * What the SQL encode operator hands to {@code KafkaSink} per row, and how the sink's serializer reads it
 * back: the pre-serialized record alone, or, for a custom {@code sink.partitioner} (Flink calls it with
 * the consumed row), the record with its row.
 *
 * @param <T> the stream element between the encode operator and the sink
 */
interface EncodedRecords<T> extends Serializable {
    /** Records alone: no partitioner, or Flink's {@code fixed}, which never reads the row. */
    EncodedRecords<PreSerializedRecord> RECORDS = new EncodedRecords<>() {
        @Override
        public boolean keepsRows() {
            return false;
        }

        @Override
        public PreSerializedRecord element(PreSerializedRecord record, RowData row) {
            return record;
        }

        @Override
        public PreSerializedRecord record(PreSerializedRecord element) {
            return element;
        }

        @Override
        public RowData row(PreSerializedRecord element) {
            return null;
        }
    };

    /** Each record with the consumed row it was encoded from, for a partitioner that reads the row. */
    EncodedRecords<Tuple2<PreSerializedRecord, RowData>> WITH_ROWS = new EncodedRecords<>() {
        @Override
        public boolean keepsRows() {
            return true;
        }

        @Override
        public Tuple2<PreSerializedRecord, RowData> element(PreSerializedRecord record, RowData row) {
            return Tuple2.of(record, row);
        }

        @Override
        public PreSerializedRecord record(Tuple2<PreSerializedRecord, RowData> element) {
            return element.f0;
        }

        @Override
        public RowData row(Tuple2<PreSerializedRecord, RowData> element) {
            return element.f1;
        }
    };

    /** True if the operator must keep each row until its record is emitted. */
    boolean keepsRows();

    /** The element for a record and its row (null unless {@link #keepsRows()}). */
    T element(PreSerializedRecord record, RowData row);

    PreSerializedRecord record(T element);

    /** The consumed row, or null when not kept. */
    RowData row(T element);
}
