package io.columnarkafka.flink.table;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.table.functions.ScalarFunction;

/** Passes a row id through and throws once, the first time it sees the given id (static: survives restarts). */
public final class FailOnceAt extends ScalarFunction {
    static final AtomicBoolean FAILED = new AtomicBoolean();

    public Long eval(Long id, Long failAt) {
        if (id != null && id.equals(failAt) && FAILED.compareAndSet(false, true)) {
            throw new IllegalStateException("injected failure at row " + id);
        }
        return id;
    }

    @Override
    public boolean isDeterministic() {
        return false;
    }
}
