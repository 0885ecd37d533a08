package io.columnarkafka.flink.sink;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Bounds the bytes one sink subtask has handed Kafka's producer and not yet had acknowledged, so that an
 * exactly-once (or at-least-once) checkpoint, whose writer flushes the producer, waits for the link's round trip
 * plus a short queue rather than for a full {@code buffer.memory} (32 MiB by default) of backlog.
 *
 * <p>Why: the columnar encoder hands records to the producer faster than a broker sharing the machine acknowledges
 * them, so without a bound the producer's buffer fills and every checkpoint drains it. Flink's own serializers are
 * slower than the link, so stock Flink's producer holds almost nothing and its checkpoints are short.
 *
 * <p>The bound adapts to the link, never capping its rate: {@code rate × (base + max(queue delay, base))}, where
 * {@code rate} is the highest acknowledgement rate of a 20 ms window in the last one to two seconds and {@code
 * base} the shortest send-to-acknowledgement time of the last five to ten (the round trip with an empty queue;
 * every checkpoint's flush empties it). What is in flight is thus at least what the link carries in a round trip,
 * and the queue on top of it at most the larger of the configured delay and one round trip. The highest rate, not
 * the last: while the bound holds the sender back, the last window's rate is the bound's own, and a bound that
 * followed it would shrink whenever the broker's latency under load rose above the delay. For the same reason the
 * rate rule alone grows slowly from a small bound on a long link; so a window in which the sender was held back
 * while the latest send-to-acknowledgement time stayed within half the delay of the base (the link queued nothing:
 * the bound, not the link, set the rate) at least doubles the bound, as TCP's slow start. A subtask that has not
 * had acknowledgements yet starts at {@link #FLOOR_BYTES}.
 *
 * <p>The bound is what may be left at a checkpoint barrier, whose flush waits for it; between barriers the backlog
 * may be larger. From the second barrier on, the window expects the next one after the shorter of the last two
 * gaps (at the second, after the one gap) and lets {@code rate × (time left until a tenth of a gap before it)} more
 * be in flight: far from a barrier the producer's own buffer applies, and as the barrier nears the allowance
 * shrinks at the link's rate, so the backlog drains to the bound just in time. Waits then gather before the
 * barriers instead of stalling every run of records, which cost a sink sharing its task with an aggregate a fifth
 * of its rate (docs/nexmark.md). Closer still, for twice the time the link takes to drain a full bound on either
 * side of the expected barrier (the settling stretch), only a round trip's worth ({@code rate × base}, at least
 * {@link #FLOOR_BYTES}) may be in flight: the link stays busy (that much is what it carries in a round trip) while
 * the queue on top of it, which a flush would wait for, is gone; so a barrier on time is flushed in about a round
 * trip. Before the first barrier nothing is bounded (a job without checkpoints, such as a bounded one in batch
 * mode, has no flush to shorten); between the first and the second, between the lead and the settling stretch, and
 * once a barrier is later than the stretch, the bound alone applies.
 *
 * <p>Threads: the task thread sends ({@link #awaitRoom}, {@link #sent}); the producers' I/O threads acknowledge
 * ({@link #acknowledged}). Waiting is bounded: when no acknowledgement arrives for {@link #STALL_NANOS}, records go
 * on to the producer unbounded until one does, and after one failed for good; the producer's own buffer and
 * timeouts then apply as without the bound.
 */
public final class SendWindow {
    /**
     * The sinks' default, measured in the Nexmark matrix (docs/nexmark.md): checkpoint p50 near stock's at full
     * speed, no rate lost beyond the runs' noise, stateless or behind an aggregate.
     */
    public static final Duration DEFAULT_MAX_QUEUE_DELAY = Duration.ofMillis(10);
    /** The bound before any acknowledgement rate is known, and its least value. */
    public static final long FLOOR_BYTES = 64 << 10;
    /** A send-time mark every this many bytes: the samples of the send-to-acknowledgement time. */
    private static final long MARK_BYTES = 16 << 10;
    private static final int MARKS = 1024;
    /** The shortest acknowledgement-rate window (it is at least one base round trip). */
    private static final long RATE_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** The base time is the least of the samples of the current and the previous period of this length. */
    private static final long BASE_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** The rate is the highest window's of the current and the previous period of this length. */
    private static final long RATE_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A wait ends when no acknowledgement arrived for this long. */
    static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** The backlog is down to the bound this fraction of a barrier gap before the next barrier is expected. */
    private static final int LEAD_DIVISOR = 10;
    /**
     * Around the expected barrier, this many times the time the link takes to drain a full bound: the settling
     * stretch, in which only a round trip's worth may be in flight.
     */
    private static final int SETTLE_BOUNDS = 2;

    private static final ThreadLocal<SendWindow> SENDING = new ThreadLocal<>();

    private final long maxQueueDelayNanos;
    private final SendClock clock;

    // Task thread only.
    private long sent;
    private long nextMark;
    private volatile long waitNanos;
    /**
     * The acknowledged bytes when a wait last ended without acknowledgements (-1 before any): no wait starts while
     * they are still the acknowledged bytes.
     */
    private long stalledAt = -1;
    /** When the last barrier passed, and the gap before it (0 before two barriers). */
    private long lastBarrierNanos;
    private long lastGapNanos;
    private boolean barrierSeen;
    /** When the next barrier is expected, and until when the backlog may exceed the bound; once a gap is known. */
    private long expectedBarrierNanos;
    private long drainByNanos;
    /**
     * What may be in flight above the bound (below it while settling: negative), set at each barrier, batch ({@link
     * #beginSending}) and wait rather than read off the clock per record: within a batch it shrinks by a batch's time
     * at the link's rate. Unbounded before the first barrier.
     */
    private long allowance = Long.MAX_VALUE;

    private final AtomicLong acked = new AtomicLong();
    private volatile long bound = FLOOR_BYTES;
    /** The acknowledgement rate the bound was last set from, in bytes per nanosecond, and the base round trip. */
    private volatile double rate;
    private volatile long baseNanos;
    private volatile boolean failed;
    /** The bytes sent up to the oldest mark not yet passed by the acknowledgements; MAX_VALUE for none. */
    private volatile long oldestMark = Long.MAX_VALUE;
    /** The waiting task thread, woken when the acknowledged bytes reach {@link #resumeAt}. */
    private volatile Thread waiter;
    private volatile long resumeAt = Long.MAX_VALUE;

    // Guarded by this: the marks (a ring) and the estimates.
    private final long[] markBytes = new long[MARKS];
    private final long[] markNanos = new long[MARKS];
    private int markHead;
    private int markCount;
    private long rateStartNanos;
    private long rateStartAcked;
    private long basePeriodStart;
    private long baseCurrent = Long.MAX_VALUE;
    private long basePrevious = Long.MAX_VALUE;
    private long ratePeriodStart;
    private double rateCurrent;
    private double ratePrevious;
    private long lastLatency;
    private long waitAtRateStart;

    /**
     * The queue delay a sink with this delivery guarantee runs its window with: 0 (no window) for {@link
     * DeliveryGuarantee#NONE}, whose writer does not flush at checkpoints, so there is no flush to shorten.
     */
    public static long queueDelayNanos(long maxQueueDelayNanos, DeliveryGuarantee guarantee) {
        return guarantee == DeliveryGuarantee.NONE ? 0 : maxQueueDelayNanos;
    }

    /** @param maxQueueDelayNanos the queueing delay allowed on top of the round trip (positive) */
    public SendWindow(long maxQueueDelayNanos) {
        this(maxQueueDelayNanos, SendClock.SYSTEM);
    }

    SendWindow(long maxQueueDelayNanos, SendClock clock) {
        if (maxQueueDelayNanos <= 0) {
            throw new IllegalArgumentException("the queue delay must be positive, got " + maxQueueDelayNanos + " ns");
        }
        this.maxQueueDelayNanos = maxQueueDelayNanos;
        this.clock = clock;
        rateStartNanos = clock.nanoTime();
        basePeriodStart = rateStartNanos;
        ratePeriodStart = rateStartNanos;
    }

    /**
     * Makes this the window of the records the calling (task) thread sends until {@link #endSending}: the
     * producer's {@link SendWindowInterceptor} attaches itself to it on its first record.
     */
    public void beginSending() {
        SENDING.set(this);
        allowance = allowance(clock.nanoTime());
    }

    public void endSending() {
        SENDING.remove();
    }

    /** The window of the records the calling thread is sending, or null. */
    static SendWindow sending() {
        return SENDING.get();
    }

    /**
     * Records that a checkpoint barrier reached the sending operator, before the writer's flush (task thread): the
     * barriers' rhythm sets how long the backlog may stay above the bound.
     *
     * @return the bytes in flight, which the flush waits for
     */
    public long barrier() {
        long backlog = inFlight();
        long now = clock.nanoTime();
        if (barrierSeen) {
            long gap = now - lastBarrierNanos;
            // The shorter of the last two gaps: a barrier that arrived late (a slow flush) shortens the next gap.
            long expected = lastGapNanos > 0 ? Math.min(gap, lastGapNanos) : gap;
            expectedBarrierNanos = now + expected;
            drainByNanos = expectedBarrierNanos - expected / LEAD_DIVISOR;
            lastGapNanos = gap;
        }
        lastBarrierNanos = now;
        barrierSeen = true;
        allowance = allowance(now);
        return backlog;
    }

    /** Blocks the task thread while the bytes in flight are over the bound (see the class comment for its end). */
    public void awaitRoom() {
        long nowAcked = acked.get();
        if (sent - nowAcked - bound > allowance && !failed && nowAcked != stalledAt) {
            waitForRoom();
        }
    }

    /**
     * What may be in flight above the bound at {@code now}: what the link drains until the next barrier's lead, none
     * from the lead on, and while settling (see the class comment) minus all but a round trip's worth; unbounded
     * before the first barrier, none before the rhythm is known.
     */
    private long allowance(long now) {
        if (!barrierSeen) {
            return Long.MAX_VALUE;
        }
        if (lastGapNanos == 0) {
            return 0;
        }
        long left = drainByNanos - now;
        if (left > 0) {
            return (long) (rate * left);
        }
        long base = baseNanos;
        long settle = SETTLE_BOUNDS * (base + Math.max(maxQueueDelayNanos, base));
        if (Math.abs(now - expectedBarrierNanos) > settle) {
            return 0; // before the settling stretch, or a barrier so late that waiting on would cost the link's rate
        }
        long bound = this.bound;
        return Math.min(bound, Math.max(FLOOR_BYTES, (long) (rate * base))) - bound;
    }

    /**
     * Waits until half the limit (the bound plus the allowance, at most the bound) is free below it, not just a
     * record's room: the task thread then sends a run of records per wake-up, rather than one per acknowledgement.
     */
    private void waitForRoom() {
        long start = clock.nanoTime();
        long lastAcked = acked.get();
        long lastProgress = start;
        long now = start;
        waiter = Thread.currentThread();
        try {
            while (!failed) {
                long bound = this.bound;
                long allowed = allowance(now);
                long target = sent - bound - allowed + (bound + Math.min(0, allowed)) / 2;
                resumeAt = target;
                long nowAcked = acked.get(); // read after publishing the target: no wake-up is missed
                if (nowAcked >= target) {
                    break;
                }
                clock.park(this, STALL_NANOS);
                now = clock.nanoTime();
                nowAcked = acked.get();
                if (nowAcked != lastAcked) {
                    lastAcked = nowAcked;
                    lastProgress = now;
                } else if (now - lastProgress >= STALL_NANOS) {
                    // The link is stalled (a broker restarting, a leader moving): the producer's own buffer and
                    // timeouts take over until an acknowledgement arrives, rather than one record per stall.
                    stalledAt = nowAcked;
                    break;
                }
            }
        } finally {
            resumeAt = Long.MAX_VALUE;
            waiter = null;
        }
        long end = clock.nanoTime();
        waitNanos += end - start;
        allowance = allowance(end);
    }

    /** Counts a record the producer is about to take (task thread). */
    void sent(long bytes) {
        sent += bytes;
        if (sent >= nextMark) {
            mark(sent, clock.nanoTime());
            nextMark = sent + MARK_BYTES;
        }
    }

    private synchronized void mark(long bytes, long nanos) {
        if (markCount == MARKS) {
            return; // acknowledgements lag far behind: later marks would only measure the same queue
        }
        int slot = (markHead + markCount) % MARKS;
        markBytes[slot] = bytes;
        markNanos[slot] = nanos;
        if (markCount++ == 0) {
            oldestMark = bytes;
        }
    }

    /** Counts an acknowledgement (a producer I/O thread); a failed record ends the bounding. */
    void acknowledged(RecordMetadata metadata, Exception exception) {
        if (exception != null) {
            failed = true; // the sizes of a failed record are unknown; the writer fails the job on it
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
            return;
        }
        long total = acked.addAndGet(Math.max(0, metadata.serializedKeySize())
                + Math.max(0, metadata.serializedValueSize()));
        if (total >= oldestMark) {
            passMarks(total, clock.nanoTime());
        }
        if (total >= resumeAt) {
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    private synchronized void passMarks(long total, long now) {
        while (markCount > 0 && markBytes[markHead] <= total) {
            lastLatency = now - markNanos[markHead];
            sampleBase(lastLatency, now);
            markHead = (markHead + 1) % MARKS;
            markCount--;
        }
        oldestMark = markCount == 0 ? Long.MAX_VALUE : markBytes[markHead];
        long base = base();
        long elapsed = now - rateStartNanos;
        if (elapsed >= Math.max(RATE_WINDOW_NANOS, base)) {
            if (now - ratePeriodStart >= RATE_PERIOD_NANOS) {
                ratePrevious = rateCurrent;
                rateCurrent = 0;
                ratePeriodStart = now;
            }
            rateCurrent = Math.max(rateCurrent, (double) (total - rateStartAcked) / elapsed);
            double bytesPerNano = Math.max(rateCurrent, ratePrevious);
            long next = (long) (bytesPerNano * (base + Math.max(maxQueueDelayNanos, base)));
            long waited = waitNanos;
            if (waited != waitAtRateStart && lastLatency < base + maxQueueDelayNanos / 2) {
                // Held back while the link shows no queue: the bound, not the link, set the rate; probe upward.
                next = Math.max(next, bound * 2);
            }
            waitAtRateStart = waited;
            bound = Math.max(FLOOR_BYTES, next);
            rate = bytesPerNano;
            baseNanos = base;
            rateStartNanos = now;
            rateStartAcked = total;
        }
    }

    private void sampleBase(long latency, long now) {
        if (now - basePeriodStart >= BASE_PERIOD_NANOS) {
            basePrevious = baseCurrent;
            baseCurrent = Long.MAX_VALUE;
            basePeriodStart = now;
        }
        baseCurrent = Math.min(baseCurrent, latency);
    }

    private long base() {
        long base = Math.min(baseCurrent, basePrevious);
        return base == Long.MAX_VALUE ? 0 : base;
    }

    /** The current bound in bytes. */
    public long bound() {
        return bound;
    }

    /** Bytes sent and not yet acknowledged. */
    public long inFlight() {
        return sent - acked.get();
    }

    /** Total time the task thread waited for room, in nanoseconds. */
    public long waitNanos() {
        return waitNanos;
    }
}
