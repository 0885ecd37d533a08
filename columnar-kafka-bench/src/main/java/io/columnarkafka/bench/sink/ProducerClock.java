package io.columnarkafka.bench.sink;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A producer interceptor (installed in every variant through {@code interceptor.classes}) that stamps
 * the first record handed to any producer of this JVM and the last record acknowledged, so a run's
 * active window (first record to last) excludes job deployment and the final commit.
 *
 * <p>The stamps are static because Kafka instantiates interceptors itself; a Flink MiniCluster job
 * submitted without jars resolves this class from the application class loader, so the job's producers
 * and the benchmark share one copy. Cost per record: one volatile read on send, one clock read and one
 * striped max on acknowledgement (on the producer's I/O thread).
 */
public final class ProducerClock implements ProducerInterceptor<byte[], byte[]> {
    private static final AtomicLong FIRST_SEND = new AtomicLong();
    private static final LongAccumulator LAST_ACK = new LongAccumulator(Math::max, 0);

    /** Forgets the stamps of an earlier run. */
    static void reset() {
        FIRST_SEND.set(0);
        LAST_ACK.reset();
    }

    /** {@code System.nanoTime()} of the first record sent, or 0 if none was. */
    static long firstSendNanos() {
        return FIRST_SEND.get();
    }

    /** {@code System.nanoTime()} of the last acknowledgement, or 0 if none arrived. */
    static long lastAckNanos() {
        return LAST_ACK.get();
    }

    @Override
    public ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> record) {
        if (FIRST_SEND.get() == 0) {
            FIRST_SEND.compareAndSet(0, System.nanoTime());
        }
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        if (exception == null) {
            LAST_ACK.accumulate(System.nanoTime());
        }
    }

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {}
}
