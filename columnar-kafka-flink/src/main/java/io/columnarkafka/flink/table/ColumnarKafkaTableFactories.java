package io.columnarkafka.flink.table;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * Shared body of the two factories: every Kafka option is validated and the sink is built by Flink's own
 * factory (same keys, defaults, validation and messages); this adds only the {@code columnar.} batching
 * options and wraps the result in a {@link ColumnarKafkaDynamicSink}.
 */
abstract class ColumnarKafkaTableFactories implements DynamicTableSinkFactory {
    private final DynamicTableSinkFactory flink;

    ColumnarKafkaTableFactories(DynamicTableSinkFactory flink) {
        this.flink = flink;
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
        ResolvedCatalogTable kafkaTable = context.getCatalogTable().copy(kafkaOptions);
        DynamicTableFactory.Context kafkaContext = new FactoryUtil.DefaultDynamicTableContext(
                context.getObjectIdentifier(),
                kafkaTable,
                context.getEnrichmentOptions(),
                context.getConfiguration(),
                context.getClassLoader(),
                context.isTemporary());
        DynamicTableSink sink = flink.createDynamicTableSink(kafkaContext);
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
}
