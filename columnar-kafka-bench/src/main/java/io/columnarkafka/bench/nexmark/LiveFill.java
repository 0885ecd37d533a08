package io.columnarkafka.bench.nexmark;

import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkTopic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fixed-rate cell's input, written live by the harness's JVM (so the cell JVM's CPU is the Flink job's alone):
 * once the cell's job runs ({@link FixedRateRun#runningMarker}), the generator's events 0 .. events-1, the same
 * seed and bytes as a bounded run's topic, paced at the rate ({@link EventPacer}).
 */
final class LiveFill implements AutoCloseable {
    private static final long POLL_MS = 20;

    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean cancelled;
    private volatile double seconds = Double.NaN;

    private LiveFill(String bootstrapServers, String topic, int partitions, long seed, long events, double rate,
                     Path runningMarker) {
        thread = new Thread(() -> {
            try {
                while (!Files.exists(runningMarker)) {
                    if (cancelled) {
                        return;
                    }
                    Thread.sleep(POLL_MS);
                }
                long start = System.nanoTime();
                EventPacer[] pacer = new EventPacer[1];
                NexmarkTopic.fill(bootstrapServers, topic, partitions, new NexmarkGenerator(NexmarkConfig.defaults(seed)),
                        events, eventId -> {
                            if (cancelled) {
                                throw new CancellationException("the cell ended before its input was written");
                            }
                            // The clock starts once event 0 is sent: the producer's first send waits for the
                            // topic's metadata (seconds on a loaded machine), which would otherwise be a burst.
                            if (pacer[0] == null && eventId > 0) {
                                pacer[0] = new EventPacer(rate, System.nanoTime() - (long) (eventId * 1e9 / rate));
                            }
                            if (pacer[0] != null) {
                                pacer[0].awaitDue(eventId);
                            }
                        });
                seconds = (System.nanoTime() - start) / 1e9;
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "live-fill-" + topic);
        thread.setDaemon(true);
    }

    static LiveFill start(String bootstrapServers, String topic, int partitions, long seed, long events, double rate,
                          Path runningMarker) {
        LiveFill fill = new LiveFill(bootstrapServers, topic, partitions, seed, events, rate, runningMarker);
        fill.thread.start();
        return fill;
    }

    /**
     * Waits for the fill to end; returns the seconds it took from its first event to the last one acknowledged.
     *
     * @throws IllegalStateException if it failed or never started
     */
    double await() throws InterruptedException {
        thread.join();
        if (failure.get() != null) {
            throw new IllegalStateException("the live fill failed: " + failure.get(), failure.get());
        }
        if (Double.isNaN(seconds)) {
            throw new IllegalStateException("the live fill never started: the cell did not report its job running");
        }
        return seconds;
    }

    @Override
    public void close() throws InterruptedException {
        cancelled = true;
        thread.join();
    }
}
