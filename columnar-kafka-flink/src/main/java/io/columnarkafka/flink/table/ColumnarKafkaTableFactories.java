package io.columnarkafka.flink.table;

import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shared body of the two factories: every Kafka option is validated and the sink or source is built by
 * Flink's own factory (same keys, defaults, validation and messages); this adds only the {@code columnar.}
 * batching options (the sink's, and the scan's {@code columnar.scan.}) and wraps the result: a sink in a {@link ColumnarKafkaDynamicSink}; a source in a {@link
 * FallbackKafkaSource} when its table falls back for every query ({@link ScanAdmissionMatcher#tableFallback}),
 * else in a {@link ColumnarKafkaDynamicSource}, which decides on the columns each query reads.
 */
abstract class ColumnarKafkaTableFactories implements DynamicTableSinkFactory, DynamicTableSourceFactory {
    private static final Logger LOG = LoggerFactory.getLogger(ColumnarKafkaTableFactories.class);

    private final DynamicTableSinkFactory flink;
    private final DynamicTableSourceFactory flinkSources;

    <F extends DynamicTableSinkFactory & DynamicTableSourceFactory> ColumnarKafkaTableFactories(F flink) {
        this.flink = flink;
        this.flinkSources = flink;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return flink.requiredOptions();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>(flink.optionalOptions());
        options.add(ColumnarOptions.BATCH_SIZE);
        options.add(ColumnarOptions.MAX_LATENCY);
        options.add(ColumnarOptions.SINK_MAX_QUEUE_DELAY);
        options.add(ColumnarOptions.SCAN_MAX_BATCH_ROWS);
        options.add(ColumnarOptions.SCAN_MAX_BATCH_TIME);
        options.add(ColumnarOptions.SCAN_MAX_BATCH_BYTES);
        return options;
    }

    @Override
    public Set<ConfigOption<?>> forwardOptions() {
        return flink.forwardOptions();
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        Map<String, String> tableOptions = context.getCatalogTable().getOptions();
        ColumnarOptions.Settings batching = ColumnarOptions.read(factoryIdentifier(), tableOptions);
        Map<String, String> kafkaOptions = ColumnarOptions.withoutColumnar(tableOptions);
        PlannerStageHook.installIfEnabled(context.getConfiguration());
        DynamicTableSink sink = flink.createDynamicTableSink(kafkaContext(context, kafkaOptions));
        if (!(sink instanceof KafkaDynamicSink kafkaSink)) {
            throw new IllegalStateException(
                    "Flink's " + flink.factoryIdentifier() + " factory built an unexpected sink: " + sink.getClass());
        }
        return new ColumnarKafkaDynamicSink(
                factoryIdentifier(),
                context.getObjectIdentifier().asSummaryString(),
                kafkaSink,
                kafkaOptions,
                batching);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        PlannerStageHook.installIfEnabled(context.getConfiguration());
        Map<String, String> tableOptions = context.getCatalogTable().getOptions();
        ColumnarOptions.read(factoryIdentifier(), tableOptions); // validated as for the sink; batching only
        ColumnarOptions.ScanSettings batching = ColumnarOptions.readScan(factoryIdentifier(), tableOptions);
        Map<String, String> kafkaOptions = ColumnarOptions.withoutColumnar(tableOptions);
        DynamicTableSource source = flinkSources.createDynamicTableSource(kafkaContext(context, kafkaOptions));
        if (!(source instanceof KafkaDynamicSource kafkaSource)) {
            throw new IllegalStateException(
                    "Flink's " + flink.factoryIdentifier() + " factory built an unexpected source: " + source.getClass());
        }
        String table = context.getObjectIdentifier().asSummaryString();
        KafkaScanShape shape;
        Admission fallback;
        try {
            shape = KafkaScanShape.of(kafkaSource, kafkaOptions, context.getCatalogTable().getResolvedSchema());
            Optional<String> unreadable = FlinkKafkaScan.unreadable(); // read when the job is translated
            fallback = unreadable.isPresent()
                    ? Admission.fallback(FallbackReason.UNSUPPORTED_CONNECTOR, unreadable.get())
                    : ScanAdmissionMatcher.tableFallback(shape);
        } catch (IllegalStateException e) {
            shape = null;
            fallback = Admission.fallback(FallbackReason.UNSUPPORTED_CONNECTOR, e.getMessage());
        }
        if (fallback != null) {
            LOG.info("{} scan of table {}: {}", factoryIdentifier(), table, fallback.describe());
            return new FallbackKafkaSource(factoryIdentifier(), kafkaSource, fallback);
        }
        return ColumnarKafkaDynamicSource.of(factoryIdentifier(), table, kafkaSource, shape, batching);
    }

    /** The factory context with the table's options replaced by {@code kafkaOptions}. */
    private static DynamicTableFactory.Context kafkaContext(Context context, Map<String, String> kafkaOptions) {
        ResolvedCatalogTable kafkaTable = context.getCatalogTable().copy(kafkaOptions);
        return new FactoryUtil.DefaultDynamicTableContext(
                context.getObjectIdentifier(),
                kafkaTable,
                context.getEnrichmentOptions(),
                context.getConfiguration(),
                context.getClassLoader(),
                context.isTemporary());
    }
}
