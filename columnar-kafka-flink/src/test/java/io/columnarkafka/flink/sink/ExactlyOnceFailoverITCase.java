package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.FailOnceWhileCheckpointInFlight;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.TransactionInfo;
import java.util.List;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * EXACTLY_ONCE through a task failure: checkpoints every 250 ms, one injected failure with a checkpoint
 * in flight, restart from the last completed checkpoint, bounded source runs to its end. Every row is
 * committed exactly once, and aborted rows exist in the log, for both transaction naming strategies.
 */
class ExactlyOnceFailoverITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(2);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @ParameterizedTest
    @EnumSource(value = TransactionNamingStrategy.class, names = {"INCREMENTING", "POOLING"})
    void everyRowIsCommittedExactlyOnceAcrossAFailover(TransactionNamingStrategy naming) throws Exception {
        String topic = "eo-failover-" + naming.name().toLowerCase();
        String prefix = "eo-" + naming.name().toLowerCase();
        KAFKA.broker().createTopic(topic, 2);
        // 12 s of input at 30 batches/s: long enough for 3 checkpoints to complete before the input runs
        // out even on a loaded 2-core CI machine, where the first EXACTLY_ONCE checkpoints take seconds.
        int batches = 360;
        int rows = 25;
        FailOnceWhileCheckpointInFlight.reset();

        StreamExecutionEnvironment env = SinkJobs.environment(3);
        env.enableCheckpointing(250);
        DataStream<Long> indexes = SinkJobs.batchIndexes(env, batches, 30, 2, "src")
                .map(new FailOnceWhileCheckpointInFlight<Long>(3))
                .setParallelism(2)
                .uid("fail-once");
        DataStream<ArrowBatch> input = SinkJobs.batches(indexes, rows, "rows");
        SinkJobs.exactlyOnceJsonSink(KAFKA.broker().bootstrapServers(), topic, prefix, naming)
                .setParallelism(2)
                .setUidPrefix("eo")
                .build()
                .sinkTo(input);

        env.execute("exactly-once failover " + naming);

        assertThat(FailOnceWhileCheckpointInFlight.failed()).as("the failure was injected").isTrue();
        assertThat(FailOnceWhileCheckpointInFlight.heldCheckpoint()).isPositive();
        TopicReport committed =
                TopicVerifier.forTopic(KAFKA.broker(), topic).verifyIds(0, batches * rows, TestRows::idOf);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        TopicReport uncommitted = TopicVerifier.forTopic(KAFKA.broker(), topic).readUncommitted().read();
        assertThat(uncommitted.totalRecords())
                .as("aborted records of the failed attempt are in the log, hidden from read_committed;"
                        + " checkpoint in flight at failure: " + FailOnceWhileCheckpointInFlight.heldCheckpoint()
                        + ", transactions: " + TopicVerifier.listTransactions(KAFKA.broker().bootstrapServers(), prefix))
                .isGreaterThan(committed.totalRecords());

        List<TransactionInfo> transactions = TopicVerifier.listTransactions(KAFKA.broker().bootstrapServers(), prefix);
        assertThat(transactions).isNotEmpty();
        assertThat(transactions).noneMatch(TransactionInfo::isOpen);
        assertThat(ArrowMemory.allocatedBytes()).isZero();
    }
}
