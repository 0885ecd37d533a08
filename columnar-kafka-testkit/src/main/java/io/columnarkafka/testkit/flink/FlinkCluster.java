package io.columnarkafka.testkit.flink;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real standalone Flink session cluster of separate JVMs, as {@code bin/start-cluster.sh} starts one: one job
 * manager ({@code StandaloneSessionClusterEntrypoint}) and one or more task managers ({@code TaskManagerRunner}),
 * each on the given classpath (a Flink distribution's {@code lib/}, e.g. from Maven jars) with a generated
 * {@code FLINK_CONF_DIR}. Jobs are submitted over REST ({@link #restPort()}). Each task manager can be killed with
 * {@code SIGKILL} and started again ({@link FlinkProcess}). This class compiles without Flink: it only launches
 * processes, writes {@code config.yaml} and polls the REST API.
 *
 * <p>Memory is configured as the scripts pass it: the task manager's memory components explicitly, and its JVM
 * sized to match. Every process runs through {@link ParentWatch}, so none outlives the test JVM.
 */
public final class FlinkCluster implements AutoCloseable {
    /** Default bound for the cluster to report its task managers' slots. */
    public static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    /** JVM options Flink's distribution passes to every process; Arrow needs java.nio opened. */
    public static final List<String> JVM_OPENS = List.of(
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");

    private static final Pattern SLOTS_NUMBER = Pattern.compile("\"slotsNumber\":([0-9]+)");
    private static final Pattern FREE_SLOTS = Pattern.compile("\"freeSlots\":([0-9]+)");
    private static final Pattern CHECKPOINTS_IN_PROGRESS = Pattern.compile("\"in_progress\":([0-9]+)");

    private final Path dir;
    private final List<Path> classpath;
    private final int restPort;
    private final int slotsPerTaskManager;
    private final FlinkProcess jobManager;
    private final List<FlinkProcess> taskManagers = new ArrayList<>();
    private final List<FlinkProcess> others = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private FlinkCluster(Builder options, int restPort) {
        this.dir = options.dir;
        this.classpath = List.copyOf(options.classpath);
        this.restPort = restPort;
        this.slotsPerTaskManager = options.slotsPerTaskManager;
        this.jobManager = process("jobmanager", "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                jvmArgs(List.of("-Xmx512m", "-Xms512m", "-XX:+UseSerialGC"), options.jvmOptions),
                "--configDir", confDir().toString());
        for (int i = 1; i <= options.taskManagers; i++) {
            taskManagers.add(process("taskmanager-" + i, "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                    jvmArgs(taskManagerJvmArgs(options.taskManagerJvmOptions), options.jvmOptions),
                    "--configDir", confDir().toString(), "-D", "taskmanager.resource-id=taskmanager-" + i));
        }
    }

    private static List<String> taskManagerJvmArgs(List<String> extra) {
        return jvmArgs(List.of("-Xmx384m", "-Xms384m", "-XX:MaxDirectMemorySize=320m", "-XX:MaxMetaspaceSize=256m",
                "-XX:+UseSerialGC"), extra);
    }

    private static List<String> jvmArgs(List<String> own, List<String> extra) {
        List<String> args = new ArrayList<>(own);
        args.addAll(extra);
        return args;
    }

    /** A cluster whose processes run on {@code classpath} (Flink's lib/ and whatever the jobs need), in {@code dir}. */
    public static Builder builder(List<Path> classpath, Path dir) {
        return new Builder(classpath, dir);
    }

    /** The REST port of the job manager, for {@code createRemoteEnvironment("localhost", port)}. */
    public int restPort() {
        return restPort;
    }

    /** The generated {@code FLINK_CONF_DIR}. */
    public Path confDir() {
        return dir.resolve("conf");
    }

    /** The job manager process. */
    public FlinkProcess jobManager() {
        return jobManager;
    }

    /** The task manager processes, {@code taskmanager-1} first. */
    public List<FlinkProcess> taskManagers() {
        return List.copyOf(taskManagers);
    }

    /** The last 60 lines of a process's log, for failure messages. */
    public String logTail(FlinkProcess process) {
        try {
            List<String> lines = Files.readAllLines(process.log());
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no " + process.log() + ": " + e + ")";
        }
    }

    /** Every process's log tail. */
    public String logTails() {
        StringBuilder out = new StringBuilder();
        out.append("--- ").append(jobManager.name()).append('\n').append(logTail(jobManager)).append('\n');
        for (FlinkProcess tm : taskManagers) {
            out.append("--- ").append(tm.name()).append('\n').append(logTail(tm)).append('\n');
        }
        return out.toString();
    }

    /**
     * Starts another process on the cluster's classpath and configuration (e.g. a SQL client), plus
     * {@code extraClasspath}; it is stopped with the cluster.
     */
    public FlinkProcess launch(String name, String mainClass, List<String> jvmArgs, List<Path> extraClasspath,
                               String... args) {
        FlinkProcess process = process(name, mainClass, jvmArgs, extraClasspath, args);
        others.add(process);
        process.start();
        return process;
    }

    /** GET {@code path} of the REST API (e.g. {@code /jobs/<id>/checkpoints}); the body. */
    public String restGet(String path) {
        try {
            HttpRequest request = HttpRequest.newBuilder(new URI("http://localhost:" + restPort + path))
                    .timeout(Duration.ofSeconds(5)).build();
            return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Polls {@code /jobs/<jobId>/checkpoints} until the job has a checkpoint in progress, so a fault can hit one in
     * flight; fails after {@code timeout} with the last answer.
     */
    public void awaitCheckpointInFlight(String jobId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            last = restGet("/jobs/" + jobId + "/checkpoints");
            Matcher m = CHECKPOINTS_IN_PROGRESS.matcher(last);
            if (m.find() && Integer.parseInt(m.group(1)) > 0) {
                return;
            }
            sleep(50);
        }
        throw new IllegalStateException("no checkpoint in flight within " + timeout + ": " + last);
    }

    /**
     * The task managers running tasks now (the REST API shows fewer free slots than slots for them), by their
     * resource ids, which are their {@link FlinkProcess#name()}s.
     */
    public List<FlinkProcess> taskManagersRunningTasks() {
        String answer = restGet("/taskmanagers");
        List<FlinkProcess> busy = new ArrayList<>();
        for (FlinkProcess tm : taskManagers) {
            int at = answer.indexOf("\"id\":\"" + tm.name() + "\"");
            if (at < 0) {
                continue;
            }
            int next = answer.indexOf("\"id\":\"taskmanager-", at + 1);
            String entry = answer.substring(at, next < 0 ? answer.length() : next);
            Matcher slots = SLOTS_NUMBER.matcher(entry);
            Matcher free = FREE_SLOTS.matcher(entry);
            if (slots.find() && free.find() && Integer.parseInt(free.group(1)) < Integer.parseInt(slots.group(1))) {
                busy.add(tm);
            }
        }
        return busy;
    }

    /** Waits until {@code count} task managers have registered all their slots. */
    public void awaitTaskManagers(int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!jobManager.isRunning()) {
                throw new IllegalStateException("the job manager exited\n" + logTails());
            }
            try {
                last = restGet("/overview");
                if (last.contains("\"taskmanagers\":" + count + ",")
                        && last.contains("\"slots-total\":" + count * slotsPerTaskManager + ",")) {
                    return;
                }
            } catch (UncheckedIOException e) {
                last = e.getCause().toString();
            }
            sleep(500);
        }
        throw new IllegalStateException("cluster without " + count + " task managers after " + timeout + ": " + last
                + "\n" + logTails());
    }

    /** Stops every process (closing their stdin halts them). */
    @Override
    public void close() {
        others.forEach(FlinkProcess::stop);
        taskManagers.forEach(FlinkProcess::stop);
        jobManager.stop();
    }

    private FlinkProcess process(String name, String mainClass, List<String> jvmArgs, String... args) {
        return process(name, mainClass, jvmArgs, List.of(), args);
    }

    private FlinkProcess process(String name, String mainClass, List<String> jvmArgs, List<Path> extraClasspath,
                                 String... args) {
        List<String> cp = new ArrayList<>();
        classpath.forEach(entry -> cp.add(entry.toString()));
        extraClasspath.forEach(entry -> cp.add(entry.toString()));
        cp.add(launcherDir());
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPENS);
        command.addAll(jvmArgs);
        command.add("-Dlog4j.configurationFile=" + confDir().resolve("log4j.properties"));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, cp));
        command.add(ParentWatch.class.getName());
        command.add(mainClass);
        command.addAll(List.of(args));
        return new FlinkProcess(name, command, Map.of("FLINK_CONF_DIR", confDir().toString()),
                dir.resolve(name + ".log"));
    }

    /**
     * A directory holding only the {@link ParentWatch} launcher class, for the child classpath: the processes see
     * the given classpath and nothing else of this project.
     */
    private String launcherDir() {
        return dir.resolve("launcher").toString();
    }

    private void writeLauncher() throws IOException {
        String name = ParentWatch.class.getName().replace('.', '/') + ".class";
        Path target = dir.resolve("launcher").resolve(name);
        Files.createDirectories(target.getParent());
        try (InputStream in = ParentWatch.class.getClassLoader().getResourceAsStream(name)) {
            Files.copy(Objects.requireNonNull(in, name), target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private void writeConf(int rpcPort, Map<String, String> overrides) throws IOException {
        Files.createDirectories(confDir());
        Files.createDirectories(dir.resolve("tmp"));
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("jobmanager.rpc.address", "localhost");
        conf.put("jobmanager.rpc.port", Integer.toString(rpcPort));
        conf.put("jobmanager.bind-host", "localhost");
        conf.put("jobmanager.memory.process.size", "1024m");
        conf.put("rest.address", "localhost");
        conf.put("rest.bind-address", "localhost");
        conf.put("rest.port", Integer.toString(restPort));
        conf.put("taskmanager.host", "localhost");
        conf.put("taskmanager.bind-host", "localhost");
        conf.put("taskmanager.numberOfTaskSlots", Integer.toString(slotsPerTaskManager));
        conf.put("parallelism.default", "2");
        conf.put("execution.checkpointing.interval", "1s");
        // Set explicitly, as bin/taskmanager.sh passes them (BashJavaUtils); the JVM above matches:
        // heap = framework + task heap, direct = framework + task off-heap + network.
        conf.put("taskmanager.cpu.cores", "2");
        conf.put("taskmanager.memory.framework.heap.size", "128m");
        conf.put("taskmanager.memory.task.heap.size", "256m");
        conf.put("taskmanager.memory.framework.off-heap.size", "128m");
        conf.put("taskmanager.memory.task.off-heap.size", "64m");
        conf.put("taskmanager.memory.network.min", "64m");
        conf.put("taskmanager.memory.network.max", "64m");
        conf.put("taskmanager.memory.managed.size", "64m");
        conf.put("taskmanager.memory.jvm-metaspace.size", "256m");
        conf.put("taskmanager.memory.jvm-overhead.min", "192m");
        conf.put("taskmanager.memory.jvm-overhead.max", "192m");
        conf.put("io.tmp.dirs", dir.resolve("tmp").toString());
        conf.putAll(overrides);
        StringBuilder yaml = new StringBuilder();
        conf.forEach((key, value) -> yaml.append(key).append(": ").append(value).append('\n'));
        Files.writeString(confDir().resolve("config.yaml"), yaml.toString());
        Files.writeString(confDir().resolve("log4j.properties"), String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.out.ref = out",
                "appender.out.type = Console",
                "appender.out.name = out",
                "appender.out.layout.type = PatternLayout",
                "appender.out.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                // The project's own decisions (e.g. SQL admission) at INFO; the rest of Flink at WARN.
                "logger.columnar.name = io.columnarkafka",
                "logger.columnar.level = INFO",
                "logger.flink.name = org.apache.flink",
                "logger.flink.level = WARN",
                "logger.kafka.name = org.apache.flink.kafka.shaded.org.apache.kafka",
                "logger.kafka.level = WARN",
                "logger.kafka2.name = org.apache.kafka",
                "logger.kafka2.level = WARN",
                // Timestamps of a restart's steps on a TaskManager: each task's state switches, the Kafka sink's
                // transactional producers (recovering, aborting lingering transactions) and the sources' splits.
                "logger.task.name = org.apache.flink.runtime.taskmanager.Task",
                "logger.task.level = INFO",
                "logger.kafkasink.name = org.apache.flink.connector.kafka.sink",
                "logger.kafkasink.level = INFO",
                "logger.splits.name = org.apache.flink.connector.base.source.reader.SourceReaderBase",
                "logger.splits.level = INFO",
                "logger.txn.name = org.apache.kafka.clients.producer.internals.TransactionManager",
                "logger.txn.level = INFO",
                ""));
    }

    private static int freePort() {
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

    /** Options of a {@link FlinkCluster}. */
    public static final class Builder {
        private final List<Path> classpath;
        private final Path dir;
        private int taskManagers = 1;
        private int slotsPerTaskManager = 2;
        private Duration startupTimeout = STARTUP_TIMEOUT;
        private final Map<String, String> config = new LinkedHashMap<>();
        private List<String> taskManagerJvmOptions = List.of();
        private List<String> jvmOptions = List.of();

        private Builder(List<Path> classpath, Path dir) {
            this.classpath = List.copyOf(classpath);
            this.dir = Objects.requireNonNull(dir, "dir");
        }

        /** Number of task manager JVMs. Default 1. */
        public Builder taskManagers(int count) {
            this.taskManagers = count;
            return this;
        }

        /** {@code taskmanager.numberOfTaskSlots}. Default 2. */
        public Builder slotsPerTaskManager(int slots) {
            this.slotsPerTaskManager = slots;
            return this;
        }

        /** How long {@link #start()} waits for every task manager to register. Default {@link #STARTUP_TIMEOUT}. */
        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * JVM options added to every task manager's (after the memory and GC options, so they can override them),
         * e.g. a flight recording of a restart. Default none.
         */
        public Builder taskManagerJvmOptions(List<String> options) {
            this.taskManagerJvmOptions = List.copyOf(options);
            return this;
        }

        /**
         * JVM options added to every process's, the job manager's and each task manager's (after their own and the
         * {@link #taskManagerJvmOptions}, so they override both), e.g. a system property the job's code reads
         * wherever it runs. Default none.
         */
        public Builder jvmOptions(List<String> options) {
            this.jvmOptions = List.copyOf(options);
            return this;
        }

        /** Sets or overrides one {@code config.yaml} entry. */
        public Builder config(String key, String value) {
            config.put(key, value);
            return this;
        }

        /**
         * The command line of each process {@link #start()} would launch, by name ({@code jobmanager},
         * {@code taskmanager-1}, ...), without writing or launching anything: what each JVM gets.
         */
        public Map<String, List<String>> commands() {
            FlinkCluster cluster = new FlinkCluster(this, 0);
            Map<String, List<String>> commands = new LinkedHashMap<>();
            commands.put(cluster.jobManager.name(), cluster.jobManager.command());
            cluster.taskManagers.forEach(tm -> commands.put(tm.name(), tm.command()));
            return commands;
        }

        /** Writes the configuration, starts every process and waits until all task managers are registered. */
        public FlinkCluster start() {
            FlinkCluster cluster = new FlinkCluster(this, freePort());
            try {
                cluster.writeLauncher();
                cluster.writeConf(freePort(), config);
                cluster.jobManager.start();
                cluster.taskManagers.forEach(FlinkProcess::start);
                cluster.awaitTaskManagers(taskManagers, startupTimeout);
                return cluster;
            } catch (IOException e) {
                cluster.close();
                throw new UncheckedIOException(e);
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
        }
    }
}
