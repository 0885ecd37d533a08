package io.columnarkafka.flink.table;

import org.apache.flink.streaming.connectors.kafka.table.UpsertKafkaDynamicTableFactory;

/** {@code 'connector' = 'upsert-kafka-columnar'}: Flink's {@code upsert-kafka} sink, columnar where admitted. */
public final class UpsertKafkaColumnarTableFactory extends ColumnarKafkaTableFactories {
    public static final String IDENTIFIER = "upsert-kafka-columnar";

    public UpsertKafkaColumnarTableFactory() {
        super(new UpsertKafkaDynamicTableFactory());
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }
}
