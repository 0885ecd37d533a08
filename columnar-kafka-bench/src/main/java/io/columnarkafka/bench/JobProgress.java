package io.columnarkafka.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.metrics.reporter.Scheduled;
import org.apache.flink.runtime.metrics.scope.ScopeFormat;

/**
 * A benchmark job's progress over time, for its steady-state rate ({@link SteadyRate}): a metric reporter in the
 * MiniCluster of the JVM that runs the job (a Nexmark cell's, a pipeline run's) samples every {@link #INTERVAL} how
 * many input records the Kafka sources have read (per partition the {@code currentOffset} gauge + 1; Flink's
 * {@code KafkaSourceReaderMetrics} registers it in stock {@code KafkaSource} and {@code ColumnarKafkaSource} alike) and
 * how many records
 * the Kafka sinks' writers have handed to their producers (the {@code KafkaWriter}'s {@code numRecordsOut}, which
 * stock {@code KafkaSink} and the columnar sink, a {@code KafkaSink} behind its encoder, both count per Kafka
 * record). A gauge or counter keeps its last value once its task has finished and removed it, so the sums only
 * grow. The written side is the sink's send, not the output topic's committed progress: exactly-once output is
 * committed only at checkpoints, a step a second, too coarse for a window of a few seconds.
 */
public final class JobProgress {
    /** How often the reporter samples: the crossing times' resolution before interpolation. */
    static final String INTERVAL = "20 ms";
    private static final String NAME = "benchJobProgress";
    private static final Pattern PARTITION = Pattern.compile("\\.topic\\.(.+)\\.partition\\.(\\d+)$");
    private static final AtomicReference<Reporter> OPEN = new AtomicReference<>();

    private JobProgress() {}

    /** One sample: when (ms since the epoch), input records read, output records sent. */
    public record Sample(double millis, long read, long written) {}

    /** The configuration installing the reporter in a MiniCluster started in this JVM. */
    public static Map<String, String> configuration() {
        String prefix = "metrics.reporter." + NAME + ".";
        return Map.of(prefix + "factory.class", Factory.class.getName(), prefix + "interval", INTERVAL);
    }

    /** The samples of the reporter open in this JVM (the job's MiniCluster's), oldest first, up to now. */
    public static List<Sample> samples() {
        Reporter reporter = OPEN.get();
        if (reporter == null) {
            throw new IllegalStateException("no progress reporter is open: is the MiniCluster configured with "
                    + "JobProgress.configuration()?");
        }
        // A last sample now: the final counts of tasks that finished after the latest scheduled one.
        reporter.report();
        synchronized (reporter.samples) {
            return List.copyOf(reporter.samples);
        }
    }

    /** The sink writer operators whose records-out the written side sums (to check the right ones were found). */
    public static Set<String> writers() {
        return new TreeSet<>(OPEN.get().writerNames);
    }

    /** The samples as CSV ({@code millis,read,written}), for a look at a job's curve. */
    public static String csv(List<Sample> samples) {
        StringBuilder csv = new StringBuilder("millis,read,written\n");
        samples.forEach(s -> csv.append(String.format(java.util.Locale.ROOT, "%.1f,%d,%d%n", s.millis(), s.read(),
                s.written())));
        return csv.toString();
    }

    /**
     * The read and written steady-state rates of {@code samples} in events per second, with their windows in seconds
     * after {@code runningMillis} (when the job entered RUNNING, or was submitted); the read side's total is {@code events}, the
     * written side's the records its writers sent in all.
     */
    public static SteadyFigures figures(List<Sample> samples, long events, long runningMillis) {
        double[] millis = samples.stream().mapToDouble(Sample::millis).toArray();
        long[] read = samples.stream().mapToLong(Sample::read).toArray();
        long[] written = samples.stream().mapToLong(Sample::written).toArray();
        SteadyRate readRate = SteadyRate.of(millis, read, events, events);
        SteadyRate writtenRate = SteadyRate.of(millis, written, written.length == 0 ? 0 : written[written.length - 1],
                events);
        return new SteadyFigures(readRate.eventsPerSecond(), writtenRate.eventsPerSecond(),
                (readRate.fromMillis() - runningMillis) / 1e3, (readRate.toMillis() - runningMillis) / 1e3,
                (writtenRate.fromMillis() - runningMillis) / 1e3, (writtenRate.toMillis() - runningMillis) / 1e3);
    }

