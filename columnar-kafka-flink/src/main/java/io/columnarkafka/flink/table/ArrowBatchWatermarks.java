package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssignerSupplier;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkAlignmentParams;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.clock.RelativeClock;
import org.apache.flink.util.clock.SystemClock;

/**
 * The watermark strategy of an Arrow-emitting scan, made of the {@code WatermarkStrategy<RowData>} Flink's
 * planner pushed into the table source (watermark push-down): Flink's own generated watermark generator, with
 * Flink's idleness ({@code scan.watermark.idle-timeout}, {@code table.exec.source.idle-timeout}) and alignment
 * ({@code scan.watermark.alignment.*}) wrappers, one per split as the source operator creates them.
 *
 * <p>Flink's generator keeps the watermark of the last row that gave one (a null watermark changes nothing) and,
 * with the default {@code on-periodic} emit strategy, emits it when the source operator's timer fires; the
 * split's watermark only ever advances, so what counts is the largest watermark emitted. The source operator
 * calls a generator only after the element is in the stream, and by then a chained consumer has freed the
 * batch. So the rows are read earlier, in the timestamp assigner, which the source operator calls for the same
 * element just before it emits it: the split's <i>probe</i>, a second instance of Flink's generator that has seen
 * exactly the split's earlier rows, reads every row of the batch (a view over the vectors) with an emission
 * after each, and the row that raised the emitted watermark last is copied; the split's generator then sees that
 * one row. When the batch's largest watermark is above the split's earlier ones, that row gives it, so the
 * split's watermark moves exactly as far as after all the batch's rows; when it is not, the row chosen moves
 * nothing, as the batch's rows would not. A periodic emission after a whole batch is one Flink's row-at-a-time
 * source may make too (its timer can fire after any row). Per-row emission ({@code on-event}) is not reproduced:
 * a watermark inside a batch would make later rows of the same batch late in Flink; such scans keep the row
 * path ({@link ColumnarTables#arrowScanAdmission}).
 *
 * <p>The probes are kept per split ({@link ArrowBatch#splitId()}), made once each: Flink generates and compiles
 * its watermark code for every generator instance, far too costly per batch.
 *
 * <p>The probe reads the rows through an {@link ArrowInPlaceRowView}, whose strings point into the vectors: Flink's
 * generated watermark code deep-copies every nested row it reads a field of (Nexmark's {@code bid.dateTime}
 * copies the whole {@code bid}, strings and all), and a string copied out of Arrow per read would be copied twice.
 * Neither the probe nor Flink's generator keeps a row or a value of it past the call (the generator keeps a
 * {@code long}); the row handed to the split's generator is a heap copy.
 */
final class ArrowBatchWatermarks implements WatermarkStrategy<ArrowBatch> {
    private static final long serialVersionUID = 1L;

    private final WatermarkStrategy<RowData> rows;
    private final RowType rowType;
    /** Set by the assigner for the element being emitted, read by its split's generator right after. */
    private transient RowData pending;

    /**
     * @param rows the strategy Flink's planner pushed into the source
     * @param rowType the row type of the emitted batches, which is the source's produced type
     */
    ArrowBatchWatermarks(WatermarkStrategy<RowData> rows, RowType rowType) {
        this.rows = rows;
        this.rowType = rowType;
    }

    @Override
    public TimestampAssigner<ArrowBatch> createTimestampAssigner(
            TimestampAssignerSupplier.Context context) {
        TimestampAssigner<RowData> flink = rows.createTimestampAssigner(context);
        ArrowInPlaceRowView view = new ArrowInPlaceRowView(rowType);
        RowDataSerializer copier = new RowDataSerializer(rowType);
        ProbeContext probeContext = new ProbeContext(context.getMetricGroup());
        Map<String, WatermarkGenerator<RowData>> probes = new HashMap<>();
        return (batch, recordTimestamp) -> {
            String split = batch.splitId();
            if (split == null) {
                throw new IllegalArgumentException(
                        "a scan's watermarks apply to the batches its source reads from a split, not to " + batch);
            }
            WatermarkGenerator<RowData> probe =
                    probes.computeIfAbsent(split, id -> rows.createWatermarkGenerator(probeContext));
            view.bind(batch.open(null));
            pending = copier.copy(view.row(rowRaisingTheWatermarkLast(view, probe)));
            return flink.extractTimestamp(pending, recordTimestamp);
        };
    }

    /** The row after which the probe's emitted watermark rose last, or the last row when none raised it. */
    private static int rowRaisingTheWatermarkLast(ArrowInPlaceRowView view, WatermarkGenerator<RowData> probe) {
        LargestWatermark seen = new LargestWatermark();
        int best = view.rowCount() - 1;
        for (int i = 0; i < view.rowCount(); i++) {
            long before = seen.value;
            probe.onEvent(view.row(i), Long.MIN_VALUE, seen);
            probe.onPeriodicEmit(seen);
            if (seen.value > before) {
                best = i;
            }
        }
        return best;
    }

    @Override
    public WatermarkGenerator<ArrowBatch> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context) {
        WatermarkGenerator<RowData> split = rows.createWatermarkGenerator(context);
        return new WatermarkGenerator<>() {
            @Override
            public void onEvent(ArrowBatch batch, long timestamp, WatermarkOutput output) {
                RowData row = pending;
                pending = null;
                split.onEvent(row, timestamp, output);
            }

            @Override
            public void onPeriodicEmit(WatermarkOutput output) {
                split.onPeriodicEmit(output);
            }
        };
    }

    @Override
    public WatermarkAlignmentParams getAlignmentParameters() {
        return rows.getAlignmentParameters();
    }

    /** Records the largest watermark a probe emits; idleness signals are the split's business, not the probe's. */
    private static final class LargestWatermark implements WatermarkOutput {
        long value = Long.MIN_VALUE;

        @Override
        public void emitWatermark(Watermark watermark) {
            value = Math.max(value, watermark.getTimestamp());
        }

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}
    }

    private record ProbeContext(MetricGroup metricGroup) implements WatermarkGeneratorSupplier.Context {
        @Override
        public MetricGroup getMetricGroup() {
            return metricGroup;
        }

        @Override
        public RelativeClock getInputActivityClock() {
            return SystemClock.getInstance();
        }
    }
}
