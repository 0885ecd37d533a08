package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.eval.RowOfLargestTimestamp;
import io.columnarkafka.flink.calc.eval.UnsupportedExpressionException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
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
 * <p><b>Columnar path.</b> When the planner stage hands the watermark expression ({@code columnarWatermark}, over
 * the batches' row type) and the calc's compiler admits it ({@link RowOfLargestTimestamp}), no probe runs: the
 * expression is evaluated as one column per batch and the row chosen is the first whose watermark (the value's
 * millisecond, as Flink's generated code returns it) is the batch's largest, or the last row when every watermark
 * of the batch is null (that row changes nothing, as the batch's rows would not). The split's generator moves
 * exactly as the probe's choice makes it move: to the batch's largest watermark when that is above the split's,
 * else not at all (a row at or below the split's watermark emits nothing new). Ties give the same watermark
 * whichever tied row is chosen.
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
    /** The watermark expression over {@link #rowType}, evaluated on the vectors; null: the row probe. */
    private final Expr columnarWatermark;
    /** Set by the assigner for the element being emitted, read by its split's generator right after. */
    private transient RowData pending;

    /**
     * @param rows the strategy Flink's planner pushed into the source
     * @param rowType the row type of the emitted batches, which is the source's produced type
     * @param columnarWatermark the pushed watermark expression over {@code rowType}, one {@link
     *     #columnarWatermarkUnsupported} admits; null to find the row with the probe
     */
    ArrowBatchWatermarks(WatermarkStrategy<RowData> rows, RowType rowType, Expr columnarWatermark) {
        this.rows = rows;
        this.rowType = rowType;
        this.columnarWatermark = columnarWatermark;
    }

    /** Empty when the calc's compiler evaluates {@code watermark} over batches of {@code rowType}; else why not. */
    static Optional<String> columnarWatermarkUnsupported(RowType rowType, Expr watermark) {
        try {
            RowOfLargestTimestamp.compile(rowType, watermark);
            return Optional.empty();
        } catch (UnsupportedExpressionException e) {
            return Optional.of(e.getMessage());
        }
    }

    @Override
    public TimestampAssigner<ArrowBatch> createTimestampAssigner(
            TimestampAssignerSupplier.Context context) {
        TimestampAssigner<RowData> flink = rows.createTimestampAssigner(context);
        ArrowInPlaceRowView view = new ArrowInPlaceRowView(rowType);
        RowDataSerializer copier = new RowDataSerializer(rowType);
        WatermarkRow chooser = columnarWatermark == null ? probes(context.getMetricGroup()) : columnar();
        return (batch, recordTimestamp) -> {
            String split = batch.splitId();
            if (split == null) {
                throw new IllegalArgumentException(
                        "a scan's watermarks apply to the batches its source reads from a split, not to " + batch);
            }
            VectorSchemaRoot root = batch.open(null);
            view.bind(root);
            pending = copier.copy(view.row(chooser.row(split, root, view)));
            return flink.extractTimestamp(pending, recordTimestamp);
        };
    }

    /** Chooses the row of a split's batch ({@code root}, bound to {@code view}) its generator is handed. */
    private interface WatermarkRow {
        int row(String split, VectorSchemaRoot root, ArrowInPlaceRowView view);
    }

    private WatermarkRow columnar() {
        RowOfLargestTimestamp largest;
        try {
            largest = RowOfLargestTimestamp.compile(rowType, columnarWatermark);
        } catch (UnsupportedExpressionException e) {
            throw new IllegalStateException("a watermark admitted for the columnar path does not compile over "
                    + rowType.asSummaryString() + ": " + e.getMessage(), e);
        }
        return (split, root, view) -> {
            int row = largest.rowOf(root);
            return row < 0 ? view.rowCount() - 1 : row;
        };
    }

    private WatermarkRow probes(MetricGroup metrics) {
        ProbeContext probeContext = new ProbeContext(metrics);
        Map<String, WatermarkGenerator<RowData>> probes = new HashMap<>();
        return (split, root, view) -> rowRaisingTheWatermarkLast(view,
                probes.computeIfAbsent(split, id -> rows.createWatermarkGenerator(probeContext)));
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
