package io.columnarkafka.flink.sink;

import java.util.ArrayDeque;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A model of the link from a sink's producer to its broker, for links this machine's broker cannot be (no {@code
 * tc}, no remote host), in simulated time: the link carries the sent bytes serially at a set bandwidth and
 * acknowledges each record a set round trip after it went out, as Kafka's producer reports acknowledgements to the
 * {@link SendWindow}; the sender takes a set time per record. As the {@link SendClock} of the window under test,
 * it moves time on while the window waits, delivering the acknowledgements due meanwhile; so a run is the same on
 * every machine, however busy, and takes a fraction of the seconds it models.
 */
final class ModelLink implements SendClock {
    /** Called before each record, the way the operator's loop runs between records. */
    interface BeforeRecord {
        void before(long record);
    }

    /** Records per batch the sender hands on, as the operators hand on a batch's records. */
    private static final int BATCH_RECORDS = 100;

    private final double bytesPerSecond;
    private final long roundTripNanos;
    private final long sendNanosPerRecord;
    /** When each record sent and not yet acknowledged will be, in order. */
    private final ArrayDeque<Long> acknowledgements = new ArrayDeque<>();
    private SendWindow window;
    private RecordMetadata acknowledgement;
    private long now;
    private double linkFree;

    /** @param sendNanosPerRecord the sender's own time per record (the encoder's, faster than the link) */
    ModelLink(double bytesPerSecond, long roundTripNanos, long sendNanosPerRecord) {
        this.bytesPerSecond = bytesPerSecond;
        this.roundTripNanos = roundTripNanos;
        this.sendNanosPerRecord = sendNanosPerRecord;
    }

    /** A window on this link's time. */
    SendWindow window(long maxQueueDelayNanos) {
        window = new SendWindow(maxQueueDelayNanos, this);
        return window;
    }

    /** The seconds the link alone needs for {@code bytes}: serial time plus one round trip. */
    double idealSeconds(long bytes) {
        return bytes / bytesPerSecond + roundTripNanos / 1e9;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /** The window waits: time moves on to the next acknowledgement, or by {@code nanos} if none comes sooner. */
    @Override
    public void park(Object blocker, long nanos) {
        Long next = acknowledgements.peek();
        advanceTo(next == null ? now + nanos : Math.min(now + nanos, next));
    }

    /**
     * Sends {@code records} of {@code recordBytes} through the link as fast as the window lets; the seconds until
     * the last acknowledgement.
     */
    double send(long records, int recordBytes, BeforeRecord beforeRecord) {
        acknowledgement = new RecordMetadata(new TopicPartition("t", 0), 0, 0, 0, -1, recordBytes);
        double nanosPerRecord = recordBytes / bytesPerSecond * 1e9;
        long start = now;
        for (long i = 0; i < records; i++) {
            beforeRecord.before(i);
            if (i % BATCH_RECORDS == 0) {
                window.beginSending(); // as the operators do per batch
            }
            window.awaitRoom();
            window.sent(recordBytes); // what the interceptor counts when the producer takes the record
            linkFree = Math.max(linkFree, now) + nanosPerRecord;
            acknowledgements.add((long) linkFree + roundTripNanos);
            advanceTo(now + sendNanosPerRecord);
        }
        window.endSending();
        while (!acknowledgements.isEmpty()) {
            advanceTo(acknowledgements.peek());
        }
        return (now - start) / 1e9;
    }

    /** The sender stops for {@code nanos} (a pause of its thread); the link carries on. */
    void pauseSender(long nanos) {
        advanceTo(now + nanos);
    }

    /** Moves time to {@code time}, acknowledging each record due by then at its own time. */
    private void advanceTo(long time) {
        while (!acknowledgements.isEmpty() && acknowledgements.peek() <= time) {
            now = Math.max(now, acknowledgements.poll());
            window.acknowledged(acknowledgement, null);
        }
        now = Math.max(now, time);
    }
}
