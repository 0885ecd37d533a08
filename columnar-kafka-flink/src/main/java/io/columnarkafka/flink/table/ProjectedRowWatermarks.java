package io.columnarkafka.flink.table;

import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssignerSupplier;
import org.apache.flink.api.common.eventtime.WatermarkAlignmentParams;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

/**
 * A watermark strategy Flink's planner generated for the projected rows of a scan (the columns pushed into the
 * source), applied to the whole rows Flink's Kafka source produces: its timestamp assigner and its generator see
 * each row through the projection, so they read the same values at the positions they were generated for.
 * Everything else is the planner's strategy: one generator per split as the source operator creates them,
 * Flink's idleness wrapper inside it, its alignment parameters.
 */
final class ProjectedRowWatermarks implements WatermarkStrategy<RowData> {
    private static final long serialVersionUID = 1L;

    private final WatermarkStrategy<RowData> projected;
    private final int[] projection;

    /**
     * @param projected the strategy generated for the projected rows
     * @param projection for each field of a projected row, its position in the whole row
     */
    ProjectedRowWatermarks(WatermarkStrategy<RowData> projected, int[] projection) {
        this.projected = projected;
        this.projection = projection.clone();
    }

    @Override
    public TimestampAssigner<RowData> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
        TimestampAssigner<RowData> assigner = projected.createTimestampAssigner(context);
        ProjectedRowData view = ProjectedRowData.from(projection);
        return (row, recordTimestamp) -> assigner.extractTimestamp(view.replaceRow(row), recordTimestamp);
    }

    @Override
    public WatermarkGenerator<RowData> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context) {
        WatermarkGenerator<RowData> generator = projected.createWatermarkGenerator(context);
        ProjectedRowData view = ProjectedRowData.from(projection);
        return new WatermarkGenerator<>() {
            @Override
            public void onEvent(RowData row, long timestamp, WatermarkOutput output) {
                generator.onEvent(view.replaceRow(row), timestamp, output);
            }

            @Override
            public void onPeriodicEmit(WatermarkOutput output) {
                generator.onPeriodicEmit(output);
            }
        };
    }

    @Override
    public WatermarkAlignmentParams getAlignmentParameters() {
        return projected.getAlignmentParameters();
    }
}
