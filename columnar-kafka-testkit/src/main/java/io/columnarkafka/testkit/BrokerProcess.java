package io.columnarkafka.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;

/**
 * One Kafka node (combined KRaft broker and controller) as a child JVM with its own work directory: it can be
 * stopped gracefully, killed with {@code SIGKILL} and started again on the same ports and the same data, as a fault
 * test needs. {@link KafkaBroker} runs one; {@link KafkaCluster} runs several.
 *
 * <p>The work directory holds {@code server.properties}, {@code log4j2.xml}, {@code format.log}, {@code broker.log}
 * (the child's stdout and stderr, appended across restarts) and {@code data/} (Kafka's {@code log.dirs}, which also
 * holds the KRaft metadata log). The child runs {@code kafka.Kafka} through the launcher {@code BrokerMain}, which
 * halts it when its standard input, a pipe from this JVM, closes: on {@link #close()} and when this JVM dies, even by
 * {@code SIGKILL}. {@link #stop()} and {@link #kill()} signal the process without closing that pipe, so the data
 * survives them. A JVM shutdown hook kills the child and deletes the work directory if {@link #close()} was not
 * called.
 *
 * <p>Instances are thread-safe.
 */
public final class BrokerProcess implements AutoCloseable {

    private static final int LOG_TAIL_LINES = 60;

    private final KraftConfig.Node node;
    private final Path workDir;
    private final Path propertiesFile;
    private final Path log4jFile;
    private final Path brokerLog;
    private final BrokerJvm jvm;
    private final boolean keepFilesOnClose;
    private final Thread shutdownHook;
    private Process process;
    private Duration startupTime = Duration.ZERO;
    private boolean closed;

    private BrokerProcess(KraftConfig.Node node, Path workDir, BrokerJvm jvm, boolean keepFilesOnClose) {
        this.node = node;
        this.workDir = workDir;
        this.propertiesFile = workDir.resolve("server.properties");
        this.log4jFile = workDir.resolve("log4j2.xml");
        this.brokerLog = workDir.resolve("broker.log");
        this.jvm = jvm;
        this.keepFilesOnClose = keepFilesOnClose;
        this.shutdownHook = new Thread(this::killAndClean, "kafka-broker-shutdown-" + node.port());
    }

    /**
     * Writes the configuration of {@code node} (one of {@code nodes}) into {@code workDir} and formats its storage
     * with {@code clusterId}; the process is not started yet.
     */
    static BrokerProcess format(KraftConfig.Node node, List<KraftConfig.Node> nodes, Path workDir, BrokerJvm jvm,
                                Map<String, String> properties, String clusterId, boolean keepFilesOnClose)
            throws IOException {
        BrokerProcess broker = new BrokerProcess(node, workDir, jvm, keepFilesOnClose);
        Files.createDirectories(workDir);
        Files.writeString(broker.propertiesFile, KraftConfig.write(properties));
        Files.writeString(broker.log4jFile, KraftConfig.log4j(jvm.logLevel()));
        broker.formatStorage(KraftConfig.formatArguments(clusterId, broker.propertiesFile, nodes.size()));
        Runtime.getRuntime().addShutdownHook(broker.shutdownHook);
        return broker;
    }

    // ------------------------------------------------------------------------------------------ accessors

    /** This node's {@code node.id}. */
    public int nodeId() {
        return node.id();
    }

