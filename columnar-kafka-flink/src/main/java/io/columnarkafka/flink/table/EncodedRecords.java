package io.columnarkafka.flink.table;

import io.columnarkafka.flink.record.EncodedBatch;
import io.columnarkafka.flink.record.EncodedBatchTypeInfo;
import io.columnarkafka.flink.record.PreSerializedRecord;
import io.columnarkafka.flink.record.PreSerializedRecordTypeInfo;
import java.io.Serializable;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.ObjectArrayTypeInfo;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.table.data.RowData;

/**
 * What the SQL encode operator hands on, and how the next steps read it back. The encode operator emits
 * one element per encoded batch ({@code B}: an {@link EncodedBatch}, which crosses a network channel in
 * one piece); {@link SplitEncodedBatch}, chained in front of the {@code KafkaSink} writer, turns it into
 * one element per record ({@code R}) for the sink's serializer: the pre-serialized records alone, or, for
 * a custom {@code sink.partitioner} (Flink calls it with the consumed row), each with its row. The Arrow-fed sink
 * ({@link ColumnarTables#arrowSink}) has no batch element: its encode function emits the record elements itself
 * ({@link ConsumedRowElements} for {@link #WITH_ROWS}).
 *
 * @param <B> the stream element per batch, between the encode operator and the splitter
 * @param <R> the stream element per record, between the splitter and the sink
 */
interface EncodedRecords<B, R> extends Serializable {
    /** Records alone: no partitioner, or Flink's {@code fixed}, which never reads the row. */
    EncodedRecords<EncodedBatch, PreSerializedRecord> RECORDS = new EncodedRecords<>() {
        @Override
        public boolean keepsRows() {
            return false;
        }

        @Override
        public TypeInformation<EncodedBatch> batchType(TypeInformation<RowData> rowType) {
            return EncodedBatchTypeInfo.INSTANCE;
        }

        @Override
        public TypeInformation<PreSerializedRecord> recordType(TypeInformation<RowData> rowType) {
            return PreSerializedRecordTypeInfo.INSTANCE;
        }

        @Override
        public EncodedBatch batch(EncodedBatch encoded, RowData[] rows) {
            return encoded;
        }

        @Override
        public EncodedBatch encoded(EncodedBatch batch) {
            return batch;
        }

        @Override
        public PreSerializedRecord recordOf(EncodedBatch batch, int i) {
            return batch.record(i);
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
    EncodedRecords<Tuple2<EncodedBatch, RowData[]>, Tuple2<PreSerializedRecord, RowData>> WITH_ROWS =
            new EncodedRecords<>() {
        @Override
        public boolean keepsRows() {
            return true;
        }

        @Override
        public TypeInformation<Tuple2<EncodedBatch, RowData[]>> batchType(TypeInformation<RowData> rowType) {
            return new TupleTypeInfo<>(EncodedBatchTypeInfo.INSTANCE,
                    ObjectArrayTypeInfo.getInfoFor(RowData[].class, rowType));
        }

        @Override
        public TypeInformation<Tuple2<PreSerializedRecord, RowData>> recordType(TypeInformation<RowData> rowType) {
            return new TupleTypeInfo<>(PreSerializedRecordTypeInfo.INSTANCE, rowType);
        }

        @Override
        public Tuple2<EncodedBatch, RowData[]> batch(EncodedBatch encoded, RowData[] rows) {
            return Tuple2.of(encoded, rows);
        }

        @Override
        public EncodedBatch encoded(Tuple2<EncodedBatch, RowData[]> batch) {
            return batch.f0;
        }

        @Override
        public Tuple2<PreSerializedRecord, RowData> recordOf(Tuple2<EncodedBatch, RowData[]> batch, int i) {
            return Tuple2.of(batch.f0.record(i), batch.f1[i]);
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

    /** True if the operator must keep each row until its batch is emitted. */
    boolean keepsRows();

    TypeInformation<B> batchType(TypeInformation<RowData> rowType);

    TypeInformation<R> recordType(TypeInformation<RowData> rowType);

    /** The element for an encoded batch and its rows (null unless {@link #keepsRows()}, else one per record). */
    B batch(EncodedBatch encoded, RowData[] rows);

    EncodedBatch encoded(B batch);

    /** The element of record {@code i} of a batch element. */
    R recordOf(B batch, int i);

    PreSerializedRecord record(R element);

    /** The consumed row, or null when not kept. */
    RowData row(R element);
}
