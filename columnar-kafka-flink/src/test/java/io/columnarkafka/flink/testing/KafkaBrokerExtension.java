package io.columnarkafka.flink.testing;

import io.columnarkafka.testkit.KafkaBroker;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Kafka broker for a test class, available from before its first test (and before its own {@code @BeforeAll}
 * methods) to after its last.
 *
 * <p>By default the broker is shared: the first class of the test JVM to ask starts it and it is closed when that
 * JVM exits, because starting a broker (a child JVM, formatted storage) takes 5 to 10 s on a loaded 2-core machine,
 * and a module's classes would otherwise pay that once each. The JVM bounds it, not JUnit's root store: Surefire runs
 * each class in a launcher of its own when it spreads classes over forks. Sharing is safe for tests that leave the
 * broker running and name what they create uniquely: the broker creates no topic on its own
 * ({@code auto.create.topics.enable=false}) and {@link KafkaBroker#createTopic} fails on a name that exists, so two
 * classes reaching for the same topic fail loudly instead of reading each other's records. A class that stops, kills
 * or restarts the broker takes a {@link #dedicated dedicated} one, closed after the class.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, AfterAllCallback {
    /** The broker of {@link #sharedBroker()}; null until a class asks for it. */
    private static KafkaBroker shared;

    /** The start-up bound of a dedicated broker; null for the shared one. */
    private final Duration dedicatedStartupTimeout;
    private KafkaBroker broker;

    /** The broker shared by every class of the test JVM, with the test kit's start-up bound. */
    public KafkaBrokerExtension() {
        this(null);
    }

    private KafkaBrokerExtension(Duration dedicatedStartupTimeout) {
        this.dedicatedStartupTimeout = dedicatedStartupTimeout;
    }

    /**
     * A broker of the class's own, allowed {@code startupTimeout} to start and to start again after a stop: for
     * fault tests, which stop, kill or restart it.
     */
    public static KafkaBrokerExtension dedicated(Duration startupTimeout) {
        return new KafkaBrokerExtension(startupTimeout);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (dedicatedStartupTimeout != null) {
            broker = KafkaBroker.builder().startupTimeout(dedicatedStartupTimeout).start();
        } else {
            broker = sharedBroker();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (dedicatedStartupTimeout != null && broker != null) {
            broker.close();
        }
        broker = null;
    }

    public KafkaBroker broker() {
        if (broker == null) {
            throw new IllegalStateException("the broker runs only between beforeAll and afterAll");
        }
        return broker;
    }

    /** The JVM's shared broker, started on first use, and again if it has died, so one crash fails one class. */
    private static synchronized KafkaBroker sharedBroker() {
        if (shared == null || !shared.isRunning()) {
            KafkaBroker started = KafkaBroker.start();
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "close shared Kafka broker"));
            shared = started;
        }
        return shared;
    }
}
