package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@link SendWindow} against a real broker: a producer configured as the sinks configure theirs (the {@link
 * SendWindowInterceptor} in {@code interceptor.classes}), sent to as fast as a thread can, the way the encode operator
 * hands records to {@code KafkaSink}'s writer.
 */
class SendWindowITCase {
    private static final int RECORDS = 30_000;
    private static final int RECORD_BYTES = 1000;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @Test
    void holdsTheProducersBacklogToWhatTheLinkDrainsAndLosesNothing() {
        String topic = "send-window-bounded";
        KAFKA.broker().createTopic(topic, 2);
        SendWindow window = new SendWindow(TimeUnit.MILLISECONDS.toNanos(5));
        window.barrier(); // one checkpoint barrier passed, the rhythm not yet known: the bound alone applies
        long mostInFlight = 0;
        long mostAllowed = 0;
        AtomicLong acknowledged = new AtomicLong();
        Callback count = (metadata, e) -> {
            if (e == null) {
                acknowledged.incrementAndGet();
            }
        };
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(SendWindowInterceptor.installedIn(producerProperties()))) {
            window.beginSending();
            try {
                for (int i = 0; i < RECORDS; i++) {
                    window.awaitRoom();
                    mostInFlight = Math.max(mostInFlight, window.inFlight());
                    mostAllowed = Math.max(mostAllowed, window.bound());
                    producer.send(new ProducerRecord<>(topic, null, value(i)), count);
                }
            } finally {
                window.endSending();
            }
            producer.flush();
        }
        assertThat(acknowledged.get()).isEqualTo(RECORDS);
        assertThat(window.inFlight()).as("every byte sent was acknowledged").isZero();
        // The bound adapted to the acknowledgement rate, and the backlog never went past it by more than a record.
        assertThat(mostAllowed).isGreaterThan(SendWindow.FLOOR_BYTES);
        assertThat(mostInFlight).isLessThanOrEqualTo(mostAllowed + RECORD_BYTES);
        assertThat(window.waitNanos()).as("the sender was held back").isPositive();
    }

    @Test
    void withoutItTheSameSenderFillsTheProducersBuffer() {
        // The control of the test above: the same producer and sender, no window; the backlog is Kafka's alone.
        String topic = "send-window-unbounded";
        KAFKA.broker().createTopic(topic, 2);
        long mostInFlight = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties())) {
            AtomicLong acknowledgedBytes = new AtomicLong();
            long sent = 0;
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, null, value(i)),
                        (metadata, e) -> acknowledgedBytes.addAndGet(metadata.serializedValueSize()));
                sent += RECORD_BYTES;
                mostInFlight = Math.max(mostInFlight, sent - acknowledgedBytes.get());
            }
            producer.flush();
        }
        assertThat(mostInFlight).isGreaterThan(4L << 20);
    }

    @Test
    void aStalledLinkEndsTheWaitUntilAnAcknowledgementArrives() {
        SendWindow window = new SendWindow(TimeUnit.MILLISECONDS.toNanos(5));
        window.barrier();
        window.sent(4L << 20); // more than the floor, and no producer to acknowledge it
        long start = System.nanoTime();
        window.awaitRoom();
        long waited = System.nanoTime() - start;
        assertThat(waited).isGreaterThanOrEqualTo(SendWindow.STALL_NANOS).isLessThan(TimeUnit.SECONDS.toNanos(30));
        long afterStall = window.waitNanos();
        assertThat(afterStall).isGreaterThanOrEqualTo(SendWindow.STALL_NANOS);
        // Still stalled: the next records go on without waiting, as they would to the producer without a window.
        window.sent(1000);
        window.awaitRoom();
        assertThat(window.waitNanos()).isEqualTo(afterStall);
        // An acknowledgement (not enough to bring the backlog under the bound) ends the stall: bounding resumes.
        window.acknowledged(new RecordMetadata(new TopicPartition("t", 0), 0, 0, 0, -1, 1000), null);
        window.awaitRoom();
        assertThat(window.waitNanos()).isGreaterThanOrEqualTo(afterStall + SendWindow.STALL_NANOS);
    }

    @Test
    void aFailedRecordEndsTheBounding() {
        SendWindow window = new SendWindow(TimeUnit.MILLISECONDS.toNanos(5));
        window.barrier();
        window.sent(4L << 20);
        // As Kafka's producer reports a failed record: no sizes, an exception.
        window.acknowledged(new RecordMetadata(new TopicPartition("t", 0), -1, -1, -1, -1, -1),
                new IllegalStateException("broker gone"));
        window.awaitRoom();
        assertThat(window.waitNanos()).isZero();
    }

    @Test
    void theUsersInterceptorsKeepRunningFirst() {
        Properties listed = new Properties();
        listed.setProperty(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, "com.example.A, com.example.B");
        assertThat(SendWindowInterceptor.installedIn(listed).get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG))
                .isEqualTo("com.example.A,com.example.B," + SendWindowInterceptor.class.getName());
        Properties classes = new Properties();
        classes.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, List.of(Mine.class));
        assertThat(SendWindowInterceptor.installedIn(classes).get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG))
                .isEqualTo(Mine.class.getName() + "," + SendWindowInterceptor.class.getName());
        assertThat(SendWindowInterceptor.installedIn(new Properties()).get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG))
                .isEqualTo(SendWindowInterceptor.class.getName());
        assertThat(classes.get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG)).as("the given properties are unchanged")
                .isEqualTo(List.of(Mine.class));
    }

    private static Properties producerProperties() {
        Properties properties = new Properties();
        properties.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.broker().bootstrapServers());
        properties.setProperty(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.setProperty(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        return properties;
    }

    private static byte[] value(int i) {
        byte[] value = new byte[RECORD_BYTES];
        for (int b = 0; b < value.length; b++) {
            value[b] = (byte) ('a' + (i + b) % 26);
        }
        return value;
    }

    /** A user's interceptor, given as a class. */
    public static final class Mine implements ProducerInterceptor<byte[], byte[]> {
        @Override
        public ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> record) {
            return record;
        }

        @Override
        public void onAcknowledgement(RecordMetadata metadata, Exception exception) {}

        @Override
        public void close() {}

        @Override
        public void configure(java.util.Map<String, ?> configs) {}
    }
}
