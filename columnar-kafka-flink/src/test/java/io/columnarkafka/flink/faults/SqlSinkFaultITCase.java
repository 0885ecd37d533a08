package io.columnarkafka.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.OutputTimeline;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.flink.FlinkProcess;
import java.time.Duration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A SQL {@code INSERT} into a {@code kafka-columnar} table, EXACTLY_ONCE (and, for the broker restart with
 * {@code INCREMENTING} ids, AT_LEAST_ONCE: nothing lost, duplicates counted), side by side with the same {@code INSERT}
 * into Flink's {@code kafka} table, on a standalone Flink cluster of separate JVMs (the testkit's
 * {@link FlinkCluster} on this module's test classpath: a job manager and two task managers of 2 slots, slots
 * spread evenly), with {@code POOLING} and {@code INCREMENTING} transactional ids, under two faults: task manager 1
 * killed with SIGKILL while a checkpoint is in flight (a pass-through operator holds each checkpoint open 800 ms),
 * and the only broker stopped (SIGTERM) for 20 s and started again. Every row once {@code read_committed}, no
 * transaction left open, and the columnar run's plan and the job running on the cluster show the columnar sink admitted
 * (not a fallback). The input is
 * a checkpointed, rate-limited id sequence (1,000 rows/s) registered as a table view; the sink table has
 * parallelism 2 and 1 s checkpoints, as in the DataStream fault tests. Results go to {@code target/fault-results.md}.
 */
@Tag("faults")
class SqlSinkFaultITCase {
    private static final int ROWS_PER_SECOND = 1000;
    private static final Duration OUTAGE = Duration.ofSeconds(20);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.dedicated(FaultJobs.LOADED_MACHINE_TIMEOUT);

    private static FlinkCluster cluster;

    /** The fault injected while the INSERT runs. */
    enum Fault {
        TASK_MANAGER_KILL("kill -9 TaskManager, checkpoint in flight", 30_000),
        BROKER_RESTART("broker stopped 20 s, restarted", 40_000);

        final String scenario;
        final int rows;

