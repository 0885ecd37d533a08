package io.columnarkafka.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/** Validation, the declared contract and the state machine, with no broker (nothing is opened). */
class ArrowKafkaSinkConfigTest {

    private static ArrowKafkaSinkConfig.Builder valid() {
        return ArrowKafkaSinkConfig.builder()
                .topic("t")
                .bootstrapServers("127.0.0.1:1")
                .valueFormat("json", Map.of("timestamp-format.standard", "ISO-8601"))
                .keyFields("id").keyFormat("json", Map.of());
    }

    @Test
    void aValidConfigurationHasNoProblemsAndPlansTheFormatEncoders() {
        ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.TYPE, valid().build());
        assertThat(sink.validate()).isEmpty();
        assertThat(sink.encoding()).isEqualTo("json value (JsonBatchEncoder), json key (JsonBatchEncoder)");
        assertThat(sink.state()).isEqualTo(SinkState.CREATED);
        assertThat(sink.schema()).isEqualTo(ArrowLayout.schema(IdBatches.ROW_TYPE));
    }

    @Test
    void validateReturnsEveryProblemAtOnce() {
        Map<String, String> config = new HashMap<>(valid().build().toMap());
        config.put("sink.delivery-guarantee", "twice");
        config.put("sink.transactional-id-pool-size", "0");
        config.put("value.json.no-such-option", "x");
        config.put("unknown.key", "1");
        config.put("properties.not.a.producer.property", "1");
        config.put("properties.transactional.id", "mine");
        config.put("key.fields", "id;missing");
        config.put("sink.timestamp-column", "name");
        config.put("sink.flush-interval", "soon");
        config.put("sink.partitioner", "com.example.NoSuchPartitioner");
        List<ConfigProblem> problems = new ArrowKafkaSink(IdBatches.TYPE, ArrowKafkaSinkConfig.fromMap(config)).validate();

        assertThat(problems).extracting(ConfigProblem::key).containsExactlyInAnyOrder(
                "sink.delivery-guarantee", "sink.transactional-id-pool-size", "value.format", "unknown.key",
                "properties.not.a.producer.property", "properties.transactional.id", "key.fields",
                "sink.timestamp-column", "sink.flush-interval", "sink.partitioner");
        assertThat(problems.toString())
                .contains("twice", "no-such-option", "'missing' is not a column", "name' is STRING",
                        "'soon'", "NoSuchPartitioner");
    }

    @Test
    void aFormatThatCannotEncodeTheColumnsIsAProblemNamingTheFormat() {
        ArrowKafkaSinkConfig config = ArrowKafkaSinkConfig.builder().topic("t").bootstrapServers("h:1")
                .valueFormat("raw", Map.of()).build();
        List<ConfigProblem> problems = new ArrowKafkaSink(IdBatches.TYPE, config).validate();
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0).key()).isEqualTo("value.format");
        assertThat(problems.get(0).message()).startsWith("raw cannot encode");
    }

    @Test
    void exactlyOnceNeedsAPrefixAndMissingRequiredKeysAreNamed() {
        ArrowKafkaSinkConfig config = ArrowKafkaSinkConfig.builder()
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).build();
        assertThat(new ArrowKafkaSink(IdBatches.TYPE, config).validate()).extracting(ConfigProblem::key)
                .containsExactlyInAnyOrder("sink.transactional-id-prefix", "topic", "properties.bootstrap.servers",
                        "value.format");
    }

    @Test
    void theContractIsDeclaredWithoutOpening() {
        ArrowKafkaSink none = new ArrowKafkaSink(IdBatches.TYPE, valid().build());
        ArrowKafkaSink exactlyOnce = new ArrowKafkaSink(IdBatches.TYPE, valid()
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).transactionalIdPrefix("p")
                .producerProperty("transaction.timeout.ms", "30000").flushInterval(Duration.ofMillis(250)).build());
        assertThat(none.contract().transactional()).isFalse();
        assertThat(exactlyOnce.contract().deliveryGuarantee()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(exactlyOnce.contract().transactional()).isTrue();
        assertThat(exactlyOnce.contract().idempotent()).isTrue();
        assertThat(exactlyOnce.contract().epochDuty()).contains("preCommit", "persist", "before open()", "30000 ms");
        assertThat(exactlyOnce.flushInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(exactlyOnce.suggestedWriteTimeout()).isEqualTo(Duration.ofMinutes(3));
        assertThat(exactlyOnce.state()).isEqualTo(SinkState.CREATED);
    }

    @Test
    void callsOutOfOrderAreRefusedWithWhatToCall() {
        ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.TYPE, valid()
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).transactionalIdPrefix("p").build());
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = IdBatches.batch(allocator, 0, 3)) {
            assertThatThrownBy(() -> sink.writeBatch(batch)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("call open() first");
            assertThatThrownBy(() -> sink.beginEpoch(1)).hasMessageContaining("call open() first");
            assertThatThrownBy(() -> sink.flush(Duration.ofSeconds(1))).hasMessageContaining("call open() first");
            assertThatThrownBy(() -> sink.preCommit(1)).hasMessageContaining("call open() first");
            sink.rollbackEpoch(1); // nothing open: a no-op, as promised
            sink.close();
            assertThat(sink.state()).isEqualTo(SinkState.CLOSED);
            assertThatThrownBy(sink::open).hasMessageContaining("the sink is closed");
            assertThatThrownBy(() -> sink.writeBatch(batch)).hasMessageContaining("the sink is closed");
            sink.close(); // idempotent
        }
        ArrowKafkaSink atLeastOnce = new ArrowKafkaSink(IdBatches.TYPE, valid()
                .deliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE).build());
        assertThatThrownBy(() -> atLeastOnce.beginEpoch(0)).hasMessageContaining("exactly-once")
                .hasMessageContaining("use flush()");
    }

    @Test
    void openRefusesAnInvalidConfigurationListingEveryProblem() {
        ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.TYPE, ArrowKafkaSinkConfig.fromMap(Map.of("x", "1")));
        assertThatThrownBy(sink::open).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("x: unknown key").hasMessageContaining("topic: is required");
        assertThat(sink.state()).isEqualTo(SinkState.CREATED);
    }

    @Test
    void anArrowSchemaGivesTheRowTypeItCarries() {
        String type = "ROW<a BOOLEAN, b TINYINT, c SMALLINT, d INT NOT NULL, e BIGINT, f FLOAT, g DOUBLE,"
                + " h DECIMAL(20, 4), i STRING, j BYTES, k DATE, l TIME(0), m TIMESTAMP(3), n TIMESTAMP(3),"
                + " o TIMESTAMP(6), p TIMESTAMP(9), q TIMESTAMP_LTZ(3), r ARRAY<STRING>, s ROW<x INT, y STRING>,"
                + " t MAP<STRING NOT NULL, BYTES>>";
        ArrowKafkaSink sink = new ArrowKafkaSink(ArrowLayout.schema(RowTypes.parse(type)), valid().build());
        assertThat(sink.rowType()).isEqualTo(RowTypes.parse(type));
    }

    @Test
    void anEpochDescriptorSurvivesItsTextFormAndJavaSerialization() throws Exception {
        EpochDescriptor descriptor = new EpochDescriptor(42, "orders-sink-1", 7001, (short) 3, true, 1234);
        assertThat(EpochDescriptor.parse(descriptor.toString())).isEqualTo(descriptor);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(descriptor);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(descriptor);
        }
        assertThatThrownBy(() -> EpochDescriptor.parse("epoch=1")).hasMessageContaining("not an epoch descriptor");
    }
}
