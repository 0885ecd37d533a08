package io.columnarkafka.flink.testing;

import io.columnarkafka.testkit.KafkaBroker;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Kafka broker for one test class: started before its first test (and before its own
 * {@code @BeforeAll} methods), closed after its last, so no broker outlives the class.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, AfterAllCallback {
    private final Duration startupTimeout;
    private KafkaBroker broker;

    /** A broker with the test kit's start-up bound ({@link KafkaBroker#DEFAULT_STARTUP_TIMEOUT}). */
    public KafkaBrokerExtension() {
        this(KafkaBroker.DEFAULT_STARTUP_TIMEOUT);
    }

    /** A broker allowed {@code startupTimeout} to start, and to start again after a stop (fault tests). */
    public KafkaBrokerExtension(Duration startupTimeout) {
        this.startupTimeout = startupTimeout;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        broker = KafkaBroker.builder().startupTimeout(startupTimeout).start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    public KafkaBroker broker() {
        if (broker == null) {
            throw new IllegalStateException("the broker runs only between beforeAll and afterAll");
        }
        return broker;
    }
}
