package io.columnarkafka.testkit;

import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The admin operations tests need on a testkit cluster, one broker ({@link KafkaBroker}) or several
 * ({@link KafkaCluster}): create, describe and delete topics, find a partition's leader and in-sync replicas, list
 * transactions. Each call is bounded; failures are {@link IllegalStateException}s whose message carries the
 * brokers' log tails where they help.
 */
public final class ClusterAdmin implements AutoCloseable {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final Admin admin;
    private final Supplier<String> diagnostics;

    private ClusterAdmin(Admin admin, Supplier<String> diagnostics) {
        this.admin = admin;
        this.diagnostics = diagnostics;
    }

    /** An admin for the cluster at {@code bootstrapServers}; {@code diagnostics} supplies log tails for errors. */
    static ClusterAdmin connect(String bootstrapServers, Supplier<String> diagnostics) {
        return new ClusterAdmin(Admin.create(adminProperties(bootstrapServers)), diagnostics);
    }

    /** The underlying Admin client, owned by this object. */
    public Admin admin() {
        return admin;
    }

    /** The brokers the cluster lists now. */
    public Collection<Node> nodes() {
        return get(admin.describeCluster().nodes(), "describing the cluster");
    }

    /**
     * Creates a topic and waits until every partition has a leader, so producers do not see
     * {@code UNKNOWN_TOPIC_OR_PARTITION}.
     *
     * @throws IllegalStateException if the topic exists or cannot be created
     */
    public void createTopic(String name, int partitions, int replicationFactor, Map<String, String> topicConfigs) {
        Objects.requireNonNull(name, "name");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        NewTopic topic = new NewTopic(name, partitions, (short) replicationFactor).configs(topicConfigs);
        try {
            admin.createTopics(List.of(topic)).all().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                throw new IllegalStateException("Topic already exists: " + name, e.getCause());
            }
            throw new IllegalStateException("Could not create topic " + name + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + name, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Timed out creating topic " + name + "\n" + diagnostics.get(), e);
        }
        awaitPartitions(name, description -> description.partitions().size() == partitions
                && description.partitions().stream().allMatch(ClusterAdmin::hasLeader), CALL_TIMEOUT,
                "has no leader for all " + partitions + " partitions");
    }

    /** Deletes a topic and waits for the deletion to be accepted. */
    public void deleteTopic(String name) {
        get(admin.deleteTopics(List.of(name)).all(), "deleting topic " + name);
    }

    /** The topic's current description (partitions, leaders, replicas, in-sync replicas). */
    public TopicDescription describeTopic(String name) {
        return get(admin.describeTopics(List.of(name)).allTopicNames(), "describing topic " + name).get(name);
    }

    /** The node id of the leader of {@code topic}'s {@code partition}, waiting up to 30 s for one to be elected. */
    public int leaderOf(String topic, int partition) {
        TopicDescription description = awaitPartitions(topic,
                d -> d.partitions().size() > partition && hasLeader(d.partitions().get(partition)),
                CALL_TIMEOUT, "has no leader for partition " + partition);
        return description.partitions().get(partition).leader().id();
    }

    /**
     * Waits until every partition of {@code topic} has {@code replicas} in-sync replicas (e.g. after a restarted
     * broker caught up), within {@code timeout}.
     */
    public void awaitInSyncReplicas(String topic, int replicas, Duration timeout) {
        awaitPartitions(topic, d -> d.partitions().stream().allMatch(p -> p.isr().size() >= replicas),
                timeout, "has partitions with fewer than " + replicas + " in-sync replicas");
    }

    /** The end (latest) offset of each partition of {@code topic}. */
    public Map<TopicPartition, Long> endOffsets(String topic) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicPartitionInfo partition : describeTopic(topic).partitions()) {
            latest.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new TreeMap<>(
                Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        get(admin.listOffsets(latest).all(), "listing the end offsets of " + topic)
                .forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
    }

    /** All transactions the cluster knows, with their states (see {@link TopicVerifier#listTransactions(Admin)}). */
    public List<TransactionInfo> listTransactions() {
        return TopicVerifier.listTransactions(admin);
    }

    @Override
    public void close() {
        try {
            admin.close(Duration.ofSeconds(2));
        } catch (RuntimeException e) {
            // closing a client of a cluster that is about to go away: nothing to do
        }
    }

    private TopicDescription awaitPartitions(String name, Predicate<TopicDescription> condition, Duration timeout,
                                             String failure) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        TopicDescription description = null;
        while (System.nanoTime() < deadline) {
            try {
                description = admin.describeTopics(List.of(name)).allTopicNames().get(5, TimeUnit.SECONDS).get(name);
                if (description != null && condition.test(description)) {
                    return description;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for topic " + name, e);
            } catch (ExecutionException | TimeoutException e) {
                last = e; // UnknownTopicOrPartition until the metadata has propagated
            }
            BrokerProcess.sleep(50);
        }
        throw new IllegalStateException("Topic " + name + " " + failure + " after " + timeout
                + (description == null ? "" : ": " + description) + (last == null ? "" : "; last error: " + last), last);
    }

    private static boolean hasLeader(TopicPartitionInfo partition) {
        return partition.leader() != null && !partition.leader().isEmpty();
    }

    private <T> T get(KafkaFuture<T> future, String what) {
        try {
            return future.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Failed " + what + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted " + what, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Timed out " + what + "\n" + diagnostics.get(), e);
        }
    }

    /** Admin client properties with short timeouts and back-offs, for a cluster on loopback. */
    static Properties adminProperties(String bootstrap) {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "columnar-kafka-testkit-admin");
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        properties.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50");
        properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
        properties.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "50");
        properties.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, "500");
        return properties;
    }
}
