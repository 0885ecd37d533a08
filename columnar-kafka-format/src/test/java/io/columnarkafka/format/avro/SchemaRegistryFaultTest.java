package io.columnarkafka.format.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.FlinkValues;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.avro.parity.TestSchemaRegistry;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * {@code avro-confluent} with a schema registry that is down, slow or overloaded: {@link TestSchemaRegistry}, a real
 * HTTP server of the registry's REST contract, goes down (connections refused), answers late or answers 503. A
 * failure that may pass is retried with a growing wait ({@link RegistryRetries}, shortened here); once the retries
 * are spent, or at once for a 4xx, the batch fails with an error naming the registry's URL, the subject and the last
 * failure. The schema is resolved before any record is written, so a failed batch hands out no record, and every
 * Arrow buffer of the batch is freed.
 */
class SchemaRegistryFaultTest {
    private static final RowType TYPE = RowTypes.parse("ROW<id BIGINT NOT NULL, name STRING>");
    private static final String SUBJECT = "orders-value";
    /**
     * Two retries 50 ms then 100 ms apart; a request times out after 10 s, since on a loaded machine the stub can
     * take seconds to parse its first schema.
     */
    private static final RegistryRetries FAST =
            new RegistryRetries(2, Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofSeconds(10));
    /** As {@link #FAST}, timing out after 1 s, for a registry that answers after 10 s. */
    private static final RegistryRetries IMPATIENT =
            new RegistryRetries(2, Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofSeconds(1));

