package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.flink.record.PreSerializedRecordSerializationSchema;
import io.columnarkafka.flink.testing.TestRows;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.junit.jupiter.api.Test;

class ColumnarKafkaSinkBuilderTest {

    private static ColumnarKafkaSink.Builder valid() {
        return ColumnarKafkaSink.builder()
                .setRowType(TestRows.ROW_TYPE_STRING)
                .setValueFormat("json", Map.of())
                .setTopic("t")
                .setBootstrapServers("127.0.0.1:9");
    }

    @Test
    void missingSettingsAreNamed() {
        assertThatThrownBy(() -> ColumnarKafkaSink.builder().setValueFormat("json", Map.of()).setTopic("t").build())
                .hasMessageContaining("setRowType");
        assertThatThrownBy(() -> ColumnarKafkaSink.builder().setRowType(TestRows.ROW_TYPE).setTopic("t").build())
                .hasMessageContaining("setValueFormat");
        assertThatThrownBy(() -> valid().setTopic(null).build()).hasMessageContaining("setTopic");
    }

    @Test
    void keySettingsAreCheckedAgainstTheRowType() {
        assertThatThrownBy(() -> valid().setKeyFields("id").build()).hasMessageContaining("setKeyFormat");
        assertThatThrownBy(() -> valid().setKeyFormat("json", Map.of()).build()).hasMessageContaining("setKeyFields");
        assertThatThrownBy(() -> valid().setKeyFields("nope").setKeyFormat("json", Map.of()).build())
                .hasMessageContaining("'nope'");
        assertThatThrownBy(() -> valid().setKeyFields("id").setKeyFieldsPrefix("k_").setKeyFormat("json", Map.of())
                        .build())
                .hasMessageContaining("k_");
        assertThat(valid().setKeyFields("id", "name").setKeyFormat("json", Map.of()).build()).isNotNull();
    }

    @Test
    void formatsAndOptionsAreValidatedWhenBuilding() {
        assertThatThrownBy(() -> valid().setValueFormat("xml", Map.of()).build()).hasMessageContaining("xml");
        assertThatThrownBy(() -> valid().setValueFormat("json", Map.of("no-such-option", "x")).build())
                .hasMessageContaining("no-such-option");
    }

    @Test
    void aNegativeQueueDelayIsRejected() {
        assertThatThrownBy(() -> valid().setMaxQueueDelay(Duration.ofMillis(-1)))
                .hasMessageContaining("queue delay must not be negative");
        assertThat(valid().setMaxQueueDelay(Duration.ZERO).build()).isNotNull();
    }

    @Test
    void kafkaSettingsGoToTheStockBuilderWhichValidatesThem() {
        // KafkaSinkBuilder's own rule: EXACTLY_ONCE needs a transactional-id prefix.
        assertThatThrownBy(() -> valid().setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).build())
                .hasMessageContaining("transactionalIdPrefix");
        ColumnarKafkaSink sink = valid()
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix("p")
                .setTransactionNamingStrategy(TransactionNamingStrategy.POOLING)
                .build();
        assertThat(sink.kafkaSink()).isNotNull();
        assertThat(new PreSerializedRecordSerializationSchema(java.util.List.of("t")).getKafkaDatasetFacet())
                .isPresent();
    }
}
