package io.columnarkafka.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.faults.FaultJobs.SinkUnderTest;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.time.Duration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The only broker is stopped (SIGTERM, controlled shutdown) for 20 s while the job writes, then started again on the
 * same ports and data, with {@code POOLING} and {@code INCREMENTING} transactional ids. AT_LEAST_ONCE: nothing lost,
 * duplicates counted. EXACTLY_ONCE: every row once {@code read_committed}. The columnar sink and stock Flink's
 * {@code KafkaSink} run the same job; the recovery time (fault to the first committed output after the restart) of
 * each is recorded in {@code target/fault-results.md}. The {@code INCREMENTING} cells are a method of their own, so
 * they can be run alone. (Under AT_LEAST_ONCE Flink's {@code KafkaSink} opens no transaction, so the naming strategy
 * is configured but unused; the cell shows the sink accepts it and behaves as with {@code POOLING}.)
 */
@Tag("faults")
class BrokerRestartFaultITCase {
    private static final Duration OUTAGE = Duration.ofSeconds(20);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(2);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.dedicated(FaultJobs.LOADED_MACHINE_TIMEOUT);

    @ParameterizedTest(name = "{0} {1} POOLING")
    @CsvSource({"COLUMNAR, EXACTLY_ONCE", "STOCK, EXACTLY_ONCE", "COLUMNAR, AT_LEAST_ONCE", "STOCK, AT_LEAST_ONCE"})
    void aBrokerStoppedFor20SecondsLosesNothing(SinkUnderTest sink, DeliveryGuarantee guarantee) throws Exception {
        runThroughABrokerRestart(sink, guarantee, TransactionNamingStrategy.POOLING);
    }

    @ParameterizedTest(name = "{0} {1} INCREMENTING")
    @CsvSource({"COLUMNAR, EXACTLY_ONCE", "STOCK, EXACTLY_ONCE", "COLUMNAR, AT_LEAST_ONCE", "STOCK, AT_LEAST_ONCE"})
    void withIncrementingTransactionalIdsABrokerStoppedFor20SecondsLosesNothing(SinkUnderTest sink,
                                                                              DeliveryGuarantee guarantee)
            throws Exception {
        runThroughABrokerRestart(sink, guarantee, TransactionNamingStrategy.INCREMENTING);
    }

    private static void runThroughABrokerRestart(SinkUnderTest sink, DeliveryGuarantee guarantee,
                                                 TransactionNamingStrategy naming) throws Exception {
        KafkaBroker broker = KAFKA.broker();
        String topic = "restart-" + sink.name().toLowerCase() + "-" + guarantee.name().toLowerCase().replace('_', '-')
                + "-" + naming.name().toLowerCase();
        broker.createTopic(topic, 2);
        // 40 s of input at 25 batches/s of 40 rows: output before the outage, during it the source keeps producing.
        int batches = 1000;
        int rows = 40;

        JobClient job = FaultJobs.job(sink, guarantee, broker.bootstrapServers(), topic, batches, rows, 25, naming)
                .executeAsync("broker restart " + sink + " " + guarantee + " " + naming);
        TopicReport report = FaultJobs.runWithFault(job, broker.bootstrapServers(), topic, (long) batches * rows,
                "broker stopped 20 s, restarted", sink + " " + naming, guarantee,
                timeline -> FaultJobs.restartBroker(broker.brokerProcess(), OUTAGE, timeline),
                () -> broker.logTail(30));
        assertThat(report.missingCount()).as(report.verdict()).isZero();
        assertThat(report.unexpectedCount()).as(report.verdict()).isZero();
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
            assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), topic, Duration.ofSeconds(30)))
                    .as("no transaction left open").isEmpty();
        }
        assertThat(ArrowMemory.allocatedBytes()).isZero();
    }
}
