package io.columnarkafka.bench.pipeline;

/** The two Kafka-to-Kafka jobs the pipeline benchmark compares. */
enum PipelineVariant {
    /** ColumnarKafkaSource (JSON decoded into Arrow batches) chained to ColumnarKafkaSink. */
    COLUMNAR("columnar source + columnar sink"),
    /** Flink's KafkaSource with JsonRowDataDeserializationSchema chained to KafkaSink with JsonRowDataSerializationSchema. */
    STOCK("stock KafkaSource + KafkaSink, Flink JSON");

    final String description;

    PipelineVariant(String description) {
        this.description = description;
    }
}
