package io.columnarkafka.bench.cdc;

import io.columnarkafka.testkit.InputProducer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Fills the CDC benchmark's input topic with {@link OrderChanges}' records as Debezium writes them ({@link
 * DebeziumJson}): one producer ({@link InputProducer}), each record partitioned by Kafka's default partitioner on its
 * key, as Debezium's producer does, so a row's changes are in one partition, in order.
 */
final class CdcTopic {
    /** What was written: records by op (tombstones included) and the bytes of keys and values. */
    record Filled(Map<ChangeEvent.Op, Long> ops, long bytes) {}

    private CdcTopic() {}

    /** Writes {@code records} records of the seed's changelog to the existing topic and waits for every ack. */
    static Filled fill(String bootstrapServers, String topic, long seed, long records) {
        Map<ChangeEvent.Op, Long> ops = new EnumMap<>(ChangeEvent.Op.class);
        long bytes = 0;
        AtomicReference<Exception> failure = new AtomicReference<>();
        OrderChanges changes = new OrderChanges(seed, records);
        try (KafkaProducer<byte[], byte[]> producer = InputProducer.open(bootstrapServers)) {
            for (long i = 0; i < records; i++) {
                ChangeEvent event = changes.next();
                byte[] key = DebeziumJson.key(event);
                byte[] value = DebeziumJson.value(event);
                ops.merge(event.op(), 1L, Long::sum);
                bytes += key.length + (value == null ? 0 : value.length);
                producer.send(new ProducerRecord<>(topic, key, value), (metadata, e) -> failure.compareAndSet(null, e));
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("could not fill " + topic + ": " + failure.get(), failure.get());
        }
        return new Filled(ops, bytes);
    }
}
