package io.columnarkafka.flink.table;

import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicTableFactory;

/** {@code 'connector' = 'kafka-columnar'}: Flink's {@code kafka} sink, columnar where admitted. */
public final class KafkaColumnarTableFactory extends ColumnarKafkaTableFactories {
    public static final String IDENTIFIER = "kafka-columnar";

    public KafkaColumnarTableFactory() {
        super(new KafkaDynamicTableFactory());
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }
}
