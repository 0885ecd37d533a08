package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.avro.parity.FlinkAvroOracle;
import io.columnarkafka.format.avro.parity.TestSchemaRegistry;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code avro-confluent} through the DataStream sink and a real broker, registering with the format
 * module's in-process registry that follows the Confluent Schema Registry REST contract (Flink's own
 * avro-confluent format does not resolve from Maven Central here, so there is no stock run to compare with).
 * Each record is checked against the Confluent wire format and Flink's Avro serializer: magic byte 0, the
 * 4-byte big-endian id the registry gave Flink's schema under {@code <topic>-value} / {@code <topic>-key}
 * (the subjects Flink's Kafka connector uses by default), then exactly flink-avro's
 * {@code AvroRowDataSerializationSchema} bytes of the row.
 */
class AvroConfluentSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(2);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    /** As Flink's Kafka connector hands it to its formats: the physical row, NOT NULL. */
    private static final RowType ROW = (RowType) TestRows.ROW_TYPE.copy(false);
    private static final RowType KEY = (RowType) RowTypes.parse("ROW<id BIGINT NOT NULL>").copy(false);

    @Test
    void keyAndValueCarryTheRegisteredIdsAndFlinksAvroBytes() throws Exception {
        String topic = "avro-confluent";
        KAFKA.broker().createTopic(topic, 2);
        int batches = 12;
        int rows = 25;
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null)) {
            StreamExecutionEnvironment env = SinkJobs.environment(0);
            DataStream<ArrowBatch> input =
                    SinkJobs.batches(SinkJobs.batchIndexes(env, batches, 0, 1, "src"), rows, "rows");
            ColumnarKafkaSink.builder()
                    .setRowType(ROW)
                    .setValueFormat("avro-confluent", Map.of("url", registry.url()))
                    .setKeyFields("id")
                    .setKeyFormat("avro-confluent", Map.of("url", registry.url()))
                    .setTopic(topic)
                    .setBootstrapServers(KAFKA.broker().bootstrapServers())
                    .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                    .setParallelism(1)
                    .build()
                    .sinkTo(input);
            env.execute("avro-confluent");

            // The registry hands out one id per schema: re-registering Flink's own schema returns the id the
            // sink was given only if the sink registered exactly that schema under that subject.
            int valueId = registry.preRegister(topic + "-value", AvroSchemaConverter.convertToSchema(ROW).toString());
            int keyId = registry.preRegister(topic + "-key", AvroSchemaConverter.convertToSchema(KEY).toString());
            assertThat(registry.requests())
                    .extracting(TestSchemaRegistry.Request::path)
                    .contains("/subjects/" + topic + "-value/versions", "/subjects/" + topic + "-key/versions");

            ParityCheck.Oracle valueAvro = FlinkAvroOracle.open(ROW, Map.of());
            ParityCheck.Oracle keyAvro = FlinkAvroOracle.open(KEY, Map.of());
            List<TopicRecord> records =
                    TopicVerifier.forTopic(KAFKA.broker(), topic).keepRecords(true).read().records();
            assertThat(records).hasSize(batches * rows);
            Set<Long> ids = new HashSet<>();
            for (TopicRecord record : records) {
                long id = idOfKey(record.key());
                assertThat(ids.add(id)).as("row %s written once", id).isTrue();
                assertThat(record.value()).isEqualTo(confluent(valueId, valueAvro.serialize(TestRows.rowData(id))));
                assertThat(record.key()).isEqualTo(confluent(keyId, keyAvro.serialize(GenericRowData.of(id))));
            }
            assertThat(ids).hasSize(batches * rows);
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /** The Confluent wire format: magic byte 0, the schema id as a 4-byte big-endian int, the Avro body. */
    private static byte[] confluent(int schemaId, byte[] avro) {
        return ByteBuffer.allocate(5 + avro.length).put((byte) 0).putInt(schemaId).put(avro).array();
    }

    /** The row id of a key record: the key's Avro body is the id as a zig-zag varint long. */
    private static long idOfKey(byte[] key) {
        long raw = 0;
        int shift = 0;
        for (int i = 5; i < key.length; i++) {
            raw |= (long) (key[i] & 0x7f) << shift;
            shift += 7;
            if ((key[i] & 0x80) == 0) {
                break;
            }
        }
        return (raw >>> 1) ^ -(raw & 1);
    }
}
