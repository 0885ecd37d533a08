package io.columnarkafka.client;

import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Creates the sink's Kafka producers from its settings: bytes in, the guarantee's settings forced. */
final class Producers {
    private Producers() {}

    /** A producer for NONE or AT_LEAST_ONCE (acks=all unless set), or a transactional one when {@code transactionalId} is set. */
    static KafkaProducer<byte[], byte[]> create(SinkSettings settings, String transactionalId) {
        Properties properties = new Properties();
        properties.putAll(settings.producerProperties);
        if (settings.deliveryGuarantee != DeliveryGuarantee.NONE) {
            properties.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        }
        if (settings.partitioner == SinkSettings.PartitionerKind.CUSTOM) {
            properties.setProperty(ProducerConfig.PARTITIONER_CLASS_CONFIG, settings.partitionerClass);
        }
        if (transactionalId != null) {
            properties.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            properties.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        }
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
