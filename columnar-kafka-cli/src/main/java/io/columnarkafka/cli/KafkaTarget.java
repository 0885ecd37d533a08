package io.columnarkafka.cli;

import io.columnarkafka.testkit.KafkaBroker;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The Kafka cluster a command writes to: the one given with {@code --bootstrap-servers}, or else an embedded
 * broker started for the command and stopped when it ends.
 */
final class KafkaTarget implements AutoCloseable {
    /** A busy machine can take minutes to start the broker's JVM. */
    private static final Duration BROKER_STARTUP = Duration.ofMinutes(5);

    private final KafkaBroker embedded;
    private final String servers;

    private KafkaTarget(KafkaBroker embedded, String servers) {
        this.embedded = embedded;
        this.servers = servers;
    }

    /** {@code bootstrapServers}, or an embedded broker with {@code partitions} as its default when null. */
    static KafkaTarget of(String bootstrapServers, int partitions, PrintStream out) {
        if (bootstrapServers != null) {
            return new KafkaTarget(null, bootstrapServers);
        }
        out.println("starting an embedded Kafka broker ...");
        KafkaBroker broker = KafkaBroker.builder().defaultPartitions(partitions).startupTimeout(BROKER_STARTUP).start();
        out.printf("broker ready at %s in %.1f s%n", broker.bootstrapServers(), broker.startupTime().toMillis() / 1000.0);
        return new KafkaTarget(broker, broker.bootstrapServers());
    }

    String servers() {
        return servers;
    }

    /** Creates {@code topic} (replication factor 1); an existing topic is an error unless {@code mayExist}. */
    void createTopic(String topic, int partitions, boolean mayExist) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", servers))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(mayExist && e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
        }
    }
}
