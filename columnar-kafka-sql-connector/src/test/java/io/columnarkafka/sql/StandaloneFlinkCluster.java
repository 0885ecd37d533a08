package io.columnarkafka.sql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real standalone Flink session cluster: one job manager
 * ({@code StandaloneSessionClusterEntrypoint}) and one task manager ({@code TaskManagerRunner}), each its
 * own JVM on {@link FlinkLib}'s classpath and a generated {@code FLINK_CONF_DIR}, as
 * {@code bin/start-cluster.sh} starts them. Memory is configured as the scripts pass it: the task manager's
 * memory components explicitly, and its JVM sized to match.
 */
final class StandaloneFlinkCluster implements AutoCloseable {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

    private final Path dir;
    private final int restPort;
    private final List<Process> processes = new ArrayList<>();

    private StandaloneFlinkCluster(Path dir, int restPort) {
        this.dir = dir;
        this.restPort = restPort;
    }

    /** Starts the cluster; {@code libJars} are extra jars in every process's lib/ (e.g. the connector). */
    static StandaloneFlinkCluster start(FlinkLib lib, Path dir, List<Path> libJars) throws IOException {
        StandaloneFlinkCluster cluster = new StandaloneFlinkCluster(dir, freePort());
        try {
            cluster.writeConf(freePort());
            cluster.processes.add(lib.start("org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                    List.of("-Xmx512m", "-Xms512m", "-XX:+UseSerialGC"), libJars, cluster.confDir(),
                    dir.resolve("jobmanager.log"), "--configDir", cluster.confDir().toString()));
            cluster.processes.add(lib.start("org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                    List.of("-Xmx384m", "-Xms384m", "-XX:MaxDirectMemorySize=320m", "-XX:MaxMetaspaceSize=256m",
                            "-XX:+UseSerialGC"),
                    libJars, cluster.confDir(), dir.resolve("taskmanager.log"),
                    "--configDir", cluster.confDir().toString()));
            cluster.awaitTaskManager();
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    Path confDir() {
        return dir.resolve("conf");
    }

    /** The last lines of a process's log, for failure messages. */
    String logTail(String process) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve(process + ".log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no " + process + ".log: " + e + ")";
        }
    }

    private void writeConf(int rpcPort) throws IOException {
        Files.createDirectories(confDir());
        Files.createDirectories(dir.resolve("tmp"));
        Files.writeString(confDir().resolve("config.yaml"), String.join("\n",
                "jobmanager.rpc.address: localhost",
                "jobmanager.rpc.port: " + rpcPort,
                "jobmanager.bind-host: localhost",
                "jobmanager.memory.process.size: 1024m",
                "rest.address: localhost",
                "rest.bind-address: localhost",
                "rest.port: " + restPort,
                "taskmanager.host: localhost",
                "taskmanager.bind-host: localhost",
                "taskmanager.numberOfTaskSlots: 2",
                "parallelism.default: 2",
                "execution.checkpointing.interval: 1s",
                // Set explicitly, as bin/taskmanager.sh passes them (BashJavaUtils); the JVM above matches:
                // heap = framework + task heap, direct = framework + task off-heap + network.
                "taskmanager.cpu.cores: 2",
                "taskmanager.memory.framework.heap.size: 128m",
                "taskmanager.memory.task.heap.size: 256m",
                "taskmanager.memory.framework.off-heap.size: 128m",
                "taskmanager.memory.task.off-heap.size: 64m",
                "taskmanager.memory.network.min: 64m",
                "taskmanager.memory.network.max: 64m",
                "taskmanager.memory.managed.size: 64m",
                "taskmanager.memory.jvm-metaspace.size: 256m",
                "taskmanager.memory.jvm-overhead.min: 192m",
                "taskmanager.memory.jvm-overhead.max: 192m",
                "io.tmp.dirs: " + dir.resolve("tmp"),
                ""));
        Files.writeString(confDir().resolve("log4j.properties"), String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.out.ref = out",
                "appender.out.type = Console",
                "appender.out.name = out",
                "appender.out.layout.type = PatternLayout",
                "appender.out.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                // The SQL client's admission decision; the rest of Flink at WARN keeps the logs short.
                "logger.columnar.name = io.columnarkafka",
                "logger.columnar.level = INFO",
                "logger.flink.name = org.apache.flink",
                "logger.flink.level = WARN",
                "logger.kafka.name = org.apache.flink.kafka.shaded.org.apache.kafka",
                "logger.kafka.level = WARN",
                "logger.kafka2.name = org.apache.kafka",
                "logger.kafka2.level = WARN",
                ""));
    }

    /** Polls the REST API until the task manager has registered its slots. */
    private void awaitTaskManager() throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest overview = HttpRequest.newBuilder(URI.create("http://localhost:" + restPort + "/overview"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("a Flink process exited with " + p.exitValue()
                            + "\n--- jobmanager.log\n" + logTail("jobmanager")
                            + "\n--- taskmanager.log\n" + logTail("taskmanager"));
                }
            }
            try {
                last = http.send(overview, HttpResponse.BodyHandlers.ofString()).body();
                if (last.contains("\"taskmanagers\":1") && last.contains("\"slots-total\":2")) {
                    return;
                }
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(500);
        }
        throw new IllegalStateException("cluster not ready within " + STARTUP_TIMEOUT + ": " + last
                + "\n--- jobmanager.log\n" + logTail("jobmanager") + "\n--- taskmanager.log\n" + logTail("taskmanager"));
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