    /** Samples the sources' read and the sink writers' sent records every interval. */
    public static final class Reporter implements MetricReporter, Scheduled {
        private final Map<String, LongSupplier> readLive = new ConcurrentHashMap<>();
        private final Map<String, LongSupplier> writtenLive = new ConcurrentHashMap<>();
        private final Map<String, Long> readLast = new ConcurrentHashMap<>();
        private final Map<String, Long> writtenLast = new ConcurrentHashMap<>();
        private final Set<String> writerNames = ConcurrentHashMap.newKeySet();
        private final List<Sample> samples = new ArrayList<>();
        /** Epoch ms and nanoTime at open: samples are timed by the monotonic clock, stated in epoch ms. */
        private long anchorMillis;
        private long anchorNanos;

        @Override
        public void open(MetricConfig config) {
            anchorMillis = System.currentTimeMillis();
            anchorNanos = System.nanoTime();
            OPEN.set(this);
        }

        @Override
        public void close() {}

        @Override
        public void report() {
            double millis = anchorMillis + (System.nanoTime() - anchorNanos) / 1e6;
            long read = slowestSource(readLive, readLast);
            long written = sum(writtenLive, writtenLast);
            synchronized (samples) {
                samples.add(new Sample(millis, read, written));
            }
        }

        /** Updates each live metric's last value (never lower), returns the sum of the last values. */
        private static long sum(Map<String, LongSupplier> live, Map<String, Long> last) {
            live.forEach((key, value) -> last.merge(key, value.getAsLong(), Math::max));
            return last.values().stream().mapToLong(Long::longValue).sum();
        }

        /**
         * Like {@link #sum}, per source task (key {@code task|partition}), the least: a plan that scans the input
         * twice (a self-join) has read it as far as its slower scan.
         */
        private static long slowestSource(Map<String, LongSupplier> live, Map<String, Long> last) {
            live.forEach((key, value) -> last.merge(key, value.getAsLong(), Math::max));
            Map<String, Long> bySource = new java.util.HashMap<>();
            last.forEach((key, value) -> bySource.merge(key.substring(0, key.lastIndexOf('|')), value, Long::sum));
            return bySource.values().stream().mapToLong(Long::longValue).min().orElse(0);
        }

        @Override
        public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
            String partition = readKey(metric, name, group);
            if (partition != null) {
                Gauge<?> gauge = (Gauge<?>) metric;
                // currentOffset is the last record's offset; the input topic starts at 0 and has no gaps.
                readLive.put(partition, () -> gauge.getValue() instanceof Number offset
                        ? Math.max(0, offset.longValue() + 1) : 0);
                return;
            }
            String writer = writerKey(metric, name, group);
            if (writer != null) {
                writerNames.add(group.getAllVariables().get(ScopeFormat.SCOPE_OPERATOR_NAME));
                writtenLive.put(writer, ((Counter) metric)::getCount);
            }
        }

        @Override
        public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
            String partition = readKey(metric, name, group);
            String key = partition != null ? partition : writerKey(metric, name, group);
            Map<String, LongSupplier> live = partition != null ? readLive : writtenLive;
            Map<String, Long> last = partition != null ? readLast : writtenLast;
            LongSupplier value = key == null ? null : live.remove(key);
            if (value != null) {
                last.merge(key, value.getAsLong(), Math::max);
            }
        }

        /** A Kafka source's {@code currentOffset} gauge: its task and partition; null for any other metric. */
        private static String readKey(Metric metric, String name, MetricGroup group) {
            String partition = kafkaSourcePartition(metric, name, group);
            return partition == null ? null
                    : group.getAllVariables().get(ScopeFormat.SCOPE_TASK_NAME) + "|" + partition;
        }

        /** A sink writer operator's records-out counter: its operator name and subtask; null for any other metric. */
        private static String writerKey(Metric metric, String name, MetricGroup group) {
            Map<String, String> variables = group.getAllVariables();
            String operator = variables.get(ScopeFormat.SCOPE_OPERATOR_NAME);
            if (!name.equals("numRecordsOut") || !(metric instanceof Counter) || operator == null
                    || !operator.endsWith("Writer")) {
                return null;
            }
            return operator + "#" + variables.get(ScopeFormat.SCOPE_TASK_SUBTASK_INDEX);
        }
    }

    /**
     * The topic partition ({@code topic-partition}) a Kafka source reader's {@code currentOffset} gauge is for;
     * null for any other metric.
     */
    public static String kafkaSourcePartition(Metric metric, String name, MetricGroup group) {
        if (!name.equals("currentOffset") || !(metric instanceof Gauge)) {
            return null;
        }
        String scope = String.join(".", group.getScopeComponents());
        Matcher partition = PARTITION.matcher(scope);
        if (!scope.contains("KafkaSourceReader") || !partition.find()) {
            return null;
        }
        return partition.group(1) + "-" + partition.group(2);
    }

    /** Found by Flink's {@code ServiceLoader} lookup of reporter factories (META-INF/services). */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new Reporter();
        }
    }
}
