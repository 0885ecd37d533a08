package io.columnarkafka.flink.sink;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A model of the link from a sink's producer to its broker, for links this machine's broker cannot be (no {@code
 * tc}, no remote host): one thread carries the sent bytes serially at a set bandwidth and acknowledges each record
 * a set round trip after it went out, as Kafka's producer reports acknowledgements to the {@link SendWindow}.
 */
final class ModelLink {
    /** Called on the sending thread before each record, the way the operator's loop runs between records. */
    interface BeforeRecord {
        void before(long record);
    }

    /** Records per batch the sender hands on, as the operators hand on a batch's records. */
    private static final int BATCH_RECORDS = 100;

    private final double bytesPerSecond;
    private final long roundTripNanos;

    ModelLink(double bytesPerSecond, long roundTripNanos) {
        this.bytesPerSecond = bytesPerSecond;
        this.roundTripNanos = roundTripNanos;
    }

    /** The seconds the link alone needs for {@code bytes}: serial time plus one round trip. */
    double idealSeconds(long bytes) {
        return bytes / bytesPerSecond + roundTripNanos / 1e9;
    }

    /**
     * Sends {@code records} of {@code recordBytes} through the link as fast as the window lets; the seconds until
     * the last acknowledgement.
     */
    double send(SendWindow window, long records, int recordBytes, BeforeRecord beforeRecord)
            throws InterruptedException {
        ConcurrentLinkedQueue<Long> sendTimes = new ConcurrentLinkedQueue<>();
        RecordMetadata acknowledgement = new RecordMetadata(new TopicPartition("t", 0), 0, 0, 0, -1, recordBytes);
        long start = System.nanoTime();
        Thread link = new Thread(() -> {
            double linkFree = start;
            double nanosPerRecord = recordBytes / bytesPerSecond * 1e9;
            ArrayDeque<Long> ackTimes = new ArrayDeque<>();
            for (long acked = 0; acked < records; ) {
                for (Long sentAt; (sentAt = sendTimes.poll()) != null; ) {
                    linkFree = Math.max(linkFree, sentAt) + nanosPerRecord;
                    ackTimes.add((long) linkFree + roundTripNanos);
                }
                long now = System.nanoTime();
                while (!ackTimes.isEmpty() && ackTimes.peek() <= now) {
                    ackTimes.poll();
                    window.acknowledged(acknowledgement, null);
                    acked++;
                }
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(20));
            }
        }, "model-link");
        link.start();
        for (long i = 0; i < records; i++) {
            beforeRecord.before(i);
            if (i % BATCH_RECORDS == 0) {
                window.beginSending(); // as the operators do per batch
            }
            window.awaitRoom();
            window.sent(recordBytes); // what the interceptor counts when the producer takes the record
            sendTimes.add(System.nanoTime());
        }
        window.endSending();
        link.join();
        return (System.nanoTime() - start) / 1e9;
    }
}
