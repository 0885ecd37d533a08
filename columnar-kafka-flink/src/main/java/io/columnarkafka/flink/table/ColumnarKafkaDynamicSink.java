package io.columnarkafka.flink.table;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.types.DataType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table sink of {@code kafka-columnar} / {@code upsert-kafka-columnar}: Flink's own {@link
 * KafkaDynamicSink} (built by Flink's factory, so options, validation, changelog mode and writable
 * metadata are Flink's), whose runtime is replaced by the columnar path only when {@link AdmissionMatcher}
 * admits the sink's shape. Otherwise Flink's runtime provider is returned unchanged.
 *
 * <p>The decision is made once, when the planner has applied the metadata columns, and shows in
 * {@link #asSummaryString()} (e.g. {@code kafka-columnar[fallback: UNSUPPORTED_VALUE_FORMAT csv]}), which
 * names the sink operator, so {@code EXPLAIN JSON_EXECUTION_PLAN ...} shows it.
 */
final class ColumnarKafkaDynamicSink implements DynamicTableSink, SupportsWritingMetadata {
    private static final Logger LOG = LoggerFactory.getLogger(ColumnarKafkaDynamicSink.class);

    private final String identifier;
    private final String tableName;
    private final KafkaDynamicSink flink;
    private final Map<String, String> options;
    private final ColumnarOptions.Settings batching;
    private Admission admission;

    ColumnarKafkaDynamicSink(
            String identifier,
            String tableName,
            KafkaDynamicSink flink,
            Map<String, String> options,
            ColumnarOptions.Settings batching) {
        this.identifier = identifier;
        this.tableName = tableName;
        this.flink = flink;
        this.options = Map.copyOf(options);
        this.batching = batching;
    }

    /** The admission decision for the sink as configured so far (computed once per configuration). */
    Admission admission() {
        if (admission == null) {
            KafkaSinkShape shape;
            try {
                shape = KafkaSinkShape.of(flink, options);
            } catch (IllegalStateException e) {
                admission = Admission.fallback(FallbackReason.UNSUPPORTED_CONNECTOR, e.getMessage());
                return admission;
            }
            admission = AdmissionMatcher.match(shape);
        }
        return admission;
    }

    /** The {@code columnar.} batching settings. */
    ColumnarOptions.Settings batching() {
        return batching;
    }

    /** The sink's shape as configured so far (only for an admitted sink: a fallback may have none). */
    KafkaSinkShape shape() {
        return KafkaSinkShape.of(flink, options);
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return flink.getChangelogMode(requestedMode);
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        Admission decision = admission();
        LOG.info("{} sink for table {}: {}", identifier, tableName, decision.describe());
        if (!decision.isAdmitted()) {
            return FallbackProvider.named(flink.getSinkRuntimeProvider(context), "KafkaSink[" + asSummaryString() + "]");
        }
        return ColumnarSinkTranslator.provider(KafkaSinkShape.of(flink, options), batching, asSummaryString());
    }

    @Override
    public Map<String, DataType> listWritableMetadata() {
        return flink.listWritableMetadata();
    }

    @Override
    public void applyWritableMetadata(List<String> metadataKeys, DataType consumedDataType) {
        flink.applyWritableMetadata(metadataKeys, consumedDataType);
        admission = null;
    }

    @Override
    public DynamicTableSink copy() {
        return new ColumnarKafkaDynamicSink(
                identifier, tableName, (KafkaDynamicSink) flink.copy(), options, batching);
    }

    @Override
    public String asSummaryString() {
        return identifier + "[" + admission().describe() + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnarKafkaDynamicSink s
                && identifier.equals(s.identifier)
                && flink.equals(s.flink)
                && options.equals(s.options)
                && batching.equals(s.batching);
    }

    @Override
    public int hashCode() {
        return Objects.hash(identifier, flink, options, batching);
    }
}
