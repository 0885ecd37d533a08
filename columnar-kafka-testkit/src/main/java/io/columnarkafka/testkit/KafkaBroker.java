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
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node Apache Kafka 4.2 broker in KRaft mode (combined broker and controller, {@code node.id=1}),
 * running in a child JVM on 127.0.0.1, for tests, demos and benchmarks. No Docker.
 *
 * <pre>{@code
 * try (KafkaBroker broker = KafkaBroker.start()) {
 *     broker.createTopic("orders", 4);
 *     String bootstrap = broker.bootstrapServers();   // "127.0.0.1:<port>"
 *     ...
 * }
 * }</pre>
 *
 * <p>Built from three parts that {@link KafkaCluster} shares: {@link BrokerProcess} (the child JVM, which can be
 * stopped, killed and restarted on the same ports and data: {@link #brokerProcess()}), {@code KraftConfig} (the
 * {@code server.properties} writer) and {@link ClusterAdmin} (topics, leaders, transactions: {@link #admin()}).
 *
 * <h2>How it starts</h2>
 * <ol>
 *   <li>A fresh work directory is created under {@link Builder#baseDir(Path)} (default {@code java.io.tmpdir}):
 *       {@code server.properties}, {@code log4j2.xml}, {@code broker.log} (the child's stdout and stderr) and
 *       {@code data/} (Kafka's {@code log.dirs}, which also holds the KRaft metadata log).</li>
 *   <li>Two free ports are picked by binding port 0 on 127.0.0.1: one for the PLAINTEXT listener, one for the
 *       CONTROLLER listener.</li>
 *   <li>The storage is formatted like {@code kafka-storage.sh format -t <clusterId> -c server.properties
 *       --standalone}: by {@code kafka.tools.StorageTool.execute} in this JVM (default; about 1 s faster), or in a
 *       child JVM with {@link Builder#formatInChildJvm(boolean)}.</li>
 *   <li>The broker starts as {@code java <jvm args> -cp <this JVM's java.class.path> ... kafka.Kafka
 *       server.properties}, through a small launcher (package-private {@code BrokerMain}) that halts the broker
 *       when its standard input, a pipe from this JVM, closes: the broker dies with this JVM even on
 *       {@code SIGKILL}. A JVM shutdown hook also stops it on normal exit if {@link #close()} was not called.</li>
 *   <li>Readiness: an Admin client polls {@code describeCluster()} until the broker lists itself, within
 *       {@link Builder#startupTimeout(Duration)} (default 90 s). On failure (child exited, timeout) the exception
 *       carries the tail of {@code broker.log}. A start that fails because a picked port was taken meanwhile is
 *       retried with new ports (up to 3 attempts).</li>
 * </ol>
 *
 * <h2>Broker properties</h2>
 * Fixed by the testkit (cannot be overridden):
 * <ul>
 *   <li>{@code process.roles=broker,controller}, {@code node.id=1}: one JVM is both the KRaft controller and the
 *       broker.</li>
 *   <li>{@code listeners=PLAINTEXT://127.0.0.1:<p>,CONTROLLER://127.0.0.1:<c>},
 *       {@code advertised.listeners=PLAINTEXT://127.0.0.1:<p>}, {@code controller.listener.names=CONTROLLER},
 *       {@code inter.broker.listener.name=PLAINTEXT},
 *       {@code listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT}: loopback only, no
 *       security.</li>
 *   <li>{@code controller.quorum.bootstrap.servers=127.0.0.1:<c>}: a dynamic quorum of one voter, which is what
 *       {@code format --standalone} expects.</li>
 *   <li>{@code log.dirs=<work dir>/data}: deleted on {@link #close()}.</li>
 * </ul>
 * Defaults (override with {@link Builder#brokerProperty(String, String)}):
 * <ul>
 *   <li>{@code offsets.topic.replication.factor=1}, {@code transaction.state.log.replication.factor=1},
 *       {@code transaction.state.log.min.isr=1}, {@code share.coordinator.state.topic.replication.factor=1},
 *       {@code share.coordinator.state.topic.min.isr=1}: the internal topics' defaults (3 and 2) cannot be met
 *       by one broker; without these, consumer groups, transactions and share groups never become
 *       available.</li>
 *   <li>{@code offsets.topic.num.partitions=1}, {@code transaction.state.log.num.partitions=1},
 *       {@code share.coordinator.state.topic.num.partitions=1}: the defaults of 50 partitions make the first
 *       group or transaction wait for 50 partitions to be created; one is plenty for a test broker.</li>
 *   <li>{@code transaction.max.timeout.ms} = {@link Builder#transactionMaxTimeout(Duration)}, default 15 min
 *       (Kafka's own default). Producers must use a {@code transaction.timeout.ms} at or below it; note Flink's
 *       KafkaSink defaults its producers to 1 h, which this broker rejects unless raised here or lowered
 *       there.</li>
 *   <li>{@code group.initial.rebalance.delay.ms=0}: the first consumer group rebalance does not wait 3 s.</li>
 *   <li>{@code auto.create.topics.enable=false}: a typo in a topic name fails instead of silently creating a
 *       topic; use {@link #createTopic(String, int)}.</li>
 *   <li>{@code num.partitions} = {@link Builder#defaultPartitions(int)} (default 1), also used by
 *       {@link #createTopic(String)}.</li>
 *   <li>{@code log.retention.ms=-1}: records are kept whatever their timestamps (tests write 1970's and 2020's,
 *       which Kafka's default of 7 days would delete while the broker runs).</li>
 *   <li>{@code num.network.threads=2}, {@code num.io.threads=4}, {@code background.threads=4},
 *       {@code num.recovery.threads.per.data.dir=1}: fewer threads than Kafka's defaults on a small
 *       machine.</li>
 * </ul>
 *
 * <h2>Child JVM</h2>
 * The same {@code java} as this JVM ({@code java.home}), the classpath of this JVM (so the Kafka jars and this
 * module must be on it; a Maven Surefire manifest-only jar works), {@code -Xmx512m -XX:+UseSerialGC
 * -XX:+ExitOnOutOfMemoryError} by default plus {@link Builder#jvmArg(String)} extras, and
 * {@code -Dlog4j2.configurationFile=<work dir>/log4j2.xml}, which logs at {@link Builder#logLevel(String)}
 * (default WARN) to {@code broker.log}. The broker needs an SLF4J binding for log4j2 on the classpath
 * ({@code log4j-slf4j2-impl}, a runtime dependency of this module); when it is present it is selected explicitly
 * with {@code -Dslf4j.provider}.
 *
 * <p>Instances are thread-safe.
 */
public final class KafkaBroker implements AutoCloseable {

    /** Default {@code transaction.max.timeout.ms}: 15 minutes. */
    public static final Duration DEFAULT_TRANSACTION_MAX_TIMEOUT = Duration.ofMinutes(15);
    /** Default time allowed from launching the child JVM to the broker answering {@code describeCluster}. */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(90);
    /** Default time {@link #close()} waits after {@code destroy()} before {@code destroyForcibly()}. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(20);
    /** System property naming the Kafka broker jars to run instead of this JVM's (a classpath string). */
    public static final String BROKER_CLASSPATH_PROPERTY = BrokerJvm.BROKER_CLASSPATH_PROPERTY;

    /** System property naming a child JVM's role, "broker" or "format", early on its command line for ps. */
    static final String ROLE_PROPERTY = BrokerJvm.ROLE_PROPERTY;

    private static final int MAX_START_ATTEMPTS = 3;
    private static final int LOG_TAIL_LINES = 60;

    private final Builder options;
    private final String clusterId;
    private final BrokerProcess node;
    private final ClusterAdmin admin;
    private volatile boolean closed;

    private KafkaBroker(Builder options, String clusterId, BrokerProcess node) {
        this.options = options;
        this.clusterId = clusterId;
        this.node = node;
        this.admin = ClusterAdmin.connect(node.bootstrapServers(), () -> node.logTail(LOG_TAIL_LINES));
    }

    /** Starts a broker with all defaults. */
    public static KafkaBroker start() {
        return builder().start();
    }

    /** A builder for a broker with non-default options. */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------------------------------ accessors

    /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return node.bootstrapServers();
    }

    /** The PLAINTEXT listener port. */
    public int port() {
        return node.port();
    }

    /** The CONTROLLER listener port. */
    public int controllerPort() {
        return node.controllerPort();
    }

    /** The cluster id the storage was formatted with. */
    public String clusterId() {
        return clusterId;
    }

    /** This broker's work directory; deleted by {@link #close()} unless {@link Builder#keepFilesOnClose}. */
    public Path workDir() {
        return node.workDir();
    }

    /** Kafka's {@code log.dirs} (topic data and the KRaft metadata log). */
    public Path dataDir() {
        return node.dataDir();
    }

    /** The child JVM's stdout and stderr. */
    public Path brokerLogFile() {
        return node.brokerLogFile();
    }

    /** The last {@code lines} lines of {@link #brokerLogFile()}. */
    public String logTail(int lines) {
        return node.logTail(lines);
    }

    /** The child JVM's process handle (pid, liveness, {@code onExit()}); a new one after a restart. */
    public ProcessHandle process() {
        return node.process();
    }

    /** The broker's process: stop, kill with {@code SIGKILL}, restart on the same ports and data. */
    public BrokerProcess brokerProcess() {
        return node;
    }

    /** Whether the child JVM is alive. */
    public boolean isRunning() {
        return node.isRunning();
    }

    /** Time from launching the child JVM (after formatting) to readiness, for the record. */
    public Duration startupTime() {
        return node.startupTime();
    }

    /** The broker's {@code transaction.max.timeout.ms}; producers' {@code transaction.timeout.ms} must not exceed it. */
    public Duration transactionMaxTimeout() {
        return options.transactionMaxTimeout;
    }

    /** The number of partitions {@link #createTopic(String)} uses (also the broker's {@code num.partitions}). */
    public int defaultPartitions() {
        return options.defaultPartitions;
    }

    /** Client properties with {@code bootstrap.servers} set; add your own. */
    public Properties clientProperties() {
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrapServers());
        return properties;
    }

    /**
     * Writes {@code records} with a producer of {@link #clientProperties()} and waits until the broker acknowledged
     * every one.
     *
     * @throws IllegalStateException naming the first record that was not acknowledged
     */
    public void produce(List<ProducerRecord<byte[], byte[]>> records) {
        produce(records, Map.of());
    }

    /** As {@link #produce(List)}, with {@code producerConfigs} (e.g. {@code compression.type}) added. */
    public void produce(List<ProducerRecord<byte[], byte[]>> records, Map<String, String> producerConfigs) {
        AcknowledgedWrites.send(clientProperties(), producerConfigs, records);
    }

    /** A new Admin client for this broker; the caller closes it. */
    public Admin createAdmin() {
        return Admin.create(ClusterAdmin.adminProperties(bootstrapServers()));
    }

    /** The broker's admin operations (topics, leaders, transactions), open until {@link #close()}. */
    public ClusterAdmin admin() {
        ensureOpen();
        return admin;
    }

    // ------------------------------------------------------------------------------------------ topics

    /** Creates a topic with {@link #defaultPartitions()} partitions. */
    public void createTopic(String name) {
        createTopic(name, options.defaultPartitions, Map.of());
    }

    /** Creates a topic with replication factor 1 and waits until every partition has a leader. */
    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /**
     * Creates a topic with replication factor 1 and the given topic configs, and waits until every partition has a
     * leader, so producers do not see {@code UNKNOWN_TOPIC_OR_PARTITION}.
     *
     * @throws IllegalStateException if the topic exists or cannot be created
     */
    public void createTopic(String name, int partitions, Map<String, String> topicConfigs) {
        admin().createTopic(name, partitions, 1, topicConfigs);
    }

    /** Deletes a topic and waits for the deletion to be accepted. */
    public void deleteTopic(String name) {
        admin().deleteTopic(name);
    }

    /** All transactions the broker knows, with their states (see {@link TopicVerifier#listTransactions(Admin)}). */
    public List<TransactionInfo> listTransactions() {
        return admin().listTransactions();
    }

    // ------------------------------------------------------------------------------------------ close

    /**
     * Stops the broker and deletes its work directory: closes the internal Admin client, calls
     * {@code Process.destroy()} (which also closes the child's stdin, making it halt), waits up to
     * {@link Builder#shutdownTimeout(Duration)}, then {@code destroyForcibly()}, waits for the exit and deletes the
     * work directory. Idempotent.
     *
     * @throws IllegalStateException if the child JVM does not exit
     * @throws UncheckedIOException if the work directory cannot be deleted
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        admin.close();
        node.close();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("KafkaBroker is closed");
        }
    }

    @Override
    public String toString() {
        return "KafkaBroker[" + node + "]";
    }

    // ------------------------------------------------------------------------------------------ start

    private static KafkaBroker start(Builder options) {
        Path workDir;
        try {
            Path base = options.baseDir != null ? options.baseDir
                    : Path.of(System.getProperty("java.io.tmpdir"));
            Files.createDirectories(base);
            workDir = Files.createTempDirectory(base, "columnar-kafka-broker-").toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create the broker work dir", e);
        }
        try {
            for (int attempt = 1; ; attempt++) {
                String clusterId = Uuid.randomUuid().toString();
                List<KraftConfig.Node> nodes = KraftConfig.newNodes(1);
                BrokerProcess node = BrokerProcess.format(nodes.get(0), nodes, workDir, options.jvm(),
                        KraftConfig.properties(nodes.get(0), nodes, workDir.resolve("data"),
                                options.defaultPartitions, options.transactionMaxTimeout, options.brokerProperties),
                        clusterId, options.keepFilesOnClose);
                try {
                    node.start();
                    return new KafkaBroker(options.copy(), clusterId, node);
                } catch (BrokerProcess.PortConflictException e) {
                    node.close();
                    if (attempt >= MAX_START_ATTEMPTS) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                    FileUtil.deleteRecursively(workDir.resolve("data"));
                    Files.deleteIfExists(workDir.resolve("broker.log"));
                } catch (RuntimeException | Error e) {
                    node.close();
                    throw e;
                }
            }
        } catch (RuntimeException | Error e) {
            if (!options.keepFilesOnClose) {
                FileUtil.deleteRecursivelyQuietly(workDir);
            }
            throw e;
        } catch (IOException e) {
            FileUtil.deleteRecursivelyQuietly(workDir);
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------------------------------ builder

    /** Options for {@link KafkaBroker}. Not thread-safe; {@link #start()} copies it. */
    public static final class Builder {
        private int defaultPartitions = 1;
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private Path baseDir;
        private Duration transactionMaxTimeout = DEFAULT_TRANSACTION_MAX_TIMEOUT;
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private String maxHeap = "512m";
        private final List<String> jvmArgs = new ArrayList<>();
        private String classpath;
        private Path javaExecutable;
        private boolean keepFilesOnClose;
        private String logLevel = "WARN";
        private boolean formatInChildJvm;

        private Builder() {
            // Another broker version for compatibility runs (README, Compatibility): the child JVMs run that
            // version's jars, plus this module, and format the storage with that version's StorageTool.
            classpath = BrokerJvm.brokerClasspathOverride();
            formatInChildJvm = classpath != null;
        }

        BrokerJvm jvm() {
            return new BrokerJvm(javaExecutable, classpath, maxHeap, jvmArgs, logLevel, formatInChildJvm,
                    startupTimeout, shutdownTimeout);
        }

        /** Partitions for {@link KafkaBroker#createTopic(String)} and the broker's {@code num.partitions}. Default 1. */
        public Builder defaultPartitions(int partitions) {
            if (partitions < 1) {
                throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
            }
            this.defaultPartitions = partitions;
            return this;
        }

        /**
         * Sets or overrides one broker property (see the class javadoc for the defaults). Listener, node, quorum and
         * directory properties are managed by the testkit and rejected here.
         */
        public Builder brokerProperty(String key, String value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            if (KraftConfig.RESERVED_PROPERTIES.contains(key)) {
                throw new IllegalArgumentException("Broker property " + key + " is managed by KafkaBroker");
            }
            brokerProperties.put(key, value);
            return this;
        }

        /** {@link #brokerProperty(String, String)} for each entry. */
        public Builder brokerProperties(Map<String, String> properties) {
            properties.forEach(this::brokerProperty);
            return this;
        }

        /**
         * Directory in which the broker's own work directory ({@code columnar-kafka-broker-*}, holding
         * {@code data/} = {@code log.dirs}, {@code broker.log} and the config files) is created. Default
         * {@code java.io.tmpdir}. Only the work directory is deleted on close, never {@code baseDir}.
         */
        public Builder baseDir(Path baseDir) {
            this.baseDir = Objects.requireNonNull(baseDir, "baseDir");
            return this;
        }

        /** The broker's {@code transaction.max.timeout.ms}. Default 15 minutes. */
        public Builder transactionMaxTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive: " + timeout);
            }
            this.transactionMaxTimeout = timeout;
            return this;
        }

        /** How long to wait for the broker to answer {@code describeCluster}. Default 90 s. */
        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** How long {@link KafkaBroker#close()} waits after {@code destroy()} before forcing. Default 20 s. */
        public Builder shutdownTimeout(Duration timeout) {
            this.shutdownTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** The child JVM's {@code -Xmx} value, e.g. {@code "512m"} (default) or {@code "1g"}. */
        public Builder maxHeap(String maxHeap) {
            this.maxHeap = Objects.requireNonNull(maxHeap, "maxHeap");
            return this;
        }

        /** An extra child JVM argument, e.g. {@code "-XX:TieredStopAtLevel=1"}. */
        public Builder jvmArg(String arg) {
            jvmArgs.add(Objects.requireNonNull(arg, "arg"));
            return this;
        }

        /**
         * The child JVM's classpath. Default: this JVM's {@code java.class.path}. It must hold the Kafka broker jars
         * and this module.
         */
        public Builder classpath(String classpath) {
            this.classpath = Objects.requireNonNull(classpath, "classpath");
            return this;
        }

        /** The {@code java} binary for the child JVMs. Default: {@code java.home}/bin/java of this JVM. */
        public Builder javaExecutable(Path java) {
            this.javaExecutable = Objects.requireNonNull(java, "java");
            return this;
        }

        /** Keep the work directory (logs, data) after close, for debugging. Default false. */
        public Builder keepFilesOnClose(boolean keep) {
            this.keepFilesOnClose = keep;
            return this;
        }

        /** Root log level of the broker's log4j2 config ({@code broker.log}). Default WARN. */
        public Builder logLevel(String level) {
            this.logLevel = Objects.requireNonNull(level, "level");
            return this;
        }

        /**
         * Format the storage in a child JVM ({@code kafka.tools.StorageTool}) instead of in this JVM. Default false:
         * in-process formatting is about a JVM start faster and loads only Kafka's config and metadata classes.
         */
        public Builder formatInChildJvm(boolean childJvm) {
            this.formatInChildJvm = childJvm;
            return this;
        }

        /** Formats storage, launches the broker and waits until it is ready. */
        public KafkaBroker start() {
            return KafkaBroker.start(copy());
        }

        private Builder copy() {
            Builder b = new Builder();
            b.defaultPartitions = defaultPartitions;
            b.brokerProperties.putAll(brokerProperties);
            b.baseDir = baseDir;
            b.transactionMaxTimeout = transactionMaxTimeout;
            b.startupTimeout = startupTimeout;
            b.shutdownTimeout = shutdownTimeout;
            b.maxHeap = maxHeap;
            b.jvmArgs.addAll(jvmArgs);
            b.classpath = classpath;
            b.javaExecutable = javaExecutable;
            b.keepFilesOnClose = keepFilesOnClose;
            b.logLevel = logLevel;
            b.formatInChildJvm = formatInChildJvm;
            return b;
        }
    }
}
