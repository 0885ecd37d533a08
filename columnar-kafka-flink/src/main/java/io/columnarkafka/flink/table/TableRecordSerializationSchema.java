package io.columnarkafka.flink.table;

import io.columnarkafka.flink.record.PreSerializedRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;
import org.apache.flink.connector.kafka.lineage.DefaultTypeDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacet;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Hands the SQL path's pre-serialized records to {@code KafkaSink}, choosing the partition where and as
 * Flink's table sink does ({@code DynamicKafkaRecordSerializationSchema}): in the serializer, the
 * partitioner opened with the sink subtask's index and parallelism and called with the consumed row, the
 * serialized key and value (null for a tombstone), the topic and the topic's partitions from the {@code
 * KafkaSinkContext} (the producer's metadata). The row travels with the record only for a partitioner
 * that may read it ({@link EncodedRecords#WITH_ROWS}); Flink's {@code fixed} gets null. Without a
 * partitioner Kafka's producer decides, as in Flink.
 *
 * <p>Declares its topics or pattern ({@link KafkaDatasetFacetProvider}), which the POOLING transaction
 * naming strategy needs, and, for the job's lineage, the type Flink's table sink declares ({@link
 * TypeDatasetFacetProvider}): its value format's {@code SerializationSchema<RowData>}'s type parameter, {@code
 * RowData}, as none of Flink's formats' schemas declares a produced type.
 */
final class TableRecordSerializationSchema<T>
        implements org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema<T>, KafkaDatasetFacetProvider,
        TypeDatasetFacetProvider {
    private static final long serialVersionUID = 1L;

    private final List<String> topics;
    private final Pattern topicPattern;
    private final KafkaPartitioner<RowData> partitioner;
    private final EncodedRecords<?, T> elements;

    TableRecordSerializationSchema(List<String> topics, Pattern topicPattern, KafkaPartitioner<RowData> partitioner,
            EncodedRecords<?, T> elements) {
        this.topics = topics == null ? null : new ArrayList<>(topics);
        this.topicPattern = topicPattern;
        this.partitioner = partitioner;
        this.elements = elements;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
        if (partitioner != null) {
            partitioner.open(sinkContext.getParallelInstanceId(), sinkContext.getNumberOfParallelInstances());
        }
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(T element, KafkaSinkContext context, Long timestamp) {
        PreSerializedRecord record = elements.record(element);
        if (partitioner == null) {
            return record.toProducerRecord();
        }
        String topic = record.topic();
        int partition = partitioner.partition(
                elements.row(element), record.key(), record.value(), topic, context.getPartitionsForTopic(topic));
        return record.toProducerRecord(partition);
    }

    @Override
    public Optional<TypeDatasetFacet> getTypeDatasetFacet() {
        return Optional.of(new DefaultTypeDatasetFacet(TypeInformation.of(RowData.class)));
    }

    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return Optional.of(new DefaultKafkaDatasetFacet(topics != null
                ? DefaultKafkaDatasetIdentifier.ofTopics(topics)
                : DefaultKafkaDatasetIdentifier.ofPattern(topicPattern)));
    }
}
