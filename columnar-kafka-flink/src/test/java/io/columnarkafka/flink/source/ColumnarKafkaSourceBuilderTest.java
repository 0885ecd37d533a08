package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.client.decode.DecodingSpec;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumStateSerializer;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitSerializer;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;
import org.junit.jupiter.api.Test;

class ColumnarKafkaSourceBuilderTest {

    private static ColumnarKafkaSource.Builder valid() {
        return ColumnarKafkaSource.builder()
                .setBootstrapServers("localhost:9092")
                .setTopics("bids")
                .setRowType("ROW<k STRING, v STRING, ts TIMESTAMP(3), n BIGINT>")
                .setValueFormat("raw", Map.of());
    }

    @Test
    void flinksKafkaSourceOwnsSplitsStateAndConsumerProperties() throws Exception {
        ColumnarKafkaSource<ArrowBatch> source = ColumnarKafkaSource.builder()
                .setBootstrapServers("localhost:9092")
                .setTopics("bids")
                .setGroupId("g")
                .setBounded(OffsetsInitializer.latest())
                .setRowType("ROW<v STRING>")
                .setValueFormat("raw", Map.of())
                .build();

        assertThat(source.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(source.getSplitSerializer()).isInstanceOf(KafkaPartitionSplitSerializer.class);
        assertThat(source.getEnumeratorCheckpointSerializer()).isInstanceOf(KafkaSourceEnumStateSerializer.class);
        assertThat(source.getProducedType()).isEqualTo(ArrowBatchTypeInfo.INSTANCE);
        Properties consumer = source.consumerProperties();
        assertThat(consumer.getProperty("group.id")).isEqualTo("g");
        // The readers take views of the fetched bytes instead of a byte[] copy per record; no broker sees this.
        assertThat(consumer.getProperty("key.deserializer")).isEqualTo(ByteBufferDeserializer.class.getName());
        assertThat(consumer.getProperty("value.deserializer")).isEqualTo(ByteBufferDeserializer.class.getName());
        assertThat(consumer.getProperty("enable.auto.commit")).isEqualTo("false");
        // KafkaSourceBuilder turns partition discovery off in bounded mode.
        assertThat(consumer.getProperty("partition.discovery.interval.ms")).isEqualTo("-1");
        ColumnarKafkaSource<ArrowBatch> copy = InstantiationUtil.clone(source);
        assertThat(copy.consumerProperties()).isEqualTo(consumer);
        assertThat(copy.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
    }

    /**
     * A changelog value format (debezium-json, ogg-json) gives the row kinds: the row type ends with the TINYINT column
     * its decoder fills; it is no upsert value format (Flink's upsert-kafka takes insert-only ones).
     */
    @Test
    void aChangelogValueFormatNeedsALastRowKindColumn() {
        ColumnarKafkaSource.Builder debezium = ColumnarKafkaSource.builder().setBootstrapServers("localhost:9092")
                .setTopics("t").setValueFormat("debezium-json", Map.of());
        assertThat(debezium.setRowType("ROW<id BIGINT, v STRING, kind TINYINT>").build()).isNotNull();
        assertThatThrownBy(() -> debezium.setRowType("ROW<id BIGINT, v STRING>").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the changelog format debezium-json needs a last TINYINT field for the row kinds");
        assertThatThrownBy(() -> debezium.setRowType("ROW<id BIGINT, kind TINYINT>").setKeyFields("id")
                .setKeyFormat("json", Map.of()).setUpsertMode(true).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("upsert mode takes an insert-only value format");
    }

    @Test
    void unboundedByDefault() {
        assertThat(ColumnarKafkaSource.builder().setBootstrapServers("localhost:9092").setTopics("t")
                .setRowType("ROW<v STRING>").setValueFormat("raw", Map.of()).build().getBoundedness())
                .isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    }

    @Test
    void keyAndValueFieldsFollowFlinksKafkaTableSource() {
        DecodingSpec all = valid().setRowType("ROW<k STRING, v STRING>").setKeyFields("k")
                .setKeyFormat("raw", Map.of()).setValueFormat("raw", Map.of())
                .setValueFieldsInclude(DecodingSpec.ValueFieldsInclude.EXCEPT_KEY).build().decodingSpec();
        assertThat(all.keyProjection()).containsExactly(0);
        assertThat(all.valueProjection()).containsExactly(1);
        assertThat(all.keyDecoder().rowType().getFieldNames()).containsExactly("k");
        assertThat(all.valueDecoder().rowType().getFieldNames()).containsExactly("v");

        DecodingSpec prefixed = valid().setRowType("ROW<key_id STRING, v STRING>").setKeyFields("key_id")
                .setKeyFieldsPrefix("key_").setKeyFormat("raw", Map.of())
                .setValueFieldsInclude(DecodingSpec.ValueFieldsInclude.EXCEPT_KEY).build().decodingSpec();
        assertThat(prefixed.keyDecoder().rowType().getFieldNames()).containsExactly("id");
    }

    @Test
    void badSettingsFailAtBuildNamingTheProblem() {
        assertThatThrownBy(() -> ColumnarKafkaSource.builder().setBootstrapServers("b").setTopics("t")
                .setValueFormat("raw", Map.of()).build()).hasMessageContaining("row type");
        assertThatThrownBy(() -> ColumnarKafkaSource.builder().setBootstrapServers("b").setTopics("t")
                .setRowType("ROW<v STRING>").build()).hasMessageContaining("value format");
        assertThatThrownBy(() -> valid().setRowType("ROW<v STRING>").setValueFormat("avro-confluent", Map.of()).build())
                .hasMessageContaining("avro-confluent");
        assertThatThrownBy(() -> valid().setKeyFields("k").build()).hasMessageContaining("need a key format");
        assertThatThrownBy(() -> valid().setKeyFormat("raw", Map.of()).build()).hasMessageContaining("needs key fields");
        assertThatThrownBy(() -> valid().setRowType("ROW<k STRING, v STRING>").setKeyFields("nope")
                .setKeyFormat("raw", Map.of()).build()).hasMessageContaining("'nope'");
        assertThatThrownBy(() -> valid().setRowType("ROW<key_k STRING, v STRING>").setKeyFields("key_k")
                .setKeyFieldsPrefix("key_").setKeyFormat("raw", Map.of()).build())
                .hasMessageContaining("EXCEPT_KEY");
        assertThatThrownBy(() -> valid().setRowType("ROW<v STRING>").setTimestampField("ts").build())
                .hasMessageContaining("'ts'");
        assertThatThrownBy(() -> valid().setRowType("ROW<n BIGINT>").setTimestampField("n").build())
                .hasMessageContaining("TIMESTAMP");
        assertThatThrownBy(() -> valid().setMaxBatchRows(0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> valid().setMaxBatchTime(Duration.ofMillis(-1))).hasMessageContaining("negative");
        assertThatThrownBy(() -> valid().setMaxBatchBytes(0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> valid().setAllocatorLimit(0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> ColumnarKafkaSource.builder().setRowType("ROW<v STRING>")
                .setValueFormat("raw", Map.of()).build()).isInstanceOf(RuntimeException.class);
    }
}
