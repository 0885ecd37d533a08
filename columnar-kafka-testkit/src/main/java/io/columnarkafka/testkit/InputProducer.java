package io.columnarkafka.testkit;

import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The producer that fills a benchmark's input topic before any job reads it: acks from all replicas and idempotent
 * (each record written once, in order per partition), 10 ms linger and 256 KiB batches (the fill is not what is
 * measured, so it goes as fast as the broker takes it).
 */
public final class InputProducer {
    private InputProducer() {}

    public static KafkaProducer<byte[], byte[]> open(String bootstrapServers) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "10");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
