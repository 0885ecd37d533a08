package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.metrics.scope.ScopeFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recovery cells' source positions across TaskManager processes: each reporter writes its gauges to a file of
 * its own; a read sums per partition the latest attempt's offset + 1, and a killed TaskManager's last file (the
 * failed attempt's positions) counts only when the failed attempt is asked for.
 */
class SourcePositionsTest {
    @TempDir
    Path dir;

    @Test
    void aReadSumsTheLatestAttemptPerPartitionOverEveryTaskManagersFile() {
        SourcePositions.Reporter killed = reporter();
        killed.notifyOfAddedMetric(offset(999), "currentOffset", source("in", 0, 0));
        killed.notifyOfAddedMetric(offset(1499), "currentOffset", source("in", 1, 0));
        killed.report();
        assertThat(SourcePositions.read(dir, 0)).isEqualTo(1000 + 1500);
        assertThat(SourcePositions.read(dir, 1)).isZero();

        SourcePositions.Reporter spare = reporter();
        spare.notifyOfAddedMetric(offset(199), "currentOffset", source("in", 0, 1));
        spare.notifyOfAddedMetric(offset(-1), "currentOffset", source("in", 1, 1));
        // Not a source position: ignored.
        spare.notifyOfAddedMetric(offset(5), "currentOffset", new UnregisteredMetricsGroup());
        spare.report();
        // Partition 0 from the restarted attempt; partition 1's restarted reader has read nothing yet.
        assertThat(SourcePositions.read(dir, 1)).isEqualTo(200);
        assertThat(SourcePositions.read(dir, 0)).isEqualTo(200);
    }

    @Test
    void aClosedReadersPositionIsGoneAtTheNextReport() {
        SourcePositions.Reporter reporter = reporter();
        Gauge<Long> partition0 = offset(149_999);
        UnregisteredMetricsGroup group0 = source("in", 0, 0);
        reporter.notifyOfAddedMetric(partition0, "currentOffset", group0);
        reporter.notifyOfAddedMetric(offset(99), "currentOffset", source("in", 1, 0));
        reporter.report();
        assertThat(SourcePositions.read(dir, 0)).isEqualTo(150_000 + 100);

        // The kill trigger takes a position lower than one seen before as the sources having finished.
        reporter.notifyOfRemovedMetric(partition0, "currentOffset", group0);
        reporter.report();
        assertThat(SourcePositions.read(dir, 0)).isEqualTo(100);
    }

    @Test
    void noFileYetReadsZero() {
        assertThat(SourcePositions.read(dir.resolve("not-yet"), 0)).isZero();
    }

    private SourcePositions.Reporter reporter() {
        SourcePositions.Reporter reporter = new SourcePositions.Reporter();
        MetricConfig config = new MetricConfig();
        config.setProperty("dir", dir.toString());
        reporter.open(config);
        return reporter;
    }

    private static Gauge<Long> offset(long value) {
        return () -> value;
    }

    /** A Kafka source reader's partition group, as Flink scopes it, of task attempt {@code attempt}. */
    private static UnregisteredMetricsGroup source(String topic, int partition, int attempt) {
        return new UnregisteredMetricsGroup() {
            @Override
            public String[] getScopeComponents() {
                return List.of("localhost", "taskmanager", "job", "Source", "0", "KafkaSourceReader", "topic", topic,
                        "partition", Integer.toString(partition)).toArray(String[]::new);
            }

            @Override
            public Map<String, String> getAllVariables() {
                return Map.of(ScopeFormat.SCOPE_TASK_ATTEMPT_NUM, Integer.toString(attempt));
            }
        };
    }
}
