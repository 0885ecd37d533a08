package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.JobProgress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.metrics.reporter.Scheduled;
import org.apache.flink.runtime.metrics.scope.ScopeFormat;

/**
 * The Kafka sources' read positions in a recovery cell, near live: a metric reporter in every TaskManager JVM of
 * the cell's cluster keeps each {@code KafkaSourceReader.topic.*.partition.*.currentOffset} gauge (the offset of
 * the last record the split reader handed on: Flink's {@code KafkaPartitionSplitReader} records it in stock and
 * columnar sources alike) with the task attempt that registered it, and every {@link #INTERVAL} writes them to a
 * file of its own in a directory the cell's JVM reads ({@link #read}). The REST API's metrics are sampled and
 * cached, and after a restart may still show the failed attempt; here a restarted attempt's positions are told
 * apart from the failed one's by the attempt number, and a killed TaskManager's last file stays readable.
 */
final class SourcePositions {
    /** How often each TaskManager writes its positions: how stale a read can be. */
    static final String INTERVAL = "10 ms";
    private static final String NAME = "nexmarkSourcePositions";

    private SourcePositions() {}

    /** The cluster configuration installing the reporter, writing into {@code dir}. */
    static Map<String, String> configuration(Path dir) {
        String prefix = "metrics.reporter." + NAME + ".";
        return Map.of(prefix + "factory.class", Factory.class.getName(), prefix + "interval", INTERVAL,
                prefix + "dir", dir.toString());
    }

    /**
     * Records read so far by the sources of task attempts numbered {@code minAttempt} or later: per partition the
     * latest such attempt's current offset + 1 (the input topic has no gaps), summed; 0 for a partition such an
     * attempt has not read from yet.
     */
    static long read(Path dir, int minAttempt) {
        Map<String, long[]> latest = new HashMap<>();
        for (String line : lines(dir)) {
            String[] f = line.split(" ");
            int attempt = Integer.parseInt(f[1]);
            long offset = Long.parseLong(f[2]);
            if (attempt >= minAttempt) {
                latest.merge(f[0], new long[] {attempt, offset}, (a, b) -> a[0] > b[0]
                        || (a[0] == b[0] && a[1] >= b[1]) ? a : b);
            }
        }
        return latest.values().stream().mapToLong(v -> Math.max(0, v[1] + 1)).sum();
    }

    private static List<String> lines(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".positions")).flatMap(f -> {
                try {
                    return Files.readAllLines(f).stream().filter(l -> !l.isBlank());
                } catch (NoSuchFileException e) {
                    return Stream.empty();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A gauge's identity: the topic partition and the task attempt whose source reads it. */
    private record Key(String partition, int attempt) {}

    /** Keeps the {@code currentOffset} gauges while their tasks live; writes their values every interval. */
    public static final class Reporter implements MetricReporter, Scheduled {
        private final Map<Key, Gauge<?>> gauges = new ConcurrentHashMap<>();
        private Path file;
        private Path scratch;

        @Override
        public void open(MetricConfig config) {
            Path dir = Path.of(config.getString("dir", ""));
            // One file per reporter: one per TaskManager process.
            String name = "reporter-" + ProcessHandle.current().pid() + "-" + System.identityHashCode(this);
            file = dir.resolve(name + ".positions");
            scratch = dir.resolve(name + ".tmp");
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {}

        /** One line per gauge, {@code partition attempt offset}, replacing the file at once (a rename). */
        @Override
        public void report() {
            StringBuilder lines = new StringBuilder();
            gauges.forEach((key, gauge) -> {
                if (gauge.getValue() instanceof Number offset) {
                    lines.append(key.partition).append(' ').append(key.attempt).append(' ')
                            .append(offset.longValue()).append('\n');
                }
            });
            try {
                Files.writeString(scratch, lines);
                Files.move(scratch, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
            Key key = key(metric, name, group);
            if (key != null) {
                gauges.put(key, (Gauge<?>) metric);
            }
        }

        @Override
        public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
            Key key = key(metric, name, group);
            if (key != null) {
                gauges.remove(key, metric);
            }
        }

        private static Key key(Metric metric, String name, MetricGroup group) {
            String partition = JobProgress.kafkaSourcePartition(metric, name, group);
            String attempt = group.getAllVariables().get(ScopeFormat.SCOPE_TASK_ATTEMPT_NUM);
            return partition == null || attempt == null ? null : new Key(partition, Integer.parseInt(attempt));
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
