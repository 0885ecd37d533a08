package io.columnarkafka.bench.pipeline;

/** The Kafka-to-Kafka jobs the pipeline benchmark compares. */
enum PipelineVariant {
    /** ColumnarKafkaSource (JSON decoded into Arrow batches) chained to ColumnarKafkaSink. */
    COLUMNAR("columnar source + columnar sink"),
    /** Flink's KafkaSource with JsonRowDataDeserializationSchema chained to KafkaSink with JsonRowDataSerializationSchema. */
    STOCK("stock KafkaSource + KafkaSink, Flink JSON"),
    /**
     * No codec: Flink's KafkaSource handing each value's bytes as they are to KafkaSink, which writes them
     * as they are. Its cost is what Kafka's clients and Flink's runtime cost every codec in this job.
     */
    FLOOR("stock KafkaSource + KafkaSink, value bytes passed through (no codec)");

    final String description;

    PipelineVariant(String description) {
        this.description = description;
    }
}
