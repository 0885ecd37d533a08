package io.columnarkafka.flink.table;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * Passes a row id through and throws once (static: survives restarts), at the first id from the given one on
 * that it sees after the condition {@link #arm} was given held, e.g. once the sink has written records the
 * failure is to abort, so the outcome does not hang on the machine's load.
 *
 * <p>The condition is polled by a thread of its own, never inside {@link #eval}: a datagen source calls the
 * function under its checkpoint lock, and Flink's legacy source runs a checkpoint queued behind that lock
 * before it handles the source's failure. A wait inside {@code eval} let a checkpoint queue up and then
 * snapshot the source past the failing row, which the restore then never replays (seen once in CI: a run
 * whose wait was long lost row 170, and the Kafka committer logged the restored transaction as fenced).
 */
public final class FailOnceAt extends ScalarFunction {
    static final AtomicBoolean FAILED = new AtomicBoolean();
    private static final AtomicLong GENERATION = new AtomicLong();
    private static volatile boolean ready;

    /** Resets the failure and starts polling {@code condition} (every 50 ms, for up to 120 s). */
    static void arm(BooleanSupplier condition) {
        long generation = GENERATION.incrementAndGet();
        ready = false;
        FAILED.set(false);
        Thread poller = new Thread(() -> {
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (GENERATION.get() == generation && System.nanoTime() < deadline) {
                if (condition.getAsBoolean()) {
                    ready = GENERATION.get() == generation;
                    return;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "fail-once-at-condition");
        poller.setDaemon(true);
        poller.start();
    }

    public Long eval(Long id, Long failAt) {
        if (id != null && id >= failAt && ready && FAILED.compareAndSet(false, true)) {
            throw new IllegalStateException("injected failure at row " + id);
        }
        return id;
    }

    @Override
    public boolean isDeterministic() {
        return false;
    }
}
