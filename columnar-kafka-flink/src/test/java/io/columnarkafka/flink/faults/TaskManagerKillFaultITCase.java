package io.columnarkafka.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.faults.FaultJobs.SinkUnderTest;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.testkit.OutputTimeline;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.flink.FlinkProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    /** Kills per job: the first of one of the job's task managers, the others of the one running all of it. */
    private static final int KILLS = 3;
    /** Batches of 40 rows at 25 per second: two minutes of input, enough for {@link #KILLS} kills. */
    private static final int BATCHES = 3_000;

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
        int rows = 40;
        StreamExecutionEnvironment env = FaultJobs.remoteEnvironment(cluster, 10);
        FaultJobs.build(env, sink, DeliveryGuarantee.EXACTLY_ONCE, KAFKA.broker().bootstrapServers(), topic, BATCHES,
                rows, 25, Duration.ofMillis(800), naming);
        JobClient job = env.executeAsync("task manager kill " + sink + " " + naming);
        String jobId = job.getJobID().toString();
        List<JobTimeline.Recovery> recoveries = new ArrayList<>();
        boolean finished = false;
        try (OutputTimeline timeline = TopicVerifier.forTopic(KAFKA.broker().bootstrapServers(), topic)
                .startTimeline();
             JobTimeline jobTimeline = new JobTimeline(cluster, jobId)) {
            for (int kill = 0; kill < KILLS; kill++) {
                // Kill 0 hits one of the job's two task managers; it fails over to the other, so each later
                // kill (of the other one, once the first is back) hits every task of the job.
                FlinkProcess victim = cluster.taskManagers().get(kill % 2);
                assertThat(timeline.awaitCommitted(timeline.committed() + 2_000, Duration.ofSeconds(120)))
                        .as("output flows before kill %d\n%s", kill, cluster.logTails()).isTrue();
                cluster.awaitCheckpointInFlight(jobId, Duration.ofSeconds(30));
                timeline.fault("kill -9 " + victim.name() + ", checkpoint in flight");
                long killMillis = System.currentTimeMillis();
                victim.kill();
                // Not the first advance of the last stable offsets: that can be the commit of the checkpoint the
                // kill raced with, or the abort of the killed writers' transactions, neither of them new output.
                JobTimeline.Recovery phases = jobTimeline.awaitRecovery(killMillis, 180_000);
                System.out.println("tm-kill-" + sink + "-" + naming + " kill " + kill + ": " + phases.describe());
                assertThat(phases.restarted()).as("the kill of %s restarted tasks: %s", victim.name(), phases)
                        .isTrue();
                assertThat(phases.checkpointCompleted()).as("a checkpoint completed after the restore: %s", phases)
                        .isPositive();
                victim.start();
                cluster.awaitTaskManagers(2, FaultJobs.LOADED_MACHINE_TIMEOUT);
                recoveries.add(phases);
            }
            job.getJobExecutionResult().get(5, TimeUnit.MINUTES);
            finished = true;
            System.out.println(timeline.describe());
        } finally {
            if (!finished) {
                job.cancel().get(1, TimeUnit.MINUTES); // free the slots for the next sink's job
            }
        }
        TopicReport report = TopicVerifier.forTopic(KAFKA.broker().bootstrapServers(), topic)
                .awaitStableOffsets(Duration.ofSeconds(30))
                .verifyIds(0, Math.toIntExact((long) BATCHES * rows), TestRows::idOf);
        record(sink + " " + naming, report, recoveries);
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        assertThat(TopicVerifier.awaitNoOpenTransactions(KAFKA.broker().bootstrapServers(), topic,
                Duration.ofSeconds(30))).as("no transaction left open").isEmpty();
    }

    /**
     * Appends one row per kill to {@link FaultJobs#RESULTS}: kill to the first checkpoint completed after the restore,
     * and its phases, in ms.
     */
    private static void record(String sink, TopicReport report, List<JobTimeline.Recovery> recoveries)
            throws IOException {
        StringBuilder rows = new StringBuilder();
        for (int kill = 0; kill < recoveries.size(); kill++) {
            JobTimeline.Recovery r = recoveries.get(kill);
            rows.append(String.format("| kill -9 TaskManager #%d | %s | %d | %d | %d | %s |%n", kill, sink,
                    report.expectedCount(), report.missingCount(), report.duplicateCount(), r.columns()));
        }
        System.out.print(rows);
        Files.createDirectories(FaultJobs.RESULTS.getParent());
        Files.writeString(FaultJobs.RESULTS, rows, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
