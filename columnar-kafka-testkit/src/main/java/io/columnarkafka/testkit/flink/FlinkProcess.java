package io.columnarkafka.testkit.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One process of a {@link FlinkCluster}: a child JVM running a Flink main class through {@link ParentWatch}, its
 * output appended to its log. It can be killed with {@code SIGKILL} and started again with the same command.
 */
public final class FlinkProcess {
    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private Process process;

    FlinkProcess(String name, List<String> command, Map<String, String> environment, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = log;
    }

    /** "jobmanager", "taskmanager-1", ... */
    public String name() {
        return name;
    }

    /** The command line it is launched with. */
    List<String> command() {
        return command;
    }

    /** The process's stdout and stderr, appended across restarts. */
    public Path log() {
        return log;
    }

    /** Launches the process (again). */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running");
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(environment);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name, e);
        }
    }

    /** Whether the process is alive. */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The current process, or null before the first start. */
    public synchronized Process process() {
        return process;
    }

    /** Kills the process with {@code SIGKILL}, no shutdown of any kind, and waits for it to exit. */
    public synchronized void kill() {
        if (process != null && process.isAlive()) {
            ProcessHandle handle = process.toHandle();
            handle.destroyForcibly();
            try {
                handle.onExit().get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException(name + " did not exit after SIGKILL", e);
            }
        }
    }

    /** Stops the process: closing its stdin halts it; forced after 20 s. */
    synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized String toString() {
        return name + (process == null ? "" : "[pid " + process.pid() + (process.isAlive() ? "" : ", exited") + "]");
    }
}