    /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + node.port();
    }

    /** The PLAINTEXT listener port; the same across restarts. */
    public int port() {
        return node.port();
    }

    /** The CONTROLLER listener port; the same across restarts. */
    public int controllerPort() {
        return node.controllerPort();
    }

    /** This node's work directory. */
    public Path workDir() {
        return workDir;
    }

    /** Kafka's {@code log.dirs}; kept across {@link #stop()}, {@link #kill()} and restarts. */
    public Path dataDir() {
        return workDir.resolve("data");
    }

    /** The child JVM's stdout and stderr, appended across restarts. */
    public Path brokerLogFile() {
        return brokerLog;
    }

    /** The last {@code lines} lines of {@link #brokerLogFile()}. */
    public String logTail(int lines) {
        return FileUtil.tail(brokerLog, lines);
    }

    /** The current (or last) child JVM's process handle. */
    public synchronized ProcessHandle process() {
        if (process == null) {
            throw new IllegalStateException("node " + node.id() + " was never started");
        }
        return process.toHandle();
    }

    /** Whether the child JVM is alive. */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Time from launching the child JVM to readiness, of the last start. */
    public synchronized Duration startupTime() {
        return startupTime;
    }

    // ------------------------------------------------------------------------------------------ lifecycle

    /** Launches the child JVM and waits until the node answers {@code describeCluster} listing itself. */
    public void start() {
        long launched = launch();
        awaitReady();
        synchronized (this) {
            startupTime = Duration.ofNanos(System.nanoTime() - launched);
        }
    }

    /** Launches the child JVM on the same ports and data without waiting; returns the launch time (nanoTime). */
    synchronized long launch() {
        if (closed) {
            throw new IllegalStateException("node " + node.id() + " is closed");
        }
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("node " + node.id() + " is already running (pid " + process.pid() + ")");
        }
        try {
            List<String> command = new ArrayList<>(jvm.command(workDir, log4jFile, "broker"));
            command.add(BrokerMain.class.getName());
            command.add(keepFilesOnClose ? "-" : workDir.toString());
            command.add(propertiesFile.toString());
            long launched = System.nanoTime();
            process = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(brokerLog.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
            return launched;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not launch Kafka node " + node.id(), e);
        }
    }

    /**
     * Waits until the node answers {@code describeCluster} and lists itself, within the start-up timeout; stops the
     * child on failure. The Admin client is created only once the port accepts connections, so it does not log a
     * warning per refused connection while the JVM starts.
     *
     * @throws PortConflictException if the child exited because a port was taken
     */
    void awaitReady() {
        Process current;
        synchronized (this) {
            current = process;
        }
        Duration timeout = jvm.startupTimeout();
        long deadline = System.nanoTime() + timeout.toNanos();
        Throwable last = null;
        Admin admin = null;
        boolean ready = false;
        try {
            while (true) {
                if (!current.isAlive()) {
                    String tail = logTail(LOG_TAIL_LINES);
                    String message = "Kafka broker child JVM exited with code " + current.exitValue()
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
                            + ". Tail of " + brokerLog + ":\n" + logTail(LOG_TAIL_LINES));
                }
                if (admin == null) {
                    if (!canConnect(node.port())) {
                        sleep(100);
                        continue;
                    }
                    admin = Admin.create(ClusterAdmin.adminProperties(bootstrapServers()));
                }
                try {
                    Collection<Node> nodes = admin.describeCluster().nodes()
                            .get(Math.min(remainingMs, 3000), TimeUnit.MILLISECONDS);
                    if (nodes.stream().anyMatch(n -> n.id() == node.id())) {
                        ready = true;
                        return;
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
            if (admin != null) {
                admin.close(Duration.ZERO);
            }
            if (!ready) {
                terminate(current, Duration.ofSeconds(5));
            }
        }
    }

    /**
     * Stops the node gracefully ({@code SIGTERM}: Kafka's controlled shutdown), waiting up to the shutdown timeout
     * before {@code SIGKILL}. The data stays for {@link #start()}.
     */
    public synchronized void stop() {
        if (process != null) {
            signalAndWait(process.toHandle(), false, jvm.shutdownTimeout());
        }
    }

    /** Kills the node with {@code SIGKILL} (no shutdown of any kind) and waits for it to exit. The data stays. */
    public synchronized void kill() {
        if (process != null) {
            signalAndWait(process.toHandle(), true, Duration.ofSeconds(30));
        }
    }

    /** {@link #stop()} if running, then {@link #start()} on the same ports and data. */
    public void restart() {
        stop();
        start();
    }

    /**
     * Stops the child (closing its standard input makes it halt at once), waits for it to exit and deletes the work
     * directory unless files are kept. Idempotent.
     *
     * @throws IllegalStateException if the child JVM does not exit
     * @throws UncheckedIOException if the work directory cannot be deleted
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // JVM already shutting down; the hook cleans up
        }
        if (process != null && !terminate(process, jvm.shutdownTimeout())) {
            throw new IllegalStateException("Kafka broker child JVM (pid " + process.pid() + ") did not exit");
        }
        if (!keepFilesOnClose) {
            try {
                FileUtil.deleteRecursively(workDir);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not delete broker work dir " + workDir, e);
            }
        }
    }

    @Override
    public synchronized String toString() {
        return "BrokerProcess[node " + node.id() + ", " + bootstrapServers()
                + (process == null ? "" : ", pid " + process.pid() + (process.isAlive() ? "" : " (exited)"))
                + ", " + workDir + "]";
    }

    private synchronized void killAndClean() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!keepFilesOnClose) {
            FileUtil.deleteRecursivelyQuietly(workDir);
        }
    }

    private void formatStorage(String[] args) throws IOException {
        Path formatLog = workDir.resolve("format.log");
        if (jvm.formatInChildJvm()) {
            List<String> command = new ArrayList<>(jvm.command(workDir, log4jFile, "format"));
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

    /** destroy (which closes the child's stdin: it halts), wait, destroyForcibly, wait. Whether it exited. */
    private static boolean terminate(Process process, Duration gracefulTimeout) {
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

    /** A signal through the handle, which, unlike {@link Process#destroy()}, leaves the child's stdin open. */
    private static void signalAndWait(ProcessHandle handle, boolean force, Duration timeout) {
        if (!handle.isAlive()) {
            return;
        }
        if (force) {
            handle.destroyForcibly();
        } else {
            handle.destroy();
        }
        try {
            handle.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            handle.destroyForcibly();
            handle.onExit().join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while stopping pid " + handle.pid(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
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

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    /** The child exited because a port it was to bind was taken meanwhile; a new start with new ports may succeed. */
    static final class PortConflictException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortConflictException(String message) {
            super(message);
        }
    }
}
