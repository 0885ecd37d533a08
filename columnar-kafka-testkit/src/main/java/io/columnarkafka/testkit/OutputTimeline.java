package io.columnarkafka.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * The timeline of a fault test: when each fault happened, when it ended (e.g. the broker was started again) and when
 * the topic's {@code read_committed} output resumed. Started by {@link TopicVerifier#startTimeline()}.
 *
 * <p>A daemon thread samples the topic's committed output, the sum of every partition's last stable offset, every
 * {@link #DEFAULT_SAMPLE_INTERVAL}; samples that fail (a broker down) are skipped. The output <em>resumed</em> after a
 * fault at the first sample after the fault ended whose committed output is above the one sampled last before that
 * end: the first records a {@code read_committed} reader could see again. Under EXACTLY_ONCE output advances once
 * per checkpoint, so a recovery time is as coarse as the checkpoint interval. Transaction markers count as offsets,
 * so the committed output is an offset count, not a record count.
 */
public final class OutputTimeline implements AutoCloseable {

    /** Time between two samples of the committed output. */
    public static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofMillis(100);

    private final String topic;
    private final Admin admin;
    private final List<TopicPartition> partitions;
    private final long startNanos = System.nanoTime();
    private final List<long[]> samples = new ArrayList<>(); // {nanos, committed offsets}
    private final List<Fault> faults = new ArrayList<>();
    private final Thread sampler;
    private volatile boolean closed;

    OutputTimeline(String bootstrapServers, String topic, Duration interval) {
        this.topic = topic;
        this.admin = Admin.create(ClusterAdmin.adminProperties(bootstrapServers));
        try {
            this.partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic).partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
        } catch (Exception e) {
            admin.close(Duration.ZERO);
            throw new IllegalStateException("Could not describe topic " + topic + ": " + e, e);
        }
        this.sampler = new Thread(() -> sampleUntilClosed(interval), "output-timeline-" + topic);
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Marks a fault starting now (e.g. "broker stopped"); call {@link Fault#end()} when it is repaired. */
    public synchronized Fault fault(String description) {
        Fault fault = new Fault(description, System.nanoTime(), committed());
        faults.add(fault);
        return fault;
    }

    /** The committed output (offsets) last sampled, or -1 before the first sample. */
    public synchronized long committed() {
        return samples.isEmpty() ? -1 : samples.get(samples.size() - 1)[1];
    }

    /**
     * Waits up to {@code timeout} until the committed output reaches {@code offsets} (e.g. to let a job run some
     * checkpoints before injecting a fault). Returns whether it did.
     */
    public boolean awaitCommitted(long offsets, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (committed() >= offsets) {
                return true;
            }
            BrokerProcess.sleep(50);
        }
        return committed() >= offsets;
    }

    /** The time from the fault to the first committed output after it ended, once the output resumed. */
    public synchronized Optional<Duration> recovery(Fault fault) {
        return resumedAt(fault).map(at -> Duration.ofNanos(at - fault.startNanos));
    }

    /** The time from the fault's end (the repair) to the first committed output after it, once the output resumed. */
    public synchronized Optional<Duration> resumeAfterEnd(Fault fault) {
        return fault.endNanos < 0 ? Optional.empty()
                : resumedAt(fault).map(at -> Duration.ofNanos(at - fault.endNanos));
    }

    /** Waits up to {@code timeout} for the output to resume after {@code fault}; its recovery time if it did. */
    public Optional<Duration> awaitRecovery(Fault fault, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Duration> recovery = recovery(fault);
            if (recovery.isPresent()) {
                return recovery;
            }
            BrokerProcess.sleep(50);
        }
        return recovery(fault);
    }

    /** The longest time the committed output did not advance, between the first and the last advance. */
    public synchronized Duration longestStall() {
        long longest = 0;
        long lastAdvance = -1;
        long lastValue = -1;
        for (long[] sample : samples) {
            if (sample[1] > lastValue) {
                if (lastAdvance >= 0) {
                    longest = Math.max(longest, sample[0] - lastAdvance);
                }
                lastAdvance = sample[0];
                lastValue = sample[1];
            }
        }
        return Duration.ofNanos(longest);
    }

    /** One line per fault: when it started and ended and when output resumed, in ms since the timeline started. */
    public synchronized String describe() {
        StringBuilder out = new StringBuilder("timeline of " + topic + " (ms since start; committed offsets)\n");
        for (Fault fault : faults) {
            out.append(String.format("  %-32s at %6d (committed %d), ended %s, output resumed %s, recovery %s%n",
                    fault.description, millis(fault.startNanos), fault.committedAtStart,
                    fault.endNanos < 0 ? "-" : Long.toString(millis(fault.endNanos)),
                    resumedAt(fault).map(at -> Long.toString(millis(at))).orElse("never"),
                    recovery(fault).map(d -> d.toMillis() + " ms").orElse("-")));
        }
        out.append("  longest stall ").append(longestStall().toMillis()).append(" ms, committed at end ")
                .append(committed());
        return out.toString();
    }

    @Override
    public void close() {
        closed = true;
        try {
            sampler.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        admin.close(Duration.ofSeconds(1));
    }

    private Optional<Long> resumedAt(Fault fault) {
        long from = fault.endNanos >= 0 ? fault.endNanos : fault.startNanos;
        long before = fault.committedAtStart;
        for (long[] sample : samples) {
            if (sample[0] <= from) {
                before = Math.max(before, sample[1]);
            } else if (sample[1] > before) {
                return Optional.of(sample[0]);
            }
        }
        return Optional.empty();
    }

    private long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos - startNanos);
    }

    private void sampleUntilClosed(Duration interval) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, OffsetSpec.latest()));
        ListOffsetsOptions committedOnly = new ListOffsetsOptions(IsolationLevel.READ_COMMITTED);
        while (!closed) {
            try {
                long sum = admin.listOffsets(request, committedOnly).all().get(2, TimeUnit.SECONDS).values()
                        .stream().mapToLong(info -> info.offset()).sum();
                synchronized (this) {
                    samples.add(new long[] {System.nanoTime(), sum});
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // a broker or a partition leader is down: no sample this time
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** A fault on the timeline; {@link #end()} marks it repaired (e.g. the broker started again). */
    public final class Fault {
        private final String description;
        private final long startNanos;
        private final long committedAtStart;
        private volatile long endNanos = -1;

        private Fault(String description, long startNanos, long committedAtStart) {
            this.description = description;
            this.startNanos = startNanos;
            this.committedAtStart = committedAtStart;
        }

        /** Marks the fault repaired now. */
        public void end() {
            synchronized (OutputTimeline.this) {
                endNanos = System.nanoTime();
            }
        }

        /** What happened. */
        public String description() {
            return description;
        }

        @Override
        public String toString() {
            return description;
        }
    }
}
