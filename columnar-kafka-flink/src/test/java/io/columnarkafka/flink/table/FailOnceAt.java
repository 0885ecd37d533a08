package io.columnarkafka.flink.table;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * Passes a row id through and throws once, the first time it sees the given id (static: survives
 * restarts). With {@link #READY} set, it first waits (up to 60 s) until that condition holds, e.g. until
 * the sink has written records the failure is to abort, so the outcome does not hang on the machine's load.
 *
 * <p>Use it behind a FLIP-27 source only: there the wait holds the task's mailbox thread, so no checkpoint runs
 * between the row's emission and the failure. Behind a legacy {@code SourceFunction} (SQL's {@code datagen}) it
 * waits under the checkpoint lock, and a checkpoint queued behind the lock can snapshot the source past the
 * failing row before the failure is handled: that row is then lost on restore (docs/faults.md).
 */
public final class FailOnceAt extends ScalarFunction {
    static final AtomicBoolean FAILED = new AtomicBoolean();
    static volatile BooleanSupplier READY = () -> true;

    public Long eval(Long id, Long failAt) throws InterruptedException {
        if (id != null && id.equals(failAt) && !FAILED.get()) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!READY.getAsBoolean() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            if (FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure at row " + id);
            }
        }
        return id;
    }

    @Override
    public boolean isDeterministic() {
        return false;
    }
}