        Fault(String scenario, int rows) {
            this.scenario = scenario;
            this.rows = rows;
        }
    }

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

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "TASK_MANAGER_KILL, kafka-columnar, POOLING", "TASK_MANAGER_KILL, kafka, POOLING",
        "TASK_MANAGER_KILL, kafka-columnar, INCREMENTING", "TASK_MANAGER_KILL, kafka, INCREMENTING",
        "BROKER_RESTART, kafka-columnar, POOLING", "BROKER_RESTART, kafka, POOLING"})
    void aSqlInsertKeepsExactlyOnceUnderAFault(Fault fault, String connector, TransactionNamingStrategy naming)
            throws Exception {
        runUnderAFault(fault, connector, naming, DeliveryGuarantee.EXACTLY_ONCE);
    }

    /**
     * The broker restart with {@code INCREMENTING} transactional ids, under both guarantees (a method of its own, so
     * these cells can be run alone). AT_LEAST_ONCE: nothing lost, duplicates counted in the result row.
     */
    @ParameterizedTest(name = "BROKER_RESTART {0} INCREMENTING {1}")
    @CsvSource({"kafka-columnar, EXACTLY_ONCE", "kafka, EXACTLY_ONCE",
                "kafka-columnar, AT_LEAST_ONCE", "kafka, AT_LEAST_ONCE"})
    void withIncrementingTransactionalIdsASqlInsertRidesOutABrokerRestart(String connector,
                                                                          DeliveryGuarantee guarantee)
            throws Exception {
        runUnderAFault(Fault.BROKER_RESTART, connector, TransactionNamingStrategy.INCREMENTING, guarantee);
    }

    private static void runUnderAFault(Fault fault, String connector, TransactionNamingStrategy naming,
                                       DeliveryGuarantee guarantee) throws Exception {
        KafkaBroker broker = KAFKA.broker();
        String topic = "sql-" + fault.name().toLowerCase().replace('_', '-') + "-" + connector + "-"
                + naming.name().toLowerCase() + "-" + guarantee.name().toLowerCase().replace('_', '-');
        broker.createTopic(topic, 2);
        StreamTableEnvironment tEnv = tableEnvironment(fault == Fault.TASK_MANAGER_KILL, fault.rows);
        tEnv.executeSql("CREATE TABLE sink (id BIGINT, name STRING, price DOUBLE) WITH ("
                + " 'connector' = '" + connector + "', 'topic' = '" + topic + "',"
                + " 'properties.bootstrap.servers' = '" + broker.bootstrapServers() + "', 'value.format' = 'json',"
                + " 'sink.delivery-guarantee' = '" + guarantee.name().toLowerCase().replace('_', '-') + "',"
                + " 'sink.transactional-id-prefix' = '" + topic + "-tx',"
                + " 'sink.transaction-naming-strategy' = '" + naming + "',"
                + " 'properties.transaction.timeout.ms' = '60000', 'sink.parallelism' = '2')");
        String insert = "INSERT INTO sink SELECT f0, CONCAT('row ', CAST(f0 AS STRING)), CAST(f0 AS DOUBLE) / 8"
                + " FROM ids";
        String plan = tEnv.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN);
        if (connector.equals("kafka-columnar")) {
            assertThat(plan).as("the columnar sink is admitted").contains("kafka-columnar[admitted: json value]");
        } else {
            assertThat(plan).doesNotContain("kafka-columnar");
        }
        JobClient job = tEnv.executeSql(insert).getJobClient().orElseThrow();
        String vertices = cluster.restGet("/jobs/" + job.getJobID());
        if (connector.equals("kafka-columnar")) {
            assertThat(vertices).as("the job on the cluster encodes columnar")
                    .contains("ColumnarEncode[kafka-columnar[admitted: json value]]");
        } else {
            assertThat(vertices).doesNotContain("ColumnarEncode");
        }
        FlinkProcess victim = cluster.taskManagers().get(0);
        TopicReport report;
        try {
            report = FaultJobs.runWithFault(job, broker.bootstrapServers(), topic, fault.rows, fault.scenario,
                    "SQL " + connector + " " + naming, guarantee,
                    timeline -> inject(fault, timeline, job, broker), () -> cluster.logTails() + broker.logTail(30));
        } finally {
            if (!victim.isRunning()) {
                victim.start();
                cluster.awaitTaskManagers(2, FaultJobs.LOADED_MACHINE_TIMEOUT);
            }
            if (!broker.brokerProcess().isRunning()) {
                broker.brokerProcess().start();
            }
        }
        assertThat(report.missingCount()).as(report.verdict()).isZero();
        assertThat(report.unexpectedCount()).as(report.verdict()).isZero();
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
            assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), topic, Duration.ofSeconds(30)))
                    .as("no transaction left open").isEmpty();
        }
    }

    private static OutputTimeline.Fault inject(Fault fault, OutputTimeline timeline, JobClient job,
                                               KafkaBroker broker) {
        return switch (fault) {
            case TASK_MANAGER_KILL ->
                    FaultJobs.killWithCheckpointInFlight(cluster, cluster.taskManagers().get(0), job, timeline);
            case BROKER_RESTART -> FaultJobs.restartBroker(broker.brokerProcess(), OUTAGE, timeline);
        };
    }

    /**
     * A table environment on the cluster, with 1 s checkpoints, a fixed-delay restart strategy and a view
     * {@code ids} of {@code rows} ids (column {@code f0}) at {@link #ROWS_PER_SECOND}; with {@code slowSnapshots},
     * each checkpoint is held in flight 800 ms after the source.
     */
    private static StreamTableEnvironment tableEnvironment(boolean slowSnapshots, int rows) {
        StreamExecutionEnvironment env = FaultJobs.remoteEnvironment(cluster, 30);
        env.setParallelism(2);
        env.enableCheckpointing(1000);
        DataStream<Long> ids = SinkJobs.batchIndexes(env, rows, ROWS_PER_SECOND, 2, "src");
        if (slowSnapshots) {
            ids = ids.map(new FaultJobs.SlowSnapshot<>(800)).setParallelism(2).uid("slow");
        }
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        tEnv.createTemporaryView("ids", ids);
        return tEnv;
    }
}