    @Test
    void aRegistryThatIsDownFailsAfterTheRetriesNamingItsUrlAndTheSubject() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null)) {
            registry.stop();
            assertFailsAndHandsOutNothing(encoder(registry, FAST, true), "schema registry " + registry.url()
                    + "/ failed registering the schema of subject '" + SUBJECT + "': 3 attempts over",
                    "the last was unreachable (java.net.ConnectException");
        }
    }

    @Test
    void aSlowRegistryTimesOutAfterTheRetriesNamingTheTimeout() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null)) {
            registry.delayAnswers(Duration.ofSeconds(10));
            assertFailsAndHandsOutNothing(encoder(registry, IMPATIENT, true), "schema registry " + registry.url()
                    + "/ failed registering the schema of subject '" + SUBJECT + "': 3 attempts over",
                    "the last did not answer within 1000 ms");
        }
    }

    @Test
    void anOverloadedRegistryThatRecoversWithinTheRetriesIsRiddenOut() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null);
             BufferAllocator allocator = new RootAllocator()) {
            registry.failNext(2, 503);
            AvroConfluentBatchEncoder encoder = encoder(registry, FAST, true);
            assertEncodesWithTheRegisteredId(encoder, allocator);
            assertThat(registry.requests()).hasSize(3);
        }
    }

    @Test
    void aRegistryBackUpWithinTheRetriesIsRiddenOut() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null);
             BufferAllocator allocator = new RootAllocator()) {
            registry.stop();
            Thread restart = new Thread(() -> {
                try {
                    Thread.sleep(300);
                    registry.start();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            restart.start();
            AvroConfluentBatchEncoder encoder = encoder(registry,
                    new RegistryRetries(10, Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofSeconds(10)),
                    true);
            assertEncodesWithTheRegisteredId(encoder, allocator);
            restart.join();
        }
    }

    @Test
    void aRefusalIsNotRetried() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null)) {
            // without auto-registration, a subject that lacks the schema: 404, error 40403
            assertFailsAndHandsOutNothing(encoder(registry, FAST, false), "schema registry " + registry.url()
                    + "/ answered 404 to looking up the schema of subject '" + SUBJECT + "'", "40403");
            assertThat(registry.requests()).hasSize(1);
        }
    }

    @Test
    void aDecoderWhoseRegistryIsDownFailsAfterTheRetriesNamingTheIdAndTheRecord() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null);
             BufferAllocator allocator = new RootAllocator()) {
            RecordBytes records = written(registry, allocator);
            registry.stop();
            AvroConfluentBatchDecoder decoder = decoder(registry, FAST, Map.of());
            assertThatThrownBy(() -> decoder.decode(records, allocator).close())
                    .isInstanceOf(IllegalStateException.class)
                    .satisfies(e -> System.out.println("registry fault: " + e.getMessage()))
                    .hasMessageContainingAll("record 0: schema registry " + registry.url() + "/ failed looking up"
                            + " schema id 100: 3 attempts over", "the last was unreachable (java.net.ConnectException");
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void aDecoderRidesOutAnOverloadedRegistryAndAsksOncePerId() throws Exception {
        try (TestSchemaRegistry registry = new TestSchemaRegistry("Basic " + java.util.Base64.getEncoder()
                .encodeToString("u:p".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
             BufferAllocator allocator = new RootAllocator()) {
            Map<String, String> auth = Map.of("basic-auth.credentials-source", "USER_INFO", "basic-auth.user-info", "u:p");
            RecordBytes records = written(registry, allocator, auth);
            int before = registry.requests().size();
            registry.failNext(2, 503);
            AvroConfluentBatchDecoder decoder = decoder(registry, FAST, auth);
            for (int batch = 0; batch < 2; batch++) {
                try (DecodedBatch decoded = decoder.decode(records, allocator)) {
                    assertThat(decoded.rowCount()).isEqualTo(3);
                    assertThat(((org.apache.arrow.vector.BigIntVector) decoded.root().getVector(0)).get(2)).isEqualTo(2);
                }
            }
            assertThat(registry.requests().subList(before, registry.requests().size()))
                    .extracting(TestSchemaRegistry.Request::path).containsOnly("/schemas/ids/100").hasSize(3);
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static RecordBytes written(TestSchemaRegistry registry, BufferAllocator allocator) {
        return written(registry, allocator, Map.of());
    }

    /** Three records written by the encoder (schema id 100). */
    private static RecordBytes written(TestSchemaRegistry registry, BufferAllocator allocator,
                                       Map<String, String> auth) {
        Map<String, String> options = new java.util.HashMap<>(auth);
        options.putAll(Map.of("url", registry.url(), "subject", SUBJECT));
        AvroConfluentBatchEncoder encoder = new AvroConfluentBatchEncoder(Projection.all(TYPE),
                AvroConfluentFormatOptions.fromMap(options), FAST);
        RecordBytes records = new RecordBytes();
        try (VectorSchemaRoot batch = batch(allocator)) {
            RecordSlab slab = encoder.encode(batch);
            for (int i = 0; i < slab.recordCount(); i++) {
                byte[] record = slab.copyRecord(i);
                records.add(record, 0, record.length);
            }
        }
        return records;
    }

    private static AvroConfluentBatchDecoder decoder(TestSchemaRegistry registry, RegistryRetries retries,
                                                     Map<String, String> auth) {
        Map<String, String> options = new java.util.HashMap<>(auth);
        options.put("url", registry.url());
        return new AvroConfluentBatchDecoder((RowType) TYPE.copy(false), AvroConfluentFormatOptions.forDecoding(options),
                retries);
    }

    @Test
    void theDefaultsAreTheConfluentClients() {
        assertThat(RegistryRetries.DEFAULT.maxRetries()).isEqualTo(3);
        assertThat(RegistryRetries.DEFAULT.waitBefore(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(RegistryRetries.DEFAULT.waitBefore(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(RegistryRetries.DEFAULT.waitBefore(10)).isEqualTo(Duration.ofSeconds(20));
    }

    private static AvroConfluentBatchEncoder encoder(TestSchemaRegistry registry, RegistryRetries retries,
                                                     boolean autoRegister) {
        return new AvroConfluentBatchEncoder(Projection.all(TYPE), AvroConfluentFormatOptions.fromMap(Map.of(
                "url", registry.url(), "subject", SUBJECT, "auto.register.schemas", Boolean.toString(autoRegister))),
                retries);
    }

    private static void assertFailsAndHandsOutNothing(AvroConfluentBatchEncoder encoder, String... messageParts) {
        try (BufferAllocator allocator = new RootAllocator()) {
            try (VectorSchemaRoot batch = batch(allocator)) {
                assertThatThrownBy(() -> encoder.encode(batch))
                        .isInstanceOf(IllegalStateException.class)
                        .satisfies(e -> System.out.println("registry fault: " + e.getMessage()))
                        .hasMessageContainingAll(messageParts);
            }
            assertThat(encoder.schemaId()).as("no schema id, so no record was framed").isEqualTo(-1);
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static void assertEncodesWithTheRegisteredId(AvroConfluentBatchEncoder encoder,
                                                         BufferAllocator allocator) {
        try (VectorSchemaRoot batch = batch(allocator)) {
            RecordSlab slab = encoder.encode(batch);
            assertThat(slab.recordCount()).isEqualTo(3);
            ByteBuffer header = ByteBuffer.wrap(slab.copyRecord(0), 0, 5);
            assertThat(header.get()).isZero();
            assertThat(header.getInt()).isEqualTo(encoder.schemaId()).isGreaterThanOrEqualTo(100);
        }
        assertThat(allocator.getAllocatedMemory()).isZero();
    }

    private static VectorSchemaRoot batch(BufferAllocator allocator) {
        RowDataArrowWriter writer = new RowDataArrowWriter(TYPE, allocator);
        for (long id = 0; id < 3; id++) {
            writer.write(GenericRowData.of(id, FlinkValues.str("n-" + id)));
        }
        return writer.finish();
    }
}
