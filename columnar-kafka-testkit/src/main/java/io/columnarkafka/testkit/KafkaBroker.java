package io.columnarkafka.testkit;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;

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

    private static final String LOG4J_SLF4J_PROVIDER = "org.apache.logging.slf4j.SLF4JServiceProvider";
    private static final int MAX_START_ATTEMPTS = 3;
    private static final int LOG_TAIL_LINES = 60;
    private static final Set<String> RESERVED_PROPERTIES = Set.of(
            "process.roles", "node.id", "listeners", "advertised.listeners", "controller.listener.names",
            "controller.quorum.bootstrap.servers", "controller.quorum.voters", "inter.broker.listener.name",
            "listener.security.protocol.map", "log.dirs", "log.dir", "metadata.log.dir");

    private final Builder options;
    private final Path workDir;
    private final Path dataDir;
    private final Path brokerLog;
    private final String clusterId;
    private final int port;
    private final int controllerPort;
    private final Process process;
    private final Admin admin;
    private final Thread shutdownHook;
    private final Duration startupTime;
    private final AtomicBoolean closed = new AtomicBoolean();

    private KafkaBroker(Builder options, Path workDir, String clusterId, int port, int controllerPort,
                        Process process, Admin admin, Thread shutdownHook, Duration startupTime) {
        this.options = options;
        this.workDir = workDir;
        this.dataDir = workDir.resolve("data");
        this.brokerLog = workDir.resolve("broker.log");
        this.clusterId = clusterId;
        this.port = port;
        this.controllerPort = controllerPort;
        this.process = process;
        this.admin = admin;
        this.shutdownHook = shutdownHook;
        this.startupTime = startupTime;
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
        return "127.0.0.1:" + port;
    }

    /** The PLAINTEXT listener port. */
    public int port() {
        return port;
    }

    /** The CONTROLLER listener port. */
    public int controllerPort() {
        return controllerPort;
    }

    /** The cluster id the storage was formatted with. */
    public String clusterId() {
        return clusterId;
    }

    /** This broker's work directory; deleted by {@link #close()} unless {@link Builder#keepFilesOnClose}. */
    public Path workDir() {
        return workDir;
    }

    /** Kafka's {@code log.dirs} (topic data and the KRaft metadata log). */
    public Path dataDir() {
        return dataDir;
    }

    /** The child JVM's stdout and stderr. */
    public Path brokerLogFile() {
        return brokerLog;
    }

    /** The last {@code lines} lines of {@link #brokerLogFile()}. */
    public String logTail(int lines) {
        return FileUtil.tail(brokerLog, lines);
    }

    /** The child JVM's process handle (pid, liveness, {@code onExit()}). */
    public ProcessHandle process() {
        return process.toHandle();
    }

    /** Whether the child JVM is alive. */
    public boolean isRunning() {
        return process.isAlive();
    }

    /** Time from launching the child JVM (after formatting) to readiness, for the record. */
    public Duration startupTime() {
        return startupTime;
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

    /** A new Admin client for this broker; the caller closes it. */
    public Admin createAdmin() {
        return Admin.create(adminProperties(bootstrapServers()));
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
        Objects.requireNonNull(name, "name");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        ensureOpen();
        NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(topicConfigs);
        try {
            admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                throw new IllegalStateException("Topic already exists: " + name, e.getCause());
            }
            throw new IllegalStateException("Could not create topic " + name + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + name, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Timed out creating topic " + name + "\n" + logTail(LOG_TAIL_LINES), e);
        }
        awaitLeaders(name, partitions, Duration.ofSeconds(30));
    }

    /** Deletes a topic and waits for the deletion to be accepted. */
    public void deleteTopic(String name) {
        ensureOpen();
        try {
            admin.deleteTopics(List.of(name)).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not delete topic " + name + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while deleting topic " + name, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Timed out deleting topic " + name, e);
        }
    }

    /** All transactions the broker knows, with their states (see {@link TopicVerifier#listTransactions(Admin)}). */
    public List<TransactionInfo> listTransactions() {
        ensureOpen();
        return TopicVerifier.listTransactions(admin);
    }

    private void awaitLeaders(String name, int partitions, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                TopicDescription description = admin.describeTopics(List.of(name)).allTopicNames()
                        .get(5, TimeUnit.SECONDS).get(name);
                if (description != null && description.partitions().size() == partitions
                        && description.partitions().stream().map(TopicPartitionInfo::leader)
                                .allMatch(leader -> leader != null && !leader.isEmpty())) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for topic " + name, e);
            } catch (ExecutionException | TimeoutException e) {
                last = e; // UnknownTopicOrPartition until the metadata has propagated
            }
            sleep(50);
        }
        throw new IllegalStateException("Topic " + name + " has no leader for all " + partitions
                + " partitions after " + timeout + (last == null ? "" : ": " + last), last);
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
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // JVM already shutting down; the hook does nothing now that closed is set
        }
        try {
            admin.close(Duration.ofSeconds(2));
        } catch (RuntimeException e) {
            // closing a client of a broker that is about to go away: nothing to do
        }
        boolean exited = stopProcess(process, options.shutdownTimeout);
        if (!exited) {
            throw new IllegalStateException("Kafka broker child JVM (pid " + process.pid() + ") did not exit");
        }
        if (!options.keepFilesOnClose) {
            try {
                FileUtil.deleteRecursively(workDir);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not delete broker work dir " + workDir, e);
            }
        }
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("KafkaBroker is closed");
        }
    }

    @Override
    public String toString() {
        return "KafkaBroker[" + bootstrapServers() + ", pid " + process.pid() + ", " + workDir + "]";
    }

    /** destroy, wait, destroyForcibly, wait. Returns whether the process has exited. */
    private static boolean stopProcess(Process process, Duration gracefulTimeout) {
        if (!process.isAlive()) {
            return true;
        }
        process.destroy();
        try {
            if (process.waitFor(gracefulTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
            process.destroyForcibly();
            return process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
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
                try {
                    return launch(options, workDir);
                } catch (PortConflictException e) {
                    if (attempt >= MAX_START_ATTEMPTS) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                    FileUtil.deleteRecursively(workDir.resolve("data"));
                    Files.deleteIfExists(workDir.resolve("broker.log"));
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

    private static KafkaBroker launch(Builder options, Path workDir) throws IOException {
        int[] ports = freePorts(2);
        int port = ports[0];
        int controllerPort = ports[1];
        Path dataDir = workDir.resolve("data");
        Path propertiesFile = workDir.resolve("server.properties");
        Path log4jFile = workDir.resolve("log4j2.xml");
        Path brokerLog = workDir.resolve("broker.log");
        Files.writeString(propertiesFile, serverProperties(options, port, controllerPort, dataDir));
        Files.writeString(log4jFile, log4jConfig(options.logLevel));
        String clusterId = Uuid.randomUuid().toString();

        format(options, workDir, propertiesFile, log4jFile, clusterId);

        List<String> command = new ArrayList<>(javaCommand(options, workDir, log4jFile, "broker"));
        command.add(BrokerMain.class.getName());
        command.add(options.keepFilesOnClose ? "-" : workDir.toString());
        command.add(propertiesFile.toString());
        long launched = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(brokerLog.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        Thread hook = new Thread(() -> {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!options.keepFilesOnClose) {
                FileUtil.deleteRecursivelyQuietly(workDir);
            }
        }, "kafka-broker-shutdown-" + port);
        Runtime.getRuntime().addShutdownHook(hook);

        Admin admin;
        try {
            admin = awaitReady(process, brokerLog, port, options.startupTimeout);
        } catch (RuntimeException | Error e) {
            stopProcess(process, Duration.ofSeconds(5));
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down
            }
            throw e;
        }
        Duration startupTime = Duration.ofNanos(System.nanoTime() - launched);
        KafkaBroker broker = new KafkaBroker(options.copy(), workDir, clusterId, port, controllerPort, process, admin,
                hook, startupTime);
        return broker;
    }

    private static void format(Builder options, Path workDir, Path propertiesFile, Path log4jFile, String clusterId)
            throws IOException {
        String[] args = {"format", "-t", clusterId, "-c", propertiesFile.toString(), "--standalone"};
        Path formatLog = workDir.resolve("format.log");
        if (options.formatInChildJvm) {
            List<String> command = new ArrayList<>(javaCommand(options, workDir, log4jFile, "format"));
            command.add("kafka.tools.StorageTool");
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(formatLog.toFile())
                    .start();
            boolean done;
            try {
                done = p.waitFor(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while formatting Kafka storage", e);
            }
            if (!done) {
                p.destroyForcibly();
                throw new IllegalStateException("Formatting Kafka storage timed out:\n" + FileUtil.tail(formatLog, 40));
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("Formatting Kafka storage failed (exit " + p.exitValue() + "):\n"
                        + FileUtil.tail(formatLog, 40));
            }
        } else {
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            int exit;
            try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
                exit = kafka.tools.StorageTool.execute(args, out);
            } catch (Exception e) {
                // TerseFailure and configuration errors
                throw new IllegalStateException("Formatting Kafka storage failed: " + e.getMessage()
                        + "\n" + output.toString(StandardCharsets.UTF_8), e);
            } finally {
                Files.write(formatLog, output.toByteArray());
            }
            if (exit != 0) {
                throw new IllegalStateException("Formatting Kafka storage failed (exit " + exit + "):\n"
                        + output.toString(StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * Waits until the broker answers describeCluster and lists itself; returns the Admin client used, open. The
     * Admin client is created only once the port accepts connections, so it does not log a warning per refused
     * connection while the broker JVM starts.
     */
    private static Admin awaitReady(Process process, Path brokerLog, int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Throwable last = null;
        Admin admin = null;
        boolean ready = false;
        try {
            while (true) {
                if (!process.isAlive()) {
                    String tail = FileUtil.tail(brokerLog, LOG_TAIL_LINES);
                    String message = "Kafka broker child JVM exited with code " + process.exitValue()
                            + " before becoming ready. Tail of " + brokerLog + ":\n" + tail;
                    if (tail.contains("Address already in use") || tail.contains("BindException")) {
                        throw new PortConflictException(message);
                    }
                    throw new IllegalStateException(message);
                }
                long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (remainingMs <= 0) {
                    throw new IllegalStateException("Kafka broker not ready after " + timeout
                            + (last == null ? "" : " (last error: " + last + ")")
                            + ". Tail of " + brokerLog + ":\n" + FileUtil.tail(brokerLog, LOG_TAIL_LINES));
                }
                if (admin == null) {
                    if (!canConnect(port)) {
                        sleep(100);
                        continue;
                    }
                    admin = Admin.create(adminProperties("127.0.0.1:" + port));
                }
                try {
                    Collection<Node> nodes = admin.describeCluster().nodes()
                            .get(Math.min(remainingMs, 3000), TimeUnit.MILLISECONDS);
                    if (nodes.stream().anyMatch(n -> n.id() == 1)) {
                        ready = true;
                        return admin;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while waiting for the Kafka broker", e);
                } catch (ExecutionException e) {
                    last = e.getCause();
                } catch (TimeoutException e) {
                    last = e;
                }
                sleep(100);
            }
        } finally {
            if (!ready && admin != null) {
                admin.close(Duration.ZERO);
            }
        }
    }

    private static boolean canConnect(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Properties adminProperties(String bootstrap) {
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

    /** System property naming a child JVM's role, "broker" or "format", early on its command line for ps. */
    static final String ROLE_PROPERTY = "columnarkafka.testkit.role";

    private static List<String> javaCommand(Builder options, Path workDir, Path log4jFile, String role)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable(options));
        command.add("-D" + ROLE_PROPERTY + "=" + role);
        command.add("-Xmx" + options.maxHeap);
        command.add("-XX:+UseSerialGC");
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.add("-Djava.awt.headless=true");
        command.add("-Dlog4j2.configurationFile=" + log4jFile.toUri());
        command.add("-Dkafka.logs.dir=" + workDir);
        if (isOnClasspath(LOG4J_SLF4J_PROVIDER)) {
            command.add("-Dslf4j.provider=" + LOG4J_SLF4J_PROVIDER);
        }
        command.addAll(options.jvmArgs);
        String classpath = absoluteClasspath(
                options.classpath != null ? options.classpath : System.getProperty("java.class.path"));
        if (classpath.length() > 32 * 1024) {
            // Linux limits one argument to 128 KiB; a java @argfile has no such limit.
            Path argFile = workDir.resolve("classpath.args");
            String quoted = classpath.replace("\\", "\\\\").replace("\"", "\\\"");
            Files.writeString(argFile, "-cp \"" + quoted + "\"\n");
            command.add("@" + argFile);
        } else {
            command.add("-cp");
            command.add(classpath);
        }
        return command;
    }

    /** The child runs in the work dir, so relative entries (e.g. {@code -cp target/classes}) are made absolute. */
    static String absoluteClasspath(String classpath) {
        if (classpath == null || classpath.isEmpty()) {
            throw new IllegalStateException("java.class.path is empty; pass Builder.classpath(...)");
        }
        List<String> entries = new ArrayList<>();
        for (String entry : classpath.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.endsWith("*")) { // a java wildcard entry: dir/*
                String dir = entry.substring(0, entry.length() - 1);
                entries.add((dir.isEmpty() ? Path.of("") : Path.of(dir)).toAbsolutePath() + File.separator + "*");
            } else {
                entries.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static String javaExecutable(Builder options) {
        if (options.javaExecutable != null) {
            return options.javaExecutable.toString();
        }
        Path fromHome = Path.of(System.getProperty("java.home"), "bin",
                System.getProperty("os.name", "").toLowerCase().startsWith("windows") ? "java.exe" : "java");
        if (Files.isExecutable(fromHome)) {
            return fromHome.toString();
        }
        return ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("Cannot find the java executable; set javaExecutable"));
    }

    private static boolean isOnClasspath(String className) {
        try {
            Class.forName(className, false, KafkaBroker.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    static String serverProperties(Builder options, int port, int controllerPort, Path dataDir) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", dataDir.toString());
        p.put("num.partitions", Integer.toString(options.defaultPartitions));
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("transaction.max.timeout.ms", Long.toString(options.transactionMaxTimeout.toMillis()));
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "false");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        p.put("background.threads", "4");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.putAll(options.brokerProperties);
        StringBuilder out = new StringBuilder("# Written by io.columnarkafka.testkit.KafkaBroker\n");
        p.forEach((key, value) -> out.append(key).append('=').append(escapePropertyValue(value)).append('\n'));
        return out.toString();
    }

    private static String escapePropertyValue(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    static String log4jConfig(String level) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- Written by io.columnarkafka.testkit.KafkaBroker: quiet broker logging to stdout (broker.log). -->
                <Configuration status="WARN">
                  <Appenders>
                    <Console name="STDOUT" target="SYSTEM_OUT">
                      <PatternLayout pattern="[%d{HH:mm:ss.SSS}] %-5p [%t] %c - %m%n"/>
                    </Console>
                  </Appenders>
                  <Loggers>
                    <Logger name="kafka.server.KafkaRaftServer" level="INFO"/>
                    <Root level="LEVEL">
                      <AppenderRef ref="STDOUT"/>
                    </Root>
                  </Loggers>
                </Configuration>
                """.replace("LEVEL", level);
    }

    private static int[] freePorts(int count) throws IOException {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket();
                sockets[i].setReuseAddress(true);
                sockets[i].bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    private static final class PortConflictException extends RuntimeException {
        PortConflictException(String message) {
            super(message);
        }
    }

    // ------------------------------------------------------------------------------------------ builder

    /** Options for {@link KafkaBroker}. Not thread-safe; {@link #start()} copies it. */
    /**
     * System property naming the Kafka broker jars to run instead of this JVM's: a classpath string, or
     * {@code @<file>} for a file holding one (as the testkit's build writes to {@code target/broker.classpath}).
     */
    public static final String BROKER_CLASSPATH_PROPERTY = "columnarkafka.broker.classpath";

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
            String brokerJars = brokerJars(System.getProperty(BROKER_CLASSPATH_PROPERTY));
            if (brokerJars != null && !brokerJars.isBlank()) {
                classpath = brokerJars + File.pathSeparator
                        + KafkaBroker.class.getProtectionDomain().getCodeSource().getLocation().getPath();
                formatInChildJvm = true;
            }
        }

        /** The classpath the property names: as given, or read from the file after an {@code @}. */
        private static String brokerJars(String property) {
            if (property == null || !property.startsWith("@")) {
                return property;
            }
            try {
                return Files.readString(Path.of(property.substring(1))).trim();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the broker classpath file " + property.substring(1), e);
            }
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
            if (RESERVED_PROPERTIES.contains(key)) {
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
