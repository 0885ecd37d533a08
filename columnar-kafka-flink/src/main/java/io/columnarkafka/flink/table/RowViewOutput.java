package io.columnarkafka.flink.table;

import io.columnarkafka.flink.source.BatchOutput;
import io.columnarkafka.flink.source.BatchOutputFactory;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.arrow.RowKindVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The SQL scan's per-batch output: every row of a decoded batch handed to the planner as a view
 * ({@link ArrowRowView}, one reused {@code ColumnarRowData} reading the Arrow vectors in place), with the kind
 * the batch's row-kind column gives it (an upsert scan's DELETE rows; every row an INSERT without one), then the
 * batch is freed. The source's emitter calls it before it moves the split's offset past the batch, so all
 * rows of a batch are in the stream before a checkpoint can record the new offset.
 *
 * <p>No copy is made here. {@code SourceOutput.collect} hands the view to the chained operator
 * synchronously: with object reuse off, Flink's chaining output copies every record with the row
 * serializer before the next operator sees it (as it does for every source), and across a network edge the
 * record is serialized at once; with object reuse on, the next operator reads the view in place and, by
 * Flink's object-reuse contract, keeps no reference to it past its {@code processElement} (the contract
 * Flink's own vectorized file readers rely on with their reused {@code ColumnarRowData}). Values read from
 * the view (strings, bytes, decimals) are heap copies and may be kept. A view read after its batch is
 * freed fails on Arrow's bounds checks; it never reads freed memory silently.
 */
final class RowViewOutput implements BatchOutputFactory<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType decodedType;
    private final int[] columns;
    /** The batch column holding each row's kind ({@link RowKindVector}), or -1: every row an INSERT. */
    private final int rowKindColumn;
    private final TypeInformation<RowData> producedType;

    /**
     * @param decodedType the row type of the decoded batches
     * @param columns the batch columns of each produced row, in order
     * @param rowKinds whether the batches' last column holds each row's kind ({@link RowKindVector})
     * @param producedType the planner's type information of the produced rows
     */
    RowViewOutput(RowType decodedType, int[] columns, boolean rowKinds, TypeInformation<RowData> producedType) {
        this.decodedType = decodedType;
        this.columns = columns.clone();
        this.rowKindColumn = rowKinds ? decodedType.getFieldCount() - 1 : -1;
        this.producedType = producedType;
    }

    @Override
    public BatchOutput<RowData> create(SourceReaderContext context) {
        ArrowRowView view = new ArrowRowView(decodedType, columns);
        return (rows, timestamp, splitId, output) -> emit(view, rows, timestamp, output);
    }

    private void emit(ArrowRowView view, VectorSchemaRoot rows, long timestamp, SourceOutput<RowData> output) {
        try {
            view.bind(rows);
            if (rowKindColumn < 0) {
                for (int i = 0; i < view.rowCount(); i++) {
                    output.collect(view.row(i), timestamp);
                }
            } else {
                TinyIntVector kinds = (TinyIntVector) rows.getVector(rowKindColumn);
                for (int i = 0; i < view.rowCount(); i++) {
                    output.collect(view.row(i, RowKindVector.kind(kinds, i)), timestamp);
                }
            }
        } finally {
            rows.close();
        }
    }

    @Override
    public TypeInformation<RowData> producedType() {
        return producedType;
    }
}
