package io.columnarkafka.flink.record;

import java.util.List;
import java.util.Optional;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Hands a {@link PreSerializedRecord} to {@code KafkaSink} unchanged, as one {@code ProducerRecord}.
 * The element timestamp Flink passes in is ignored: the record carries its own (or none), as Flink's
 * Kafka table sink does when no {@code timestamp} metadata column is written.
 *
 * <p>It declares the topics it writes ({@link KafkaDatasetFacetProvider}), which the connector's
 * POOLING transaction naming strategy needs to find open transactions; a record for any other topic is
 * rejected rather than written where recovery would not look.
 */
public final class PreSerializedRecordSerializationSchema
        implements KafkaRecordSerializationSchema<PreSerializedRecord>, KafkaDatasetFacetProvider {
    private static final long serialVersionUID = 1L;

    private final List<String> topics;

    /** @param topics every topic the records may name */
    public PreSerializedRecordSerializationSchema(List<String> topics) {
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("at least one topic is required");
        }
        this.topics = List.copyOf(topics);
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            PreSerializedRecord record, KafkaSinkContext context, Long timestamp) {
        if (!topics.contains(record.topic())) {
            throw new IllegalArgumentException(
                    "record for topic '" + record.topic() + "' but the sink declares only " + topics);
        }
        return record.toProducerRecord();
    }

    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return Optional.of(new DefaultKafkaDatasetFacet(DefaultKafkaDatasetIdentifier.ofTopics(topics)));
    }

    public List<String> topics() {
        return topics;
    }
}
