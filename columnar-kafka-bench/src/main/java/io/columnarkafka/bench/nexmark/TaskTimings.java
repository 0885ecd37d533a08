package io.columnarkafka.bench.nexmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.HistogramStatistics;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * Where a plain cell's task threads spent the job, for explaining checkpoint start delays: a metric reporter in
 * the cell's MiniCluster keeps, per task (operator chain), the last values of Flink's cumulative busy,
 * back-pressured and idle times and of its mailbox latency histogram (one mail timed each second: how long a mail,
 * e.g. a checkpoint trigger, waits for the step under way), and the columnar source's emit steps ({@code
 * emitStepNanos}) and the sinks' send window per checkpoint (the bytes in flight when the barrier reached the sending
 * operator, and the writer's flush after it), read when the task removes its metrics at its end. One cell per JVM,
 * so the state is static.
 */
final class TaskTimings {
    static final String NAME = "nexmarkTaskTimings";
    private static final Map<String, Task> TASKS = new TreeMap<>();
    private static final Map<String, long[]> OPERATOR_RECORDS = new TreeMap<>();

    private TaskTimings() {}

    /** The configuration installing the reporter. */
    static Map<String, String> configuration() {
        return Map.of("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
    }

    /**
     * One line per task: {@code task | busy/back-pressured/idle ms (subtasks summed) | mailbox latency ms: samples,
     * mean, max | emit steps: count, mean, p50, p99, max µs and the expected wait of a mail arriving at a random
     * instant of a busy stretch, E[S²]/2E[S], µs}.
     */
    static synchronized String describe() {
        List<String> lines = new ArrayList<>();
        TASKS.forEach((name, t) -> lines.add(t.describe(name)));
        return String.join(" || ", lines);
    }

    /**
     * One line per task with a send window, fields split by {@code " | "}: {@code task | checkpoints N | backlog p50
     * KiB | backlog max KiB | flush p50 ms | flush max ms}, over its subtasks' checkpoints: the bytes in flight when
     * the barrier reached the sending operator (what the writer's flush waits for) and the flush's time.
     */
    static synchronized String describeSendWindows() {
        List<String> lines = new ArrayList<>();
        TASKS.forEach((name, t) -> {
            if (!t.backlogAtBarrierBytes.isEmpty()) {
                long[] backlog = Task.sorted(t.backlogAtBarrierBytes);
                long[] flush = Task.sorted(t.flushNanos);
                lines.add(String.format(Locale.ROOT, "%s | checkpoints %d | backlog p50 %d KiB | backlog max %d KiB"
                                + " | flush p50 %.1f ms | flush max %.1f ms", name.replace('|', '/'), backlog.length,
                        backlog[backlog.length / 2] >> 10, backlog[backlog.length - 1] >> 10,
                        flush.length == 0 ? Double.NaN : flush[flush.length / 2] / 1e6,
                        flush.length == 0 ? Double.NaN : flush[flush.length - 1] / 1e6));
            }
        });
        return String.join("\n", lines);
    }

    /**
     * One line per operator: {@code operator | in N out N}, its records in and out summed over its subtasks
     * (what tells two plans' operators apart when their task times differ, e.g. a join emitting more rows).
     */
    static synchronized String describeOperatorRecords() {
        List<String> lines = new ArrayList<>();
        OPERATOR_RECORDS.forEach((name, counts) -> lines.add(String.format(Locale.ROOT, "%s | in %d out %d", name,
                counts[0], counts[1])));
        return String.join(" || ", lines);
    }

    /** Forgets every task and operator seen so far (a JVM warm-up job's, before the measured job's). */
    static synchronized void clear() {
        TASKS.clear();
        OPERATOR_RECORDS.clear();
    }

    private static synchronized Task task(MetricGroup group) {
        String name = group.getAllVariables().getOrDefault("<task_name>", "?");
        return TASKS.computeIfAbsent(name.length() > 70 ? name.substring(0, 70) : name, n -> new Task());
    }

    private static final class Task {
        long busyMs;
        long backPressuredMs;
        long idleMs;
        final List<Long> mailboxLatencyMs = new ArrayList<>();
        final List<Long> stepNanos = new ArrayList<>();
        final List<Long> backlogAtBarrierBytes = new ArrayList<>();
        final List<Long> flushNanos = new ArrayList<>();

        String describe(String name) {
            StringBuilder line = new StringBuilder(name).append(String.format(Locale.ROOT,
                    " | busy %d backPressured %d idle %d ms | mailbox latency n=%d mean %.1f max %d ms",
                    busyMs, backPressuredMs, idleMs, mailboxLatencyMs.size(),
                    mailboxLatencyMs.stream().mapToLong(Long::longValue).average().orElse(Double.NaN),
                    mailboxLatencyMs.stream().mapToLong(Long::longValue).max().orElse(-1)));
            if (!stepNanos.isEmpty()) {
                long[] s = sorted(stepNanos);
                double mean = 0;
                double meanSquare = 0;
                for (long v : s) {
                    mean += v;
                    meanSquare += (double) v * v;
                }
                mean /= s.length;
                meanSquare /= s.length;
                line.append(String.format(Locale.ROOT,
                        " | emit steps n=%d mean %.0f p50 %d p99 %d max %d us residual %.0f us", s.length,
                        mean / 1e3, s[s.length / 2] / 1000, s[(int) Math.min(s.length - 1, s.length * 0.99)] / 1000,
                        s[s.length - 1] / 1000, meanSquare / (2 * mean) / 1e3));
            }
            return line.toString();
        }

        static long[] sorted(List<Long> values) {
            return values.stream().mapToLong(Long::longValue).sorted().toArray();
        }
    }

    /** Reads each metric of interest when its task removes it: the task's totals at its end. */
    public static final class Reporter implements MetricReporter {
        @Override
        public void open(MetricConfig config) {}

        @Override
        public void close() {}

        @Override
        public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {}

        @Override
        public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
            switch (metricName) {
                case "accumulateBusyTimeMs" -> add(group, t -> t.busyMs += gauge(metric));
                case "accumulateBackPressuredTimeMs" -> add(group, t -> t.backPressuredMs += gauge(metric));
                case "accumulateIdleTimeMs" -> add(group, t -> t.idleMs += gauge(metric));
                case "mailboxLatencyMs" -> add(group, t -> values(metric, t.mailboxLatencyMs));
                case "emitStepNanos" -> add(group, t -> values(metric, t.stepNanos));
                case "sendWindowBacklogAtBarrierBytes" -> add(group, t -> values(metric, t.backlogAtBarrierBytes));
                case "sendWindowFlushNanos" -> add(group, t -> values(metric, t.flushNanos));
                case "numRecordsIn" -> addRecords(group, 0, metric);
                case "numRecordsOut" -> addRecords(group, 1, metric);
                default -> { }
            }
        }

        private static void add(MetricGroup group, java.util.function.Consumer<Task> update) {
            synchronized (TaskTimings.class) {
                update.accept(task(group));
            }
        }

        /** An operator's count (a task's own IO group, without an operator name, is left out). */
        private static void addRecords(MetricGroup group, int which, Metric metric) {
            String operator = group.getAllVariables().get("<operator_name>");
            if (operator == null || !(metric instanceof Counter counter)) {
                return;
            }
            synchronized (TaskTimings.class) {
                String name = operator.length() > 70 ? operator.substring(0, 70) : operator;
                OPERATOR_RECORDS.computeIfAbsent(name, n -> new long[2])[which] += counter.getCount();
            }
        }

        private static long gauge(Metric metric) {
            Object value = ((Gauge<?>) metric).getValue();
            return value instanceof Number n ? n.longValue() : 0;
        }

        private static void values(Metric metric, List<Long> into) {
            HistogramStatistics stats = ((Histogram) metric).getStatistics();
            for (long v : stats.getValues()) {
                into.add(v);
            }
        }
    }

    /** Creates the reporter; named in {@code META-INF/services} as Flink's reporters are. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new Reporter();
        }
    }
}
