package io.columnarkafka.flink.testing;

import io.columnarkafka.testkit.KafkaBroker;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Kafka broker for one test class: started before its first test (and before its own
 * {@code @BeforeAll} methods), closed after its last, so no broker outlives the class.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, AfterAllCallback {
    private KafkaBroker broker;

    @Override
    public void beforeAll(ExtensionContext context) {
        broker = KafkaBroker.start();
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
