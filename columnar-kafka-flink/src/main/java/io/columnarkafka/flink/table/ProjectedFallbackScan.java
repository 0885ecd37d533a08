package io.columnarkafka.flink.table;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.ScanTableSource.ScanContext;
import org.apache.flink.table.connector.source.ScanTableSource.ScanRuntimeProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

/**
 * Flink's own runtime for a {@code kafka-columnar} scan that is not admitted for the columns its query reads
 * ({@link ColumnarKafkaDynamicSource}, decided after the planner pushed them): Flink's {@link KafkaDynamicSource},
 * given the metadata columns the query reads and the planner's watermark strategy, deserializes every physical
 * column exactly as for a {@code kafka} table (Flink's Kafka source takes no projection, so its formats see the
 * whole row and reject or skip the records they do for {@code kafka}); a chained map then keeps the columns the
 * planner asked for. The strategy, generated for those columns, reads each whole row through the same projection
 * ({@link ProjectedRowWatermarks}) inside Flink's source, per split, as for {@code kafka}. A query reading every
 * physical column runs Flink's runtime provider unchanged.
 */
final class ProjectedFallbackScan {
    private ProjectedFallbackScan() {}

    /**
     * @param flink a copy of Flink's source for the table, as its factory built it (nothing pushed yet)
     * @param physical the table's physical columns
     * @param projectedFields the physical columns the planner pushed, in its order
     * @param metadataKeys the metadata columns the planner pushed, in its order
     * @param producedType the row the planner expects: the projected columns, then the metadata columns
     * @param watermarks the strategy the planner pushed, or null
     */
    static ScanRuntimeProvider provider(KafkaDynamicSource flink, RowType physical, int[] projectedFields,
            List<String> metadataKeys, DataType producedType, WatermarkStrategy<RowData> watermarks,
            ScanContext context) {
        List<RowType.RowField> wholeFields = new ArrayList<>(physical.getFields());
        List<RowType.RowField> produced = ((RowType) producedType.getLogicalType()).getFields();
        wholeFields.addAll(produced.subList(projectedFields.length, produced.size()));
        flink.applyReadableMetadata(metadataKeys,
                TypeConversions.fromLogicalToDataType(new RowType(false, wholeFields)));
        int[] projection = new int[produced.size()];
        boolean whole = projectedFields.length == physical.getFieldCount();
        for (int i = 0; i < projectedFields.length; i++) {
            projection[i] = projectedFields[i];
            whole &= projectedFields[i] == i;
        }
        for (int i = projectedFields.length; i < projection.length; i++) {
            projection[i] = physical.getFieldCount() + i - projectedFields.length;
        }
        if (watermarks != null) {
            flink.applyWatermark(whole ? watermarks : new ProjectedRowWatermarks(watermarks, projection));
        }
        ScanRuntimeProvider provider = flink.getScanRuntimeProvider(context);
        if (whole) {
            return provider;
        }
        if (!(provider instanceof DataStreamScanProvider rows)) {
            throw new IllegalStateException("Flink's Kafka source gave an unexpected runtime provider "
                    + provider.getClass() + " (flink-connector-kafka version?)");
        }
        return new Projecting(rows, projection, context.createTypeInformation(producedType));
    }

    /** Flink's provider followed by the projection, at the source's parallelism so that it chains. */
    private static final class Projecting implements DataStreamScanProvider {
        private final DataStreamScanProvider flink;
        private final int[] projection;
        private final TypeInformation<RowData> producedType;

        Projecting(DataStreamScanProvider flink, int[] projection, TypeInformation<RowData> producedType) {
            this.flink = flink;
            this.projection = projection;
            this.producedType = producedType;
        }

        @Override
        public DataStream<RowData> produceDataStream(ProviderContext context, StreamExecutionEnvironment env) {
            DataStream<RowData> rows = flink.produceDataStream(context, env);
            flink.getParallelism().ifPresent(rows.getTransformation()::setParallelism);
            SingleOutputStreamOperator<RowData> projected = rows.map(new ProjectRows(projection), producedType)
                    .setParallelism(rows.getParallelism());
            context.generateUid("kafka-columnar-projection").ifPresent(projected::uid);
            return projected;
        }

        @Override
        public boolean isBounded() {
            return flink.isBounded();
        }

        @Override
        public Optional<Integer> getParallelism() {
            return flink.getParallelism();
        }
    }

    /** The projected columns of each row, as a view over it (Flink's source makes a new row per record). */
    private record ProjectRows(int[] projection) implements MapFunction<RowData, RowData> {
        @Override
        public RowData map(RowData row) {
            return ProjectedRowData.from(projection).replaceRow(row);
        }
    }
}
