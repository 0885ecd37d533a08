package io.columnarkafka.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.faults.FaultJobs.SinkUnderTest;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.testkit.OutputTimeline;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.flink.FlinkProcess;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
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

    private static Path dir;
    private static FlinkCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        dir = Files.createTempDirectory("columnar-kafka-flink-cluster-");
        List<Path> classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(Path::of).toList();
        cluster = FlinkCluster.builder(classpath, dir)
                .taskManagers(2)
                .config("cluster.evenly-spread-out-slots", "true")
                .config("heartbeat.interval", "1000")
                .config("heartbeat.timeout", "10000")
                .start();
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
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createRemoteEnvironment("localhost", cluster.restPort(), conf);
        FaultJobs.build(env, sink, DeliveryGuarantee.EXACTLY_ONCE, KAFKA.broker().bootstrapServers(), topic, batches,
                rows, 25, Duration.ofMillis(800), naming);
        JobClient job = env.executeAsync("task manager kill " + sink + " " + naming);
        FlinkProcess victim = cluster.taskManagers().get(0);
        TopicReport report;
        try {
            report = FaultJobs.runWithFault(job, KAFKA.broker().bootstrapServers(), topic, (long) batches * rows,
                    "kill -9 TaskManager, checkpoint in flight", sink + " " + naming, DeliveryGuarantee.EXACTLY_ONCE,
                    timeline -> {
                        cluster.awaitCheckpointInFlight(job.getJobID().toString(), Duration.ofSeconds(30));
                        OutputTimeline.Fault kill =
                                timeline.fault("kill -9 " + victim.name() + ", checkpoint in flight");
                        victim.kill();
                        return kill;
                    }, cluster::logTails);
        } finally {
            if (!victim.isRunning()) {
                victim.start();
                cluster.awaitTaskManagers(2, FlinkCluster.STARTUP_TIMEOUT);
            }
        }
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        assertThat(TopicVerifier.awaitNoOpenTransactions(KAFKA.broker().bootstrapServers(), topic,
                Duration.ofSeconds(30))).as("no transaction left open").isEmpty();
    }
}
