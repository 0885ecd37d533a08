package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.junit.jupiter.api.Test;

/** The operators' record counts the reporter keeps: summed over subtasks, a task's own IO counts left out. */
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
