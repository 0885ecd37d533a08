package io.columnarkafka.flink.table;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;

/**
 * The table source of a {@code kafka-columnar} / {@code upsert-kafka-columnar} table that falls back for every
 * query ({@link ScanAdmissionMatcher#tableFallback}: upsert mode, a format or an option):
 * Flink's own {@link KafkaDynamicSource}, with exactly its abilities (metadata and watermark push-down, no
 * projection push-down), its changelog mode and its runtime provider, unchanged. Only {@link
 * #asSummaryString()} differs: it carries the fallback reason.
 */
final class FallbackKafkaSource implements ScanTableSource, SupportsReadingMetadata, SupportsWatermarkPushDown {
    private final String identifier;
    private final KafkaDynamicSource flink;
    private final Admission admission;

    FallbackKafkaSource(String identifier, KafkaDynamicSource flink, Admission admission) {
        this.identifier = identifier;
        this.flink = flink;
        this.admission = admission;
    }

    Admission admission() {
        return admission;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return flink.getChangelogMode();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return flink.getScanRuntimeProvider(context);
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return flink.listReadableMetadata();
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        flink.applyReadableMetadata(metadataKeys, producedDataType);
    }

    @Override
    public boolean supportsMetadataProjection() {
        return flink.supportsMetadataProjection();
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> watermarkStrategy) {
        flink.applyWatermark(watermarkStrategy);
    }

    @Override
    public DynamicTableSource copy() {
        return new FallbackKafkaSource(identifier, (KafkaDynamicSource) flink.copy(), admission);
    }

    @Override
    public String asSummaryString() {
        return identifier + "[" + admission.describe() + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FallbackKafkaSource s && identifier.equals(s.identifier) && flink.equals(s.flink)
                && admission.equals(s.admission);
    }

    @Override
    public int hashCode() {
        return Objects.hash(identifier, flink, admission);
    }
}
