package io.columnarkafka.flink.table;

import io.columnarkafka.flink.record.PreSerializedRecord;
import io.columnarkafka.flink.sink.RecordElements;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.arrow.RowKindVector;
import java.util.stream.IntStream;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Each record of an Arrow-fed sink with its consumed row ({@link EncodedRecords#WITH_ROWS}), for a custom partitioner,
 * which Flink's {@code DynamicKafkaRecordSerializationSchema} calls with the row its sink node hands it: the physical
 * columns, then the metadata columns, of that row's kind. The row is a view of those columns of the batch, in place,
 * its kind read from the row-kind column of a changelog's batches (INSERT without one); one view for every record,
 * moved to the next row only after the previous record was handed over (the {@code KafkaSink} writer's serializer
 * calls the partitioner within that call), so the record's type need copy no row ({@link
 * io.columnarkafka.flink.typeutils.LentRowTypeInfo}).
 */
final class ConsumedRowElements implements RecordElements<Tuple2<PreSerializedRecord, RowData>> {
    private final ArrowRowView rows;
    private final int kindColumn;
    private TinyIntVector kinds;

    /**
     * @param batchType the batches' columns: the consumed row's {@code consumedColumns} first, then any row-kind column
     * @param kindColumn the row-kind column, or -1 when every row is an insert
     */
    ConsumedRowElements(RowType batchType, int consumedColumns, int kindColumn) {
        this.rows = new ArrowRowView(batchType, IntStream.range(0, consumedColumns).toArray());
        this.kindColumn = kindColumn;
    }

    @Override
    public void bind(VectorSchemaRoot batch) {
        rows.bind(batch);
        kinds = kindColumn < 0 ? null : (TinyIntVector) batch.getVector(kindColumn);
    }

    @Override
    public Tuple2<PreSerializedRecord, RowData> element(PreSerializedRecord record, int row) {
        return Tuple2.of(record, rows.row(row, kinds == null ? RowKind.INSERT : RowKindVector.kind(kinds, row)));
    }
}
