package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.junit.jupiter.api.Test;

/**
 * What the reporter keeps: the operators' record counts summed over subtasks (a task's own IO counts left out), and
 * the send windows' per-checkpoint figures pooled over subtasks.
 */
class TaskTimingsTest {
    @Test
    void sumsEachOperatorsRecordsOverItsSubtasks() {
        MetricReporter reporter = new TaskTimings.Reporter();
        MetricGroup operator = group(Map.of("<task_name>", "Join[7] -> Calc[8]", "<operator_name>", "Join[7]"));
        MetricGroup task = group(Map.of("<task_name>", "Join[7] -> Calc[8]"));
        reporter.notifyOfRemovedMetric(counter(2), "numRecordsIn", operator);
        reporter.notifyOfRemovedMetric(counter(1), "numRecordsOut", operator);
        reporter.notifyOfRemovedMetric(counter(3), "numRecordsIn", operator);
        reporter.notifyOfRemovedMetric(counter(2), "numRecordsOut", operator);
        reporter.notifyOfRemovedMetric(counter(1000), "numRecordsIn", task);

        assertThat(TaskTimings.describeOperatorRecords().split(" \\|\\| ")).contains("Join[7] | in 5 out 3");
    }

    @Test
    void poolsEachSendWindowsCheckpointsOverItsSubtasks() {
        TaskTimings.clear();
        MetricReporter reporter = new TaskTimings.Reporter();
        MetricGroup subtask = group(Map.of("<task_name>", "GroupAggregate[3] -> SplitEncodedBatch[4]",
                "<operator_name>", "SplitEncodedBatch[4]"));
        // Two subtasks' histograms, in KiB and ms: pooled, backlog 0, 50, 100, 200, 300 and flush 1, 2, 3, 4, 5.
        reporter.notifyOfRemovedMetric(histogram(0, 100 << 10, 300 << 10), "sendWindowBacklogAtBarrierBytes", subtask);
        reporter.notifyOfRemovedMetric(histogram(1_000_000, 2_000_000, 3_000_000), "sendWindowFlushNanos", subtask);
        reporter.notifyOfRemovedMetric(histogram(50 << 10, 200 << 10), "sendWindowBacklogAtBarrierBytes", subtask);
        reporter.notifyOfRemovedMetric(histogram(4_000_000, 5_000_000), "sendWindowFlushNanos", subtask);

        assertThat(TaskTimings.describeSendWindows()).isEqualTo("GroupAggregate[3] -> SplitEncodedBatch[4]"
                + " | checkpoints 5 | backlog p50 100 KiB | backlog max 300 KiB | flush p50 3.0 ms | flush max 5.0 ms");
    }

    private static DescriptiveStatisticsHistogram histogram(long... values) {
        DescriptiveStatisticsHistogram histogram = new DescriptiveStatisticsHistogram(16);
        for (long v : values) {
            histogram.update(v);
        }
        return histogram;
    }

    private static SimpleCounter counter(long count) {
        SimpleCounter counter = new SimpleCounter();
        counter.inc(count);
        return counter;
    }

    private static MetricGroup group(Map<String, String> variables) {
        return new UnregisteredMetricsGroup() {
            @Override
            public Map<String, String> getAllVariables() {
                return variables;
            }
        };
    }
}
