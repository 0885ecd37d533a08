package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.source.ColumnarKafkaSource;
import io.columnarkafka.flink.source.KafkaMetadata;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The table source of an admitted {@code kafka-columnar} scan ({@link ScanAdmissionMatcher}): Flink's own
 * {@link KafkaDynamicSource} (built by Flink's factory: options, validation, changelog mode and Kafka
 * settings are Flink's) read by the columnar source ({@link ColumnarScanTranslator}). It adds projection
 * push-down, so only the columns the query reads are decoded, and takes watermark push-down as Flink's source
 * does: the strategy Flink's planner generates from the table's WATERMARK (with its idleness and alignment
 * options) runs in the source, per split. Metadata columns ({@code topic}, {@code partition}, {@code offset},
 * {@code timestamp}, {@code timestamp-type}, {@code leader-epoch}) are filled from each row's record, with
 * Flink's keys and types.
 *
 * <p>The decision shows in {@link #asSummaryString()}, e.g. {@code kafka-columnar[admitted: raw value]}, and
 * in the log. The planner names a scan's operator after its own {@code TableSourceScan(...)} description
 * (it renames whatever transformation the provider returns), so the plan shows the admission only
 * indirectly: an admitted scan accepts projection push-down ({@code project=[...]} in the scan's digest
 * when the query reads fewer columns), Flink's Kafka source does not.
 */
final class ColumnarKafkaDynamicSource
        implements ScanTableSource, SupportsProjectionPushDown, SupportsReadingMetadata, SupportsWatermarkPushDown {
    private final String identifier;
    private final KafkaDynamicSource flink;
    private final KafkaScanShape shape;
    private final Admission admission;
    private int[] projectedFields;
    /** The metadata columns the planner asked for, after the physical ones ({@link ScanAdmissionMatcher} admitted each). */
    private List<KafkaMetadata> metadata = List.of();
    /** The strategy the planner pushed, or null when the table has no watermark. */
    private WatermarkStrategy<RowData> watermarks;

    ColumnarKafkaDynamicSource(
            String identifier, KafkaDynamicSource flink, KafkaScanShape shape, Admission admission) {
        this.identifier = identifier;
        this.flink = flink;
        this.shape = shape;
        this.admission = admission;
        this.projectedFields = identity(shape.physicalType().getFieldCount());
    }

    Admission admission() {
        return admission;
    }

    /** The columnar source reading the projected columns as Arrow batches, in the projection's order. */
    ColumnarKafkaSource<ArrowBatch> arrowSource(TypeInformation<RowData> producedType) {
        ColumnarScanTranslator.DecodedColumns decoded =
                ColumnarScanTranslator.DecodedColumns.of(shape, projectedFields, metadata);
        return ColumnarScanTranslator.source(shape, FlinkKafkaScan.of(flink, producedType), decoded.type(), metadata,
                new ArrowBatchProjection(decoded.columns()));
    }

    /**
     * The watermarks of the Arrow batches {@link #arrowSource} emits: the pushed strategy applied to the
     * batches' rows ({@link ArrowBatchWatermarks}), or none when the table has no watermark.
     */
    WatermarkStrategy<ArrowBatch> arrowWatermarks() {
        return watermarks == null ? WatermarkStrategy.noWatermarks()
                : new ArrowBatchWatermarks(watermarks, projectedType());
    }

    /** Whether a watermark was pushed into this source. */
    boolean hasWatermark() {
        return watermarks != null;
    }

    KafkaScanShape shape() {
        return shape;
    }

    /** {@code sink.parallelism}-like {@code scan.parallelism}, or null for the environment's. */
    Integer parallelism() {
        return shape.parallelism();
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return flink.getChangelogMode();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        TypeInformation<RowData> producedType = context.createTypeInformation(projectedType());
        FlinkKafkaScan kafka = FlinkKafkaScan.of(flink, producedType);
        return ColumnarScanTranslator.provider(shape, kafka, projectedFields, metadata, producedType,
                watermarks == null ? WatermarkStrategy.noWatermarks() : watermarks, operatorName());
    }

    /** The name the source is given, {@code ColumnarDecode[<summary>]} (the planner then names the scan). */
    String operatorName() {
        return "ColumnarDecode[" + asSummaryString() + "]";
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projection, DataType producedDataType) {
        int[] fields = new int[projection.length];
        for (int i = 0; i < projection.length; i++) {
            fields[i] = projection[i][0];
        }
        this.projectedFields = fields;
    }

    /** Flink's readable metadata; a key the columnar scan does not read made the table fall back before this. */
    @Override
    public Map<String, DataType> listReadableMetadata() {
        return flink.listReadableMetadata();
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        List<KafkaMetadata> keys = new ArrayList<>();
        for (String key : metadataKeys) {
            keys.add(KafkaMetadata.of(key).orElseThrow(
                    () -> new IllegalStateException("metadata '" + key + "' was not admitted: " + admission)));
        }
        this.metadata = List.copyOf(keys);
    }

    /** As Flink's Kafka source: every declared metadata column is produced, read or not. */
    @Override
    public boolean supportsMetadataProjection() {
        return false;
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> watermarkStrategy) {
        this.watermarks = watermarkStrategy;
    }

    /** The physical columns the query reads, in the order the planner asked for them, then the metadata. */
    private RowType projectedType() {
        List<RowType.RowField> fields = new ArrayList<>();
        for (int field : projectedFields) {
            fields.add(shape.physicalType().getFields().get(field));
        }
        fields.addAll(ColumnarScanTranslator.metadataFields(metadata));
        return new RowType(false, fields);
    }

    @Override
    public DynamicTableSource copy() {
        ColumnarKafkaDynamicSource copy = new ColumnarKafkaDynamicSource(
                identifier, (KafkaDynamicSource) flink.copy(), shape, admission);
        copy.projectedFields = projectedFields.clone();
        copy.watermarks = watermarks;
        copy.metadata = metadata;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return identifier + "[" + admission.describe() + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnarKafkaDynamicSource s && identifier.equals(s.identifier)
                && flink.equals(s.flink) && admission.equals(s.admission)
                && Arrays.equals(projectedFields, s.projectedFields) && Objects.equals(watermarks, s.watermarks)
                && metadata.equals(s.metadata);
    }

    @Override
    public int hashCode() {
        return Objects.hash(identifier, flink, admission, Arrays.hashCode(projectedFields), watermarks, metadata);
    }

    private static int[] identity(int count) {
        int[] fields = new int[count];
        for (int i = 0; i < count; i++) {
            fields[i] = i;
        }
        return fields;
    }
}
