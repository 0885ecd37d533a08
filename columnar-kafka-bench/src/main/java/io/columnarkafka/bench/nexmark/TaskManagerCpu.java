package io.columnarkafka.bench.nexmark;

import io.columnarkafka.testkit.flink.FlinkProcess;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process CPU time (user + system, all threads: tasks, network, GC, JIT) the TaskManager JVMs of a recovery
 * cell's cluster spend over the job: read from the OS ({@code ProcessHandle.Info.totalCpuDuration}, on Linux
 * {@code /proc/<pid>/stat}, in clock ticks) when the job is submitted, for a killed TaskManager just before the
 * kill, and for the others when the job has finished. The job manager and the cell's own JVM (planning, the
 * harness) are not counted.
 */
final class TaskManagerCpu {
    private final Map<FlinkProcess, Long> started = new LinkedHashMap<>();
    private long spentNanos;

    /** Starts counting for {@code taskManagers} (their CPU so far, e.g. their start-up, is left out). */
    static TaskManagerCpu start(List<FlinkProcess> taskManagers) {
        TaskManagerCpu cpu = new TaskManagerCpu();
        taskManagers.forEach(tm -> cpu.started.put(tm, nanos(tm)));
        return cpu;
    }

    /** Stops counting for {@code taskManager} (before it is killed: a dead process has no CPU time to read). */
    void stop(FlinkProcess taskManager) {
        Long start = started.remove(taskManager);
        if (start != null) {
            spentNanos += nanos(taskManager) - start;
        }
    }

    /** Stops counting for every TaskManager still counted; the total, seconds. */
    double stopAll() {
        List.copyOf(started.keySet()).forEach(this::stop);
        return spentNanos / 1e9;
    }

    private static long nanos(FlinkProcess taskManager) {
        return taskManager.process().info().totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("no CPU time for " + taskManager))
                .toNanos();
    }
}
