package io.columnarkafka.flink.batch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts Arrow's one-time class initialization on a background thread when a task is deployed, so that a cold
 * TaskManager JVM does it while the task builds its operator chain and restores state, instead of on the task
 * thread when the first operator builds an Arrow vector.
 *
 * <p>What it initializes, once per class loader: the root allocator of {@link ArrowMemory} (its allocation-manager
 * lookup), then Arrow's {@link Schema}, whose static initializer builds a Jackson {@code ObjectMapper} and eagerly
 * its reader for the whole schema type tree (about 430 Jackson classes, 0.36–0.44 s of CPU in a cold JVM on the
 * bench machine; any Arrow schema or {@code VectorSchemaRoot} runs it). Both are what the task thread would
 * initialize anyway, in the same class loader; a task reaching them while the warm-up runs waits for it under the
 * JVM's class initialization lock, as a second subtask waits for the first without the warm-up. Nothing else is
 * shared with the task: no vector is allocated. docs/nexmark.md, "Where a restart's open phase goes", has the
 * measurements.
 *
 * <p>Off with the system property {@value #PROPERTY}{@code =false} (for same-build comparisons).
 */
public final class ArrowWarmUp {
    /** System property that turns the warm-up off when {@code false}. */
    public static final String PROPERTY = "columnarkafka.arrow.warm-up";

    private static final Logger LOG = LoggerFactory.getLogger(ArrowWarmUp.class);
    private static final AtomicReference<CompletableFuture<Void>> STARTED = new AtomicReference<>();

    private ArrowWarmUp() {}

    /**
     * Starts the warm-up unless it was started before in this class loader or is turned off; returns at once.
     *
     * @return completes when the warm-up is done (exceptionally if an initializer failed; the task thread then
     *     sees the same failure as a {@code NoClassDefFoundError}); null when turned off
     */
    public static CompletableFuture<Void> start() {
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            return null;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!STARTED.compareAndSet(null, done)) {
            return STARTED.get();
        }
        Thread thread = new Thread(() -> initialize(done), "columnar-kafka arrow warm-up");
        thread.setDaemon(true);
        thread.setContextClassLoader(ArrowWarmUp.class.getClassLoader());
        thread.start();
        return done;
    }

    /** The warm-up started in this class loader, or null if none was. */
    static CompletableFuture<Void> started() {
        return STARTED.get();
    }

    private static void initialize(CompletableFuture<Void> done) {
        long start = System.nanoTime();
        try {
            // In the order a task needs them: its operators take an allocator before they build a schema.
            ArrowMemory.allocatedBytes();
            Class.forName(Schema.class.getName(), true, Schema.class.getClassLoader());
            LOG.info("Arrow warm-up done in {} ms", (System.nanoTime() - start) / 1_000_000);
            done.complete(null);
        } catch (Throwable e) {
            LOG.warn("Arrow warm-up failed; the task initializes Arrow itself", e);
            done.completeExceptionally(e);
        }
    }
}
