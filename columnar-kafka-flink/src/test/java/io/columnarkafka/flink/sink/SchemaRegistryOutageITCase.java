package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.format.avro.parity.TestSchemaRegistry;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The bad-input catalogue's schema registry cases, end to end (docs/faults.md): an EXACTLY_ONCE {@code avro-confluent}
 * job whose registry ({@link TestSchemaRegistry}, a real HTTP server) is down when the job starts. The sink resolves
 * the schema id on each subtask's first batch, before encoding it, retrying as the Confluent client does (1 s, 2 s,
 * 4 s). A registry back within the retries is ridden out; one that stays down fails the job naming the registry
 * and the subject, with nothing sent to Kafka and every Arrow buffer freed. The slow registry and the refusal are
 * {@code SchemaRegistryFaultTest}'s, on the encoder.
 */
class SchemaRegistryOutageITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(1);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final RowType ROW = (RowType) TestRows.ROW_TYPE.copy(false);
    private static final int BATCHES = 10;
    private static final int ROWS = 20;

    @Test
    void aRegistryDownForLongerThanTheRetriesFailsTheJobNamingItAndNothingIsSent() throws Exception {
        String topic = "registry-down";
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null)) {
            registry.stop();
            StreamExecutionEnvironment env = job(topic, registry);
            assertThatThrownBy(() -> env.execute("registry down"))
                    .satisfies(e -> {
                        Throwable root = ExceptionUtils.findThrowableWithMessage(e, "schema registry")
                                .orElseThrow(() -> new AssertionError("no registry error in", e));
                        System.out.println("registry down: " + root.getMessage());
                        assertThat(root.getMessage()).contains("schema registry " + registry.url()
                                + "/ failed registering the schema of subject '" + topic + "-value': 4 attempts",
                                "the last was unreachable");
                    });
        }
        assertThat(TopicVerifier.forTopic(KAFKA.broker(), topic).readUncommitted().read().totalRecords())
                .as("nothing sent, even uncommitted").isZero();
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void aRegistryBackWithinTheRetriesIsRiddenOutAndEveryRowIsWrittenOnce() throws Exception {
        String topic = "registry-back";
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null)) {
            registry.stop();
            Thread restart = new Thread(() -> {
                try {
                    Thread.sleep(2_000);
                    registry.start();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            restart.start();
            job(topic, registry).execute("registry back");
            restart.join();

            List<TopicRecord> records = TopicVerifier.forTopic(KAFKA.broker(), topic).keepRecords(true).read()
                    .records();
            assertThat(records).hasSize(BATCHES * ROWS);
            int id = ByteBuffer.wrap(records.get(0).value(), 1, 4).getInt();
            assertThat(id).isGreaterThanOrEqualTo(100);
            assertThat(records).allSatisfy(r -> {
                assertThat(r.value()[0]).isZero();
                assertThat(ByteBuffer.wrap(r.value(), 1, 4).getInt()).isEqualTo(id);
            });
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /** An EXACTLY_ONCE job of {@link #BATCHES} batches into a new topic, registering with {@code registry}. */
    private static StreamExecutionEnvironment job(String topic, TestSchemaRegistry registry) {
        KAFKA.broker().createTopic(topic, 1);
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.enableCheckpointing(300);
        DataStream<ArrowBatch> input = SinkJobs.batches(SinkJobs.batchIndexes(env, BATCHES, 20, 1, "src"), ROWS,
                "rows");
        ColumnarKafkaSink.builder()
                .setRowType(ROW)
                .setValueFormat("avro-confluent", Map.of("url", registry.url()))
                .setTopic(topic)
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(topic)
                .setProperty("transaction.timeout.ms", "60000")
                .setParallelism(1)
                .build()
                .sinkTo(input);
        return env;
    }
}
