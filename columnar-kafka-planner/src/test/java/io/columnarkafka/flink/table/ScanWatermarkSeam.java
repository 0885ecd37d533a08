package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.calc.Expr;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** Tests' access to the watermarks of a planned {@code kafka-columnar} scan source. */
public final class ScanWatermarkSeam {
    private ScanWatermarkSeam() {}

    /** The strategy Flink's planner pushed into the source: Flink's generated watermark generator. */
    public static WatermarkStrategy<RowData> pushed(DynamicTableSource source) {
        return ((ColumnarKafkaDynamicSource) source).pushedWatermarks();
    }

    /** The row type of the source's Arrow batches. */
    public static RowType batchType(DynamicTableSource source) {
        return ((ColumnarKafkaDynamicSource) source).projectedType();
    }

    /** The strategy of the source's Arrow batches, the watermark evaluated on the vectors (null: the row probe). */
    public static WatermarkStrategy<ArrowBatch> arrowWatermarks(DynamicTableSource source, Expr columnarWatermark) {
        return ((ColumnarKafkaDynamicSource) source).arrowWatermarks(columnarWatermark);
    }
}
