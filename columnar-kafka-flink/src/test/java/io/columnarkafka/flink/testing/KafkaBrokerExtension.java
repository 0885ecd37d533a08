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
 * <p>By default the broker is shared: the first class to ask starts it and it is closed when the test run ends (the
 * run's root {@link ExtensionContext.Store}), because starting a broker (a child JVM, formatted storage) takes 5 to
 * 10 s on a loaded 2-core machine, and a module's classes would otherwise pay that once each. Sharing is safe for
 * tests that leave the broker running and name what they create uniquely: the broker creates no topic on its own
 * ({@code auto.create.topics.enable=false}) and {@link KafkaBroker#createTopic} fails on a name that exists, so two
 * classes reaching for the same topic fail loudly instead of reading each other's records. A class that stops,
 * kills or restarts the broker takes a {@link #dedicated dedicated} one, closed after the class.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaBrokerExtension.class);

    /** The start-up bound of a dedicated broker; null for the shared one. */
    private final Duration dedicatedStartupTimeout;
    private KafkaBroker broker;

    /** The broker shared by every class of the test run, with the test kit's start-up bound. */
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
            broker = context.getRoot().getStore(NAMESPACE)
                    .getOrComputeIfAbsent(SharedBroker.class, key -> new SharedBroker(KafkaBroker.start()),
                            SharedBroker.class)
                    .broker();
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

    /** The shared broker, closed by JUnit with the root store at the end of the test run. */
    private record SharedBroker(KafkaBroker broker) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            broker.close();
        }
    }
}
