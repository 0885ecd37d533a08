package io.columnarkafka.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.faults.FaultJobs.SinkUnderTest;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.flink.FlinkProcess;
import java.time.Duration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A standalone Flink cluster of separate JVMs (the testkit's {@link FlinkCluster}: a job manager and two task
 * managers, each with 2 slots, slots spread evenly) on this module's test classpath; the job is submitted over REST.
 * Under EXACTLY_ONCE, while a checkpoint is in flight (the REST API reports one in progress; a pass-through operator
 * holds each checkpoint open for 800 ms), task manager 1 is killed with SIGKILL. The job fails over to the other task
 * manager from the last completed checkpoint: every row once {@code read_committed}, no transaction left open. The
 * recovery time (kill to the first committed output after it) of the columnar sink and of stock Flink's
 * {@code KafkaSink} is recorded in {@code target/fault-results.md}. Heartbeats: 1 s interval, 10 s timeout (Flink's
 * defaults are 10 s and 50 s).
 */
@Tag("faults")
class TaskManagerKillFaultITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static FlinkCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = FaultJobs.flinkCluster();
    }

    @AfterAll
    static void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"COLUMNAR, POOLING", "STOCK, POOLING", "COLUMNAR, INCREMENTING", "STOCK, INCREMENTING"})
    void killingATaskManagerWithACheckpointInFlightKeepsExactlyOnce(SinkUnderTest sink,
                                                                     TransactionNamingStrategy naming)
            throws Exception {
        String topic = "tm-kill-" + sink.name().toLowerCase() + "-" + naming.name().toLowerCase();
        KAFKA.broker().createTopic(topic, 2);
        int batches = 750;
        int rows = 40;
        StreamExecutionEnvironment env = FaultJobs.remoteEnvironment(cluster, 10);
        FaultJobs.build(env, sink, DeliveryGuarantee.EXACTLY_ONCE, KAFKA.broker().bootstrapServers(), topic, batches,
                rows, 25, Duration.ofMillis(800), naming);
        JobClient job = env.executeAsync("task manager kill " + sink + " " + naming);
        FlinkProcess victim = cluster.taskManagers().get(0);
        TopicReport report;
        try {
            report = FaultJobs.runWithFault(job, KAFKA.broker().bootstrapServers(), topic, (long) batches * rows,
                    "kill -9 TaskManager, checkpoint in flight", sink + " " + naming, DeliveryGuarantee.EXACTLY_ONCE,
                    timeline -> FaultJobs.killWithCheckpointInFlight(cluster, victim, job, timeline),
                    cluster::logTails);
        } finally {
            if (!victim.isRunning()) {
                victim.start();
                cluster.awaitTaskManagers(2, FaultJobs.LOADED_MACHINE_TIMEOUT);
            }
        }
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        assertThat(TopicVerifier.awaitNoOpenTransactions(KAFKA.broker().bootstrapServers(), topic,
                Duration.ofSeconds(30))).as("no transaction left open").isEmpty();
    }
}
