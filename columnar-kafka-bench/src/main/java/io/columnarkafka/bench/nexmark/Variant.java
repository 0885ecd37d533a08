package io.columnarkafka.bench.nexmark;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * Which connectors a cell reads and writes through. Stock: Flink's {@code kafka} and {@code upsert-kafka}.
 * Columnar: {@code kafka-columnar} / {@code upsert-kafka-columnar} sinks, and the {@code kafka-columnar}
 * source once a source factory of that name is on the classpath (until then the cell reads through
 * {@code kafka}, and the report says so). Floor ({@code --floor on}, stateless queries only): no SQL, stock's
 * output values looked up per input record and written through Flink's Kafka source and sink ({@link FloorJob}).
 */
enum Variant {
    STOCK("kafka", "kafka", "upsert-kafka"),
    COLUMNAR(columnarSource(), "kafka-columnar", "upsert-kafka-columnar"),
    FLOOR("kafka", "kafka", "upsert-kafka");

    final String source;
    final String appendSink;
    final String upsertSink;

    Variant(String source, String appendSink, String upsertSink) {
        this.source = source;
        this.appendSink = appendSink;
        this.upsertSink = upsertSink;
    }

    String sink(NexmarkQuery query) {
        return query.upsert() ? upsertSink : appendSink;
    }

    String letter() {
        return switch (this) {
            case STOCK -> "s";
            case COLUMNAR -> "c";
            case FLOOR -> "f";
        };
    }

    private static String columnarSource() {
        try {
            FactoryUtil.discoverFactory(Variant.class.getClassLoader(), DynamicTableSourceFactory.class,
                    "kafka-columnar");
            return "kafka-columnar";
        } catch (ValidationException noColumnarSource) {
            return "kafka";
        }
    }
}
