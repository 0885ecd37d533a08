package io.columnarkafka.flink.table;

import io.columnarkafka.client.decode.KafkaMetadata;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.source.ColumnarKafkaSource;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.arrow.RowKindVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
import org.apache.flink.table.types.utils.TypeConversions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table source of a {@code kafka-columnar} scan whose table passed {@link ScanAdmissionMatcher#tableFallback}:
 * Flink's own {@link KafkaDynamicSource} (built by Flink's factory: options, validation, changelog mode and Kafka
 * settings are Flink's), with projection and metadata push-down, so the decision is taken on what the query
 * reads ({@link #admission()}, {@link ScanAdmissionMatcher#match} on {@link KafkaScanShape#reading}): a column
 * or metadata key the columnar source does not read sends only the queries that read it to Flink's source.
 * Admitted, the scan is read by the columnar source ({@link ColumnarScanTranslator}), decoding only the columns
 * the query reads; not admitted, it is Flink's source with the same pushed metadata and watermark, its rows
 * projected to the pushed columns ({@link ProjectedFallbackScan}). Watermark push-down is taken as Flink's source
 * takes it: the strategy Flink's planner generates from the table's WATERMARK (with its idleness and alignment
 * options) runs in the source, per split. Metadata columns ({@code topic}, {@code partition}, {@code offset},
 * {@code timestamp}, {@code timestamp-type}, {@code leader-epoch}, {@code headers}) are filled from each row's
 * record, with Flink's keys and types.
 *
 * <p>The decision shows in {@link #asSummaryString()}, e.g. {@code kafka-columnar[admitted: raw value]}, and
 * in the log when the runtime is built. The planner names a scan's operator after its own {@code
 * TableSourceScan(...)} description (it renames whatever transformation the provider returns), so the plan
 * shows the decision only through the planner stage ({@code ColumnarSql.explain}: {@code decode=[admitted: ...]}
 * or {@code SCAN_NOT_ADMITTED fallback: ...}).
 *
 * <p>Projection push-down is taken ({@link Projecting}) except by an upsert table's source, which reads every
 * physical column as Flink's {@code upsert-kafka} source does: the planner puts {@code ChangelogNormalize} after an
 * upsert scan, which drops an update equal to the key's previous row, so a projection applied before it would drop
 * updates (and their UPDATE_BEFORE) that Flink's plan, projecting after it, emits. Nor by the source of a changelog
 * value format (debezium-json, canal-json, maxwell-json, ogg-json), whose plans are then Flink's {@code kafka} plans:
 * Flink's Kafka source takes no projection, the planner's {@code ChangelogNormalize} (a primary key with {@code
 * table.exec.source.cdc-events-duplicate}) compares whole rows, and the decoder reads every value column anyway.
 */
class ColumnarKafkaDynamicSource implements ScanTableSource, SupportsReadingMetadata, SupportsWatermarkPushDown {
    private static final Logger LOG = LoggerFactory.getLogger(ColumnarKafkaDynamicSource.class);

    private final String identifier;
    private final String table;
    private final KafkaDynamicSource flink;
    private final KafkaScanShape shape;
    private final ColumnarOptions.ScanSettings batching;
    private int[] projectedFields;
    /**
     * The metadata keys the planner asked for, after the physical columns; until it asks, every key the table
     * declares (so the decision of a source nothing was pushed into is the whole table's).
     */
    private List<String> metadataKeys;
    /** The strategy the planner pushed, or null when the table has no watermark. */
    private WatermarkStrategy<RowData> watermarks;
    /** The decision for the columns and metadata pushed so far, once taken (decoders are planned to take it). */
    private Admission decided;

    /** The source of a table: {@link Projecting} unless its rows have kinds (upsert, a changelog value format). */
    static ColumnarKafkaDynamicSource of(String identifier, String table, KafkaDynamicSource flink,
            KafkaScanShape shape, ColumnarOptions.ScanSettings batching) {
        return shape.rowKinds() ? new ColumnarKafkaDynamicSource(identifier, table, flink, shape, batching)
                : new Projecting(identifier, table, flink, shape, batching);
    }

    private ColumnarKafkaDynamicSource(String identifier, String table, KafkaDynamicSource flink, KafkaScanShape shape,
            ColumnarOptions.ScanSettings batching) {
        this.identifier = identifier;
        this.table = table;
        this.flink = flink;
        this.shape = shape;
        this.batching = batching;
        this.projectedFields = identity(shape.physicalType().getFieldCount());
        this.metadataKeys = shape.metadataKeys();
    }

    /**
     * The decision for the columns and metadata pushed into this source; admitted, it names the batch caps when a
     * table sets them ({@code admitted: json value, batches of at most 256 rows, 8 mb}).
     */
    Admission admission() {
        if (decided == null) {
            Admission matched = ScanAdmissionMatcher.match(shape.reading(
                    ColumnarScanTranslator.DecodedColumns.planned(shape, projectedFields), metadataKeys));
            String caps = batching.describe();
            decided = !matched.isAdmitted() || caps.isEmpty() ? matched
                    : Admission.admitted(matched.detail() + ", " + caps);
        }
        return decided;
    }

    /**
     * The columnar source reading the projected columns as Arrow batches of {@link #arrowBatchType}, in the
     * projection's order, a changelog value format's row-kind column last.
     */
    ColumnarKafkaSource<ArrowBatch> arrowSource(TypeInformation<RowData> producedType) {
        if (shape.upsertMode()) {
            // ColumnarTables.arrowScanAdmission refuses it: Flink's ChangelogNormalize reads its rows.
            throw new IllegalStateException("an upsert scan has no Arrow scan: " + table);
        }
        List<KafkaMetadata> metadata = metadata();
        ColumnarScanTranslator.DecodedColumns decoded =
                ColumnarScanTranslator.DecodedColumns.of(shape, projectedFields, metadata);
        int[] columns = decoded.columns();
        if (shape.rowKinds()) {
            columns = Arrays.copyOf(columns, columns.length + 1);
            columns[columns.length - 1] = decoded.type().getFieldCount() - 1;
        }
        return ColumnarScanTranslator.source(shape, FlinkKafkaScan.of(flink, shape.upsertMode(), producedType), batching,
                decoded.type(), metadata, new ArrowBatchProjection(columns));
    }

    /**
     * The row type of the batches {@link #arrowSource} emits: the projected columns, then, for a changelog value
     * format, the row-kind column ({@link RowKindVector}), which carries each row's kind through the planner stage's
     * columnar nodes to the edge that makes rows of them or to a changelog format's encoder.
     */
    RowType arrowBatchType() {
        RowType projected = projectedType();
        return shape.rowKinds() ? RowDataArrowWriter.withRowKindColumn(projected,
                ColumnarScanTranslator.DecodedColumns.rowKindColumn(shape.physicalType())) : projected;
    }

    /**
     * The watermarks of the Arrow batches {@link #arrowSource} emits: the pushed strategy applied to the
     * batches' rows ({@link ArrowBatchWatermarks}), or none when the table has no watermark.
     *
     * @param columnarWatermark the pushed watermark expression over the batches' row type, evaluated on the
     *     vectors; null to find each batch's row with Flink's generator
     */
    WatermarkStrategy<ArrowBatch> arrowWatermarks(Expr columnarWatermark) {
        return watermarks == null ? WatermarkStrategy.noWatermarks()
                : new ArrowBatchWatermarks(watermarks, arrowBatchType(), columnarWatermark);
    }

    /** Empty when {@code watermark}, over the batches' row type, is evaluated on the vectors; else why not. */
    Optional<String> columnarWatermarkUnsupported(Expr watermark) {
        return ArrowBatchWatermarks.columnarWatermarkUnsupported(arrowBatchType(), watermark);
    }

    /** Whether a watermark was pushed into this source. */
    boolean hasWatermark() {
        return watermarks != null;
    }

    /** The strategy the planner pushed (Flink's generated watermark generator), or null. */
    WatermarkStrategy<RowData> pushedWatermarks() {
        return watermarks;
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
        Admission admission = admission();
        LOG.info("{} scan of table {} reading {}: {}", identifier, table, projectedType().getFieldNames(),
                admission.describe());
        if (!admission.isAdmitted()) {
            return ProjectedFallbackScan.provider((KafkaDynamicSource) flink.copy(), shape.physicalType(),
                    projectedFields, metadataKeys, TypeConversions.fromLogicalToDataType(projectedType()), watermarks,
                    context);
        }
        TypeInformation<RowData> producedType = context.createTypeInformation(projectedType());
        FlinkKafkaScan kafka = FlinkKafkaScan.of(flink, shape.upsertMode(), producedType);
        return ColumnarScanTranslator.provider(shape, kafka, batching, projectedFields, metadata(), producedType,
                watermarks == null ? WatermarkStrategy.noWatermarks() : watermarks, operatorName());
    }

    /** The name the source is given, {@code ColumnarDecode[<summary>]} (the planner then names the scan). */
    String operatorName() {
        return "ColumnarDecode[" + asSummaryString() + "]";
    }

    /** A source taking projection push-down: the physical columns the query reads are decoded. */
    static final class Projecting extends ColumnarKafkaDynamicSource implements SupportsProjectionPushDown {
        private Projecting(String identifier, String table, KafkaDynamicSource flink, KafkaScanShape shape,
                ColumnarOptions.ScanSettings batching) {
            super(identifier, table, flink, shape, batching);
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
            project(fields);
        }
    }

    /** Makes the scan read the physical columns {@code fields}, in that order. */
    void project(int[] fields) {
        this.projectedFields = fields;
        this.decided = null;
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return flink.listReadableMetadata();
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        this.metadataKeys = List.copyOf(metadataKeys);
        this.decided = null;
    }

    /**
     * Only the metadata columns the query reads are pushed, so an unread one (e.g. {@code headers}) does not
     * decide the scan. Flink's source produces every declared one; reading a record's metadata never fails, so the
     * rows the query sees are the same.
     */
    @Override
    public boolean supportsMetadataProjection() {
        return true;
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> watermarkStrategy) {
        this.watermarks = watermarkStrategy;
    }

    /** The metadata of an admitted scan, each key one the columnar source reads. */
    private List<KafkaMetadata> metadata() {
        List<KafkaMetadata> keys = new ArrayList<>();
        for (String key : metadataKeys) {
            keys.add(KafkaMetadata.of(key).orElseThrow(
                    () -> new IllegalStateException("metadata '" + key + "' was not admitted: " + admission())));
        }
        return keys;
    }

    /**
     * The physical columns the query reads, in the order the planner asked for them, then the metadata with
     * Flink's types.
     */
    RowType projectedType() {
        List<RowType.RowField> fields = new ArrayList<>();
        for (int field : projectedFields) {
            fields.add(shape.physicalType().getFields().get(field));
        }
        Map<String, DataType> readable = flink.listReadableMetadata();
        for (String key : metadataKeys) {
            fields.add(new RowType.RowField("$metadata$" + key, readable.get(key).getLogicalType()));
        }
        return new RowType(false, fields);
    }

    @Override
    public DynamicTableSource copy() {
        ColumnarKafkaDynamicSource copy = of(identifier, table, (KafkaDynamicSource) flink.copy(), shape, batching);
        copy.projectedFields = projectedFields.clone();
        copy.watermarks = watermarks;
        copy.metadataKeys = metadataKeys;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return identifier + "[" + admission().describe() + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnarKafkaDynamicSource s && identifier.equals(s.identifier) && table.equals(s.table)
                && flink.equals(s.flink) && batching.equals(s.batching) && Arrays.equals(projectedFields, s.projectedFields)
                && Objects.equals(watermarks, s.watermarks) && metadataKeys.equals(s.metadataKeys);
    }

    @Override
    public int hashCode() {
        return Objects.hash(identifier, table, flink, batching, Arrays.hashCode(projectedFields), watermarks,
                metadataKeys);
    }

    private static int[] identity(int count) {
        int[] fields = new int[count];
        for (int i = 0; i < count; i++) {
            fields[i] = i;
        }
        return fields;
    }
}
