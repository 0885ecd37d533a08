package io.columnarkafka.testkit.nexmark;

import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.testkit.InputProducer;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Fills a Kafka topic with Nexmark events as the values of the suite's Kafka table in Flink's {@code json}
 * format, encoded a batch at a time by {@link NexmarkJson} ({@code NexmarkJsonTest} proves the bytes equal
 * Flink's {@code JsonRowDataSerializationSchema}'s). Records have no key.
 *
 * <p>Event {@code i} goes to partition {@code (i / 1000) mod partitions}: blocks of 1000 consecutive
 * events (100 ms of event time at the default rate), so events with the same timestamp share a partition
 * and keep their order, and a query's result does not depend on how the partitions' reads interleave.
 */
public final class NexmarkTopic {
    /** Events per partition block. */
    public static final int BLOCK = 1000;
    private static final int BATCH = 4 * BLOCK;

    private NexmarkTopic() {}

    /** The partition of event {@code eventId}. */
    public static int partitionOf(long eventId, int partitions) {
        return (int) (eventId / BLOCK % partitions);
    }

    /**
     * Writes events {@code 0 .. events-1} to the existing topic and waits until every record is
     * acknowledged; returns the bytes of all values.
     */
    public static long fill(String bootstrapServers, String topic, int partitions, NexmarkGenerator generator,
                            long events) {
        return fill(bootstrapServers, topic, partitions, generator, events, eventId -> {});
    }

    /**
     * Like {@link #fill(String, String, int, NexmarkGenerator, long)}, calling {@code beforeSend} with each event's
     * id before it is sent: a fixed-rate run blocks there until the event is due, so the topic fills live.
     */
    public static long fill(String bootstrapServers, String topic, int partitions, NexmarkGenerator generator,
                            long events, LongConsumer beforeSend) {
        long bytes = 0;
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (NexmarkJson json = new NexmarkJson(generator);
             KafkaProducer<byte[], byte[]> producer = InputProducer.open(bootstrapServers)) {
            for (long from = 0; from < events; from += BATCH) {
                int n = (int) Math.min(BATCH, events - from);
                RecordSlab slab = json.encode(from, n);
                for (int r = 0; r < n; r++) {
                    beforeSend.accept(from + r);
                    byte[] value = slab.copyRecord(r);
                    bytes += value.length;
                    producer.send(new ProducerRecord<>(topic, partitionOf(from + r, partitions), null, value),
                            (metadata, e) -> failure.compareAndSet(null, e));
                }
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("could not fill " + topic + ": " + failure.get(), failure.get());
        }
        return bytes;
    }
}
