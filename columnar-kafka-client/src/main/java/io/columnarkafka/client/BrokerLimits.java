package io.columnarkafka.client;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the broker's {@code transaction.max.timeout.ms} and compares the producer's {@code
 * transaction.timeout.ms} with it, which Kafka would otherwise only reject at {@code initTransactions}.
 * A broker that does not answer in time is not a problem here: {@code open()} will say.
 */
final class BrokerLimits {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerLimits.class);
    private static final String MAX_TIMEOUT = "transaction.max.timeout.ms";

    private BrokerLimits() {}

    /** An Admin client with the producer's connection settings, every call bounded by {@code timeout}. */
    static Admin admin(SinkSettings settings, Duration timeout) {
        Properties properties = new Properties();
        properties.putAll(settings.producerProperties);
        properties.keySet().retainAll(AdminClientConfig.configNames());
        properties.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
        properties.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
        return Admin.create(properties);
    }

    static Optional<ConfigProblem> checkTransactionTimeout(SinkSettings settings, Duration timeout) {
        try (Admin admin = admin(settings, timeout)) {
            Collection<Node> nodes = admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (nodes.isEmpty()) {
                return Optional.empty();
            }
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, nodes.iterator().next().idString());
            Config config = admin.describeConfigs(List.of(broker)).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(broker);
            ConfigEntry max = config.get(MAX_TIMEOUT);
            if (max == null || max.value() == null) {
                return Optional.empty();
            }
            long maxMs = Long.parseLong(max.value());
            long transactionTimeout = settings.transactionTimeoutMs();
            if (transactionTimeout > maxMs) {
                return Optional.of(new ConfigProblem(
                        ArrowKafkaSinkConfig.PROPERTIES_PREFIX + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                        transactionTimeout + " ms is above the broker's " + MAX_TIMEOUT + " (" + maxMs + " ms)"));
            }
            return Optional.empty();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.info("could not read the broker's {} ({}); not checked", MAX_TIMEOUT, e.toString());
            return Optional.empty();
        }
    }
}
