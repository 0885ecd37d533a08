package io.columnarkafka.bench.nexmark;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.runtime.metrics.scope.ScopeFormat;

/**
 * The Kafka sources' read positions in a recovery cell, live: a metric reporter in the cell's own JVM (the
 * MiniCluster's TaskManagers run there) that keeps every {@code KafkaSourceReader.topic.*.partition.*.currentOffset}
 * gauge (the offset of the last record the split reader handed on: Flink's {@code KafkaPartitionSplitReader}
 * records it in stock and columnar sources alike) with the task attempt that registered it. Read in-process, the
 * positions are neither sampled nor cached as the REST API's metrics are, and a restarted attempt's positions
 * are told apart from the failed one's by the attempt number.
 */
final class SourcePositions {
    private static final String NAME = "nexmarkSourcePositions";
    private static final Pattern PARTITION = Pattern.compile("\\.topic\\.(.+)\\.partition\\.(\\d+)$");
    private static final Map<Key, Gauge<?>> GAUGES = new ConcurrentHashMap<>();

    private SourcePositions() {}

    /** Installs the reporter in {@code conf}, the configuration of the MiniCluster the cell starts. */
    static void install(Configuration conf) {
        conf.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
    }

    /**
     * Records read so far by the sources of task attempts numbered {@code minAttempt} or later: per partition the
     * latest such attempt's current offset + 1 (the input topic has no gaps), summed; 0 for a partition such an
     * attempt has not read from yet.
     */
    static long read(int minAttempt) {
        Map<String, Key> latest = new ConcurrentHashMap<>();
        for (Key key : GAUGES.keySet()) {
            if (key.attempt >= minAttempt) {
                latest.merge(key.partition, key, (a, b) -> a.attempt >= b.attempt ? a : b);
            }
        }
        long sum = 0;
        for (Key key : latest.values()) {
            Gauge<?> gauge = GAUGES.get(key);
            Object value = gauge == null ? null : gauge.getValue();
            if (value instanceof Number offset) {
                sum += Math.max(0, offset.longValue() + 1);
            }
        }
        return sum;
    }

    /** A gauge's identity: the topic partition and the task attempt whose source reads it. */
    private record Key(String partition, int attempt) {}

    /** Keeps the {@code currentOffset} gauges while their tasks live. */
    public static final class Reporter implements MetricReporter {
        @Override
        public void open(MetricConfig config) {}

        @Override
        public void close() {}

        @Override
        public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
            Key key = key(metric, name, group);
            if (key != null) {
                GAUGES.put(key, (Gauge<?>) metric);
            }
        }

        @Override
        public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
            Key key = key(metric, name, group);
            if (key != null) {
                GAUGES.remove(key, metric);
            }
        }

        private static Key key(Metric metric, String name, MetricGroup group) {
            if (!name.equals("currentOffset") || !(metric instanceof Gauge)) {
                return null;
            }
            String scope = String.join(".", group.getScopeComponents());
            Matcher partition = PARTITION.matcher(scope);
            String attempt = group.getAllVariables().get(ScopeFormat.SCOPE_TASK_ATTEMPT_NUM);
            if (!scope.contains("KafkaSourceReader") || !partition.find() || attempt == null) {
                return null;
            }
            return new Key(partition.group(1) + "-" + partition.group(2), Integer.parseInt(attempt));
        }
    }

    /** Found by Flink's {@code ServiceLoader} lookup of reporter factories (META-INF/services). */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new Reporter();
        }
    }
}
