package io.columnarkafka.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark run in a JVM of its own: the main class on this JVM's classpath, with Arrow's
 * {@code --add-opens} and the given JVM options, output to a log; the run writes its measurements to a
 * properties file, which is returned. A fresh JVM per run means no run inherits another's JIT profile or
 * heap, and the run's process CPU time is its own.
 */
public final class ChildJvm {
    private ChildJvm() {}

    /**
     * Runs {@code main} with {@code args} and waits for it.
     *
     * @throws IllegalStateException naming the run and its log (with the log's tail) if it fails or times out
     */
    public static Properties run(Class<?> main, List<String> args, String javaOpts, Path resultFile, Path log,
                                 Duration timeout, String label) throws Exception {
        return run(main, System.getProperty("java.class.path"), args, javaOpts, resultFile, log, timeout, label);
    }

    /** As {@link #run(Class, List, String, Path, Path, Duration, String)}, on {@code classpath}. */
    public static Properties run(Class<?> main, String classpath, List<String> args, String javaOpts, Path resultFile,
                                 Path log, Duration timeout, String label) throws Exception {
        Process child = new ProcessBuilder(command(main, classpath, args, javaOpts)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            if (!child.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(label + " did not finish in " + timeout + "; log: " + log);
            }
            if (child.exitValue() != 0) {
                throw new IllegalStateException(label + " failed (exit " + child.exitValue() + "); log " + log
                        + ":\n" + tail(log));
            }
        } finally {
            if (child.isAlive()) {
                child.destroyForcibly().waitFor();
            }
        }
        Properties measured = new Properties();
        try (InputStream in = Files.newInputStream(resultFile)) {
            measured.load(in);
        }
        return measured;
    }

    /**
     * The command line {@link #run} starts: this JVM's {@code java}, Arrow's {@code --add-opens}, {@code javaOpts}
     * split at whitespace, the classpath, {@code main} and {@code args}.
     */
    public static List<String> command(Class<?> main, String classpath, List<String> args, String javaOpts) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
        for (String opt : javaOpts.trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                command.add(opt);
            }
        }
        command.addAll(List.of("-cp", classpath, main.getName()));
        command.addAll(args);
        return command;
    }

    /**
     * CPU time of this whole JVM (all threads: tasks, client I/O, GC, JIT), which, unlike wall time, a busy
     * machine hardly distorts.
     */
    public static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * The end of a child's main: stores what {@code run} measured in {@code resultFile} (with {@code label} as its
     * comment) and exits 0; if it throws, prints the failure, leaves the innermost cause's message in {@link
     * #failureFile} (it names what failed; the log's tail is mostly Flink's shutdown) and exits 1. It exits either
     * way: Flink's and Kafka's non-daemon threads would keep the JVM alive until the harness's timeout.
     */
    public static void complete(Path resultFile, String label, Callable<Properties> run) throws IOException {
        try {
            Properties result = run.call();
            try (OutputStream out = Files.newOutputStream(resultFile)) {
                result.store(out, label);
            }
        } catch (Throwable e) {
            e.printStackTrace();
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            try {
                Files.writeString(failureFile(resultFile), String.valueOf(cause.getMessage()));
            } finally {
                System.exit(1);
            }
        }
        System.exit(0);
    }

    /** Where a failed child whose result file is {@code resultFile} leaves the reason it failed. */
    public static Path failureFile(Path resultFile) {
        return Path.of(resultFile + ".failure");
    }

    /** The reason a failed child left ({@link #complete}) on one line, or null if it left none. */
    public static String failureReason(Path resultFile) {
        Path reason = failureFile(resultFile);
        if (!Files.exists(reason)) {
            return null;
        }
        try {
            return Files.readString(reason).replace('\n', ' ');
        } catch (IOException e) {
            return "(the failure reason is unreadable: " + e + ")";
        }
    }

    /** A child's arguments as {@code key=value}, in the map's order. */
    public static List<String> keyValueArgs(Map<String, String> args) {
        return args.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    }

    /** The {@code key=value} arguments a child's main got ({@link #keyValueArgs}), in order. */
    public static Map<String, String> parseKeyValueArgs(String[] argv) {
        Map<String, String> args = new LinkedHashMap<>();
        for (String arg : argv) {
            String[] kv = arg.split("=", 2);
            args.put(kv[0], kv[1]);
        }
        return args;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
