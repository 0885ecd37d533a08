package io.columnarkafka.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import org.apache.kafka.common.Uuid;

/**
 * A real Apache Kafka 4.2 KRaft cluster of several nodes (default 3) on 127.0.0.1, each node its own child JVM
 * ({@link BrokerProcess}) that can be stopped, killed with {@code SIGKILL} and restarted on the same ports and data.
 *
 * <pre>{@code
 * try (KafkaCluster cluster = KafkaCluster.start()) {
 *     cluster.createTopic("orders", 2);                 // replication factor 3
 *     int leader = cluster.admin().leaderOf("orders", 0);
 *     cluster.broker(leader).kill();                    // SIGKILL; a follower takes over
 *     cluster.broker(leader).start();                   // same ports, same data
 * }
 * }</pre>
 *
 * <p>Every node is a combined broker and controller ({@code process.roles=broker,controller}) in a static quorum of
 * all nodes ({@code controller.quorum.voters}): with 3 nodes, killing one removes a broker and a controller voter, and
 * the remaining 2 keep a quorum. Topics are created with replication factor {@code min(nodes, 3)}; the broker default
 * and the transaction state log use {@code min.insync.replicas=2} (3 nodes), so a transaction commits with one node
 * down and fails with two down. The other defaults are {@link KafkaBroker}'s (see its javadoc); the work directories
 * ({@code node-<id>/} each) are deleted on {@link #close()}.
 */
public final class KafkaCluster implements AutoCloseable {

    private static final int MAX_START_ATTEMPTS = 3;
    private static final int LOG_TAIL_LINES = 30;

    private final Path workDir;
    private final List<BrokerProcess> brokers;
    private final ClusterAdmin admin;
    private final Builder options;
    private final boolean keepFiles;

    private KafkaCluster(Path workDir, List<BrokerProcess> brokers, Builder options) {
        this.workDir = workDir;
        this.brokers = List.copyOf(brokers);
        this.options = options;
        this.keepFiles = options.keepFilesOnClose;
        this.admin = ClusterAdmin.connect(bootstrapServers(), this::logTails);
    }

    /** Starts a 3-node cluster with all defaults. */
    public static KafkaCluster start() {
        return builder().start();
    }

    /** A builder for a cluster with non-default options. */
    public static Builder builder() {
        return new Builder();
    }

    /** Every node's PLAINTEXT address, comma separated: clients reach the cluster while any one node is up. */
    public String bootstrapServers() {
        return brokers.stream().map(BrokerProcess::bootstrapServers).collect(Collectors.joining(","));
    }

    /** The nodes, in node id order (ids 1..n). */
    public List<BrokerProcess> brokers() {
        return brokers;
    }

