package io.columnarkafka.format.avro.parity;

import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.avro.AvroConfluentBatchEncoder;
import io.columnarkafka.format.avro.AvroConfluentFormatOptions;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * {@code avro-confluent}: each record is the Confluent wire format (magic byte 0, 4-byte big-endian schema id;
 * https://docs.confluent.io/platform/current/schema-registry/fundamentals/serdes-develop/index.html#wire-format)
 * around the Avro datum Flink's {@code AvroRowDataSerializationSchema} writes with the legacy mapping, and the
 * schema registered is Flink's {@code AvroSchemaConverter.convertToSchema(rowType)}. The registry is {@link
 * TestSchemaRegistry}, an in-process server of the Confluent REST contract.
 */
class AvroConfluentParityTest {
    static final RowType TYPE = RowTypes.parse("ROW<id BIGINT NOT NULL, name STRING, price DECIMAL(10, 2),"
            + " ts TIMESTAMP(3), tags ARRAY<STRING>, attrs MAP<STRING, INT>, nested ROW<x DOUBLE, b BYTES>>");

    private static List<RowData> rows(int count) {
        RandomValues random = new RandomValues(3, false);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(random.row(TYPE));
        }
        return rows;
    }

    private static RecordSlab encode(BatchEncoder encoder, Projection projection, List<RowData> rows,
            BufferAllocator allocator) {
        RowDataArrowWriter writer = new RowDataArrowWriter(projection.batchType(), allocator);
        try (writer) {
            rows.forEach(writer::write);
            return encoder.encode(writer.finish());
        }
    }

    @Test
    void recordsAreWireFramedFlinkAvroAndTheSchemaIsRegisteredOnce() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null);
                BufferAllocator allocator = new RootAllocator()) {
            Projection projection = Projection.all(TYPE);
            String subject = AvroConfluentFormatOptions.defaultSubject("orders", false);
            AvroConfluentBatchEncoder encoder = (AvroConfluentBatchEncoder) Formats.encoder("avro-confluent",
                    projection, Map.of("url", registry.url(), "subject", subject));
            List<RowData> rows = rows(50);
            ParityCheck.Oracle flink = FlinkAvroOracle.open(TYPE, Map.of());
            for (int batch = 0; batch < 3; batch++) {
                RecordSlab slab = encode(encoder, projection, rows, allocator);
                assertThat(slab.recordCount()).isEqualTo(rows.size());
                for (int i = 0; i < rows.size(); i++) {
                    byte[] record = slab.copyRecord(i);
                    ByteBuffer header = ByteBuffer.wrap(record, 0, 5); // big-endian by default
                    assertThat(header.get()).isZero();
                    assertThat(header.getInt()).isEqualTo(encoder.schemaId());
                    assertThat(Arrays.copyOfRange(record, 5, record.length)).isEqualTo(flink.serialize(rows.get(i)));
                }
            }
            List<TestSchemaRegistry.Request> requests = registry.requests();
            assertThat(requests).hasSize(1);
            assertThat(requests.get(0).method()).isEqualTo("POST");
            assertThat(requests.get(0).path()).isEqualTo("/subjects/orders-value/versions");
            String registered = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(requests.get(0).body()).get("schema").asText();
            assertThat(registered).isEqualTo(AvroSchemaConverter.convertToSchema(TYPE).toString());
            assertThat(encoder.schemaId()).isEqualTo(100);
        }
    }

    @Test
    void keyFormatUsesTheKeySubjectAndTheKeyProjection() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null);
                BufferAllocator allocator = new RootAllocator()) {
            RowType batchType = RowTypes.parse("ROW<k_id BIGINT, v STRING, k_region STRING>");
            Projection key = Projection.of(batchType, 0, 2).withNames(List.of("id", "region"));
            BatchEncoder encoder = Formats.encoder("avro-confluent", key,
                    Map.of("schema-registry.url", registry.url(),
                            "subject", AvroConfluentFormatOptions.defaultSubject("orders", true)));
            List<RowData> rows = List.of(row(1L, str("a"), str("eu")), row(null, str("b"), null));
            RecordSlab slab = encode(encoder, key, rows, allocator);
            RowType keyType = key.outputType();
            ParityCheck.Oracle flink = FlinkAvroOracle.open(keyType, Map.of());
            for (int i = 0; i < rows.size(); i++) {
                byte[] record = slab.copyRecord(i);
                assertThat(Arrays.copyOfRange(record, 0, 5)).containsExactly(0, 0, 0, 0, 100);
                assertThat(Arrays.copyOfRange(record, 5, record.length))
                        .isEqualTo(flink.serialize(ParityCheck.project(key, rows.get(i))));
            }
            assertThat(registry.requests().get(0).path()).isEqualTo("/subjects/orders-key/versions");
        }
    }

    @Test
    void withoutAutoRegistrationTheIdIsLookedUp() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null);
                BufferAllocator allocator = new RootAllocator()) {
            Projection projection = Projection.all(TYPE);
            Map<String, String> options = Map.of("url", registry.url(), "subject", "s",
                    "auto.register.schemas", "false");
            BatchEncoder missing = Formats.encoder("avro-confluent", projection, options);
            assertThatThrownBy(() -> encode(missing, projection, rows(1), allocator))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("404");
            registry.preRegister("other", "\"string\"");
            int id = registry.preRegister("s", AvroSchemaConverter.convertToSchema(TYPE).toString());
            BatchEncoder encoder = Formats.encoder("avro-confluent", projection, options);
            RecordSlab slab = encode(encoder, projection, rows(2), allocator);
            assertThat(ByteBuffer.wrap(slab.copyRecord(1), 1, 4).getInt()).isEqualTo(id).isEqualTo(101);
            assertThat(registry.requests()).extracting(TestSchemaRegistry.Request::path)
                    .containsExactly("/subjects/s", "/subjects/s");
        }
    }

    @Test
    void basicAndBearerAuthorizationHeaders() throws Exception {
        String basic = "Basic " + Base64.getEncoder().encodeToString("user:secret".getBytes());
        try (TestSchemaRegistry registry = new TestSchemaRegistry(basic);
                BufferAllocator allocator = new RootAllocator()) {
            Projection projection = Projection.all(TYPE);
            Map<String, String> options = new HashMap<>(Map.of("url", registry.url(), "subject", "s"));
            BatchEncoder anonymous = Formats.encoder("avro-confluent", projection, options);
            assertThatThrownBy(() -> encode(anonymous, projection, rows(1), allocator))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("401");
            options.put("basic-auth.credentials-source", "USER_INFO");
            options.put("basic-auth.user-info", "user:secret");
            assertThat(encode(Formats.encoder("avro-confluent", projection, options), projection, rows(1), allocator)
                    .recordCount()).isEqualTo(1);
            Map<String, String> inUrl = Map.of("url", registry.url().replace("http://", "http://user:secret@"),
                    "subject", "s", "basic-auth.credentials-source", "URL");
            assertThat(encode(Formats.encoder("avro-confluent", projection, inUrl), projection, rows(1), allocator)
                    .recordCount()).isEqualTo(1);
        }
        try (TestSchemaRegistry registry = new TestSchemaRegistry("Bearer t0ken");
                BufferAllocator allocator = new RootAllocator()) {
            Projection projection = Projection.all(TYPE);
            BatchEncoder encoder = Formats.encoder("avro-confluent", projection, Map.of("url", registry.url(),
                    "subject", "s", "bearer-auth.credentials-source", "STATIC_TOKEN", "bearer-auth.token", "t0ken"));
            assertThat(encode(encoder, projection, rows(1), allocator).recordCount()).isEqualTo(1);
        }
    }

    @Test
    void missingOrUnsupportedOptionsAreRejected() {
        Projection projection = Projection.all(TYPE);
        assertThatThrownBy(() -> Formats.encoder("avro-confluent", projection, Map.of("url", "http://x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subject");
        assertThatThrownBy(() -> Formats.encoder("avro-confluent", projection,
                Map.of("url", "http://x", "subject", "s", "schema", "\"string\"")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema");
        assertThatThrownBy(() -> Formats.encoder("avro-confluent", projection,
                Map.of("url", "http://x", "subject", "s", "timestamp_mapping.legacy", "false")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
