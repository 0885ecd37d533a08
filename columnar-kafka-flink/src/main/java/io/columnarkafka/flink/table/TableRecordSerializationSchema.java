package io.columnarkafka.flink.table;

import io.columnarkafka.flink.record.PreSerializedRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Hands the SQL path's pre-serialized records to {@code KafkaSink}, choosing the partition where Flink's
 * table sink would: in the serializer, with the sink subtask's index and the topic's partitions from the
 * {@code KafkaSinkContext}. Only Flink's {@code fixed} partitioner is admitted (it ignores the row, which
 * this path no longer has); without a partitioner Kafka's producer decides, as in Flink.
 *
 * <p>Declares its topics or pattern ({@link KafkaDatasetFacetProvider}), which the POOLING transaction
 * naming strategy needs.
 */
final class TableRecordSerializationSchema
        implements org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema<PreSerializedRecord>,
                KafkaDatasetFacetProvider {
    private static final long serialVersionUID = 1L;

    private final List<String> topics;
    private final Pattern topicPattern;
    private final KafkaPartitioner<RowData> partitioner;

    TableRecordSerializationSchema(List<String> topics, Pattern topicPattern, KafkaPartitioner<RowData> partitioner) {
        this.topics = topics == null ? null : new ArrayList<>(topics);
        this.topicPattern = topicPattern;
        this.partitioner = partitioner;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
        if (partitioner != null) {
            partitioner.open(sinkContext.getParallelInstanceId(), sinkContext.getNumberOfParallelInstances());
        }
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(PreSerializedRecord record, KafkaSinkContext context, Long timestamp) {
        if (partitioner == null) {
            return record.toProducerRecord();
        }
        String topic = record.topic();
        int partition = partitioner.partition(
                null, record.key(), record.value(), topic, context.getPartitionsForTopic(topic));
        return new ProducerRecord<>(
                topic, partition, record.timestamp(), record.key(), record.value(), record.headers());
    }

    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return Optional.of(new DefaultKafkaDatasetFacet(topics != null
                ? DefaultKafkaDatasetIdentifier.ofTopics(topics)
                : DefaultKafkaDatasetIdentifier.ofPattern(topicPattern)));
    }
}