    /** The node with {@code node.id} {@code nodeId}. */
    public BrokerProcess broker(int nodeId) {
        return brokers.stream().filter(b -> b.nodeId() == nodeId).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + nodeId + " in " + brokers));
    }

    /** Admin operations on the cluster (topics, leaders, in-sync replicas, transactions). */
    public ClusterAdmin admin() {
        return admin;
    }

    /** The replication factor of {@link #createTopic(String, int)}: {@code min(nodes, 3)}. */
    public int replicationFactor() {
        return Math.min(brokers.size(), 3);
    }

    /** The brokers' {@code transaction.max.timeout.ms}. */
    public Duration transactionMaxTimeout() {
        return options.transactionMaxTimeout;
    }

    /** Creates a topic replicated to {@link #replicationFactor()} nodes and waits for its leaders. */
    public void createTopic(String name, int partitions) {
        admin.createTopic(name, partitions, replicationFactor(), Map.of());
    }

    /** Every node's last log lines, for failure messages. */
    public String logTails() {
        StringBuilder out = new StringBuilder();
        for (BrokerProcess broker : brokers) {
            out.append("--- node ").append(broker.nodeId()).append(" (").append(broker.brokerLogFile()).append(")\n")
                    .append(broker.logTail(LOG_TAIL_LINES)).append('\n');
        }
        return out.toString();
    }

    /** Closes the admin client, stops every node and deletes the work directory unless files are kept. */
    @Override
    public void close() {
        admin.close();
        RuntimeException failure = null;
        for (BrokerProcess broker : brokers) {
            try {
                broker.close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (!keepFiles) {
            FileUtil.deleteRecursivelyQuietly(workDir);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "KafkaCluster" + brokers;
    }

    private static KafkaCluster start(Builder options) {
        Path workDir;
        try {
            Path base = options.baseDir != null ? options.baseDir : Path.of(System.getProperty("java.io.tmpdir"));
            Files.createDirectories(base);
            workDir = Files.createTempDirectory(base, "columnar-kafka-cluster-").toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create the cluster work dir", e);
        }
        for (int attempt = 1; ; attempt++) {
            List<BrokerProcess> brokers = new ArrayList<>();
            try {
                String clusterId = Uuid.randomUuid().toString();
                List<KraftConfig.Node> nodes = KraftConfig.newNodes(options.nodes);
                BrokerJvm jvm = options.kafkaBroker.jvm();
                for (KraftConfig.Node node : nodes) {
                    Path nodeDir = workDir.resolve("node-" + node.id());
                    brokers.add(BrokerProcess.format(node, nodes, nodeDir, jvm,
                            KraftConfig.properties(node, nodes, nodeDir.resolve("data"), 1,
                                    options.transactionMaxTimeout, options.brokerProperties),
                            clusterId, options.keepFilesOnClose));
                }
                // All at once: a node becomes ready only once a quorum of controllers is up.
                brokers.forEach(BrokerProcess::launch);
                brokers.forEach(BrokerProcess::awaitReady);
                return new KafkaCluster(workDir, brokers, options.copy());
            } catch (RuntimeException | Error | IOException e) {
                brokers.forEach(BrokerProcess::close);
                boolean retry = e instanceof BrokerProcess.PortConflictException && attempt < MAX_START_ATTEMPTS;
                if (!retry) {
                    if (!options.keepFilesOnClose) {
                        FileUtil.deleteRecursivelyQuietly(workDir);
                    }
                    if (e instanceof IOException io) {
                        throw new UncheckedIOException(io);
                    }
                    if (e instanceof RuntimeException r) {
                        throw r;
                    }
                    throw (Error) e;
                }
                FileUtil.deleteRecursivelyQuietly(workDir);
            }
        }
    }

    /** Options for {@link KafkaCluster}. Not thread-safe; {@link #start()} copies it. */
    public static final class Builder {
        private int nodes = 3;
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private Path baseDir;
        private Duration transactionMaxTimeout = KafkaBroker.DEFAULT_TRANSACTION_MAX_TIMEOUT;
        private boolean keepFilesOnClose;
        // The child JVM options (heap, classpath, log level, timeouts) are a single broker's, smaller heap.
        private final KafkaBroker.Builder kafkaBroker = KafkaBroker.builder().maxHeap("384m");

        private Builder() {
        }

        /** Number of nodes, each a combined broker and controller. Default 3. */
        public Builder nodes(int nodes) {
            if (nodes < 1) {
                throw new IllegalArgumentException("nodes must be >= 1: " + nodes);
            }
            this.nodes = nodes;
            return this;
        }

        /** Sets or overrides one broker property on every node; managed properties are rejected. */
        public Builder brokerProperty(String key, String value) {
            kafkaBroker.brokerProperty(key, value); // validates
            brokerProperties.put(key, Objects.requireNonNull(value, "value"));
            return this;
        }

        /** The brokers' {@code transaction.max.timeout.ms}. Default 15 minutes. */
        public Builder transactionMaxTimeout(Duration timeout) {
            kafkaBroker.transactionMaxTimeout(timeout); // validates
            this.transactionMaxTimeout = timeout;
            return this;
        }

        /** Directory in which the cluster's work directory is created. Default {@code java.io.tmpdir}. */
        public Builder baseDir(Path baseDir) {
            this.baseDir = Objects.requireNonNull(baseDir, "baseDir");
            return this;
        }

        /** Keep the work directories (logs, data) after close, for debugging. Default false. */
        public Builder keepFilesOnClose(boolean keep) {
            this.keepFilesOnClose = keep;
            return this;
        }

        /** Each node's {@code -Xmx}. Default {@code "384m"}. */
        public Builder maxHeap(String maxHeap) {
            kafkaBroker.maxHeap(maxHeap);
            return this;
        }

        /** Root log level of each node's {@code broker.log}. Default WARN. */
        public Builder logLevel(String level) {
            kafkaBroker.logLevel(level);
            return this;
        }

        /** Formats every node's storage, launches the nodes and waits until each is ready. */
        public KafkaCluster start() {
            return KafkaCluster.start(copy());
        }

        private Builder copy() {
            Builder b = new Builder();
            b.nodes = nodes;
            b.brokerProperties.putAll(brokerProperties);
            b.baseDir = baseDir;
            b.transactionMaxTimeout = transactionMaxTimeout;
            b.keepFilesOnClose = keepFilesOnClose;
            b.kafkaBroker.maxHeap(kafkaBroker.jvm().maxHeap()).logLevel(kafkaBroker.jvm().logLevel());
            return b;
        }
    }
}
