package io.columnarkafka.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes test input and fails unless the broker acknowledged every record. {@code KafkaProducer.flush()} alone
 * returns once each send has completed, failed ones included, so a test that only flushed could read a topic
 * missing records and blame the job under test.
 */
final class AcknowledgedWrites {
    private AcknowledgedWrites() {}

    /**
     * Sends {@code records} with a producer configured by {@code clientProperties} plus {@code producerConfigs},
     * then waits for each acknowledgement.
     *
     * @throws IllegalStateException naming the first record (index, topic, partition) the broker did not acknowledge
     */
    static void send(Properties clientProperties, Map<String, String> producerConfigs,
            List<ProducerRecord<byte[], byte[]>> records) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.putAll(producerConfigs);
        List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ProducerRecord<byte[], byte[]> record : records) {
                acks.add(producer.send(record));
            }
            producer.flush();
            for (int i = 0; i < acks.size(); i++) {
                await(acks.get(i), i, records);
            }
        }
    }

    private static void await(Future<RecordMetadata> ack, int index, List<ProducerRecord<byte[], byte[]>> records) {
        try {
            ack.get();
        } catch (ExecutionException e) {
            ProducerRecord<byte[], byte[]> record = records.get(index);
            throw new IllegalStateException("record " + index + " of " + records.size() + " to " + record.topic()
                    + " partition " + record.partition() + " was not acknowledged: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the acknowledgement of record " + index, e);
        }
    }
}
