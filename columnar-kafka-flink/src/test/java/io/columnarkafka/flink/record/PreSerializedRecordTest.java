package io.columnarkafka.flink.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

class PreSerializedRecordTest {
    private final PreSerializedRecordSerializer serializer = PreSerializedRecordSerializer.INSTANCE;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void serializerRoundTripsEveryFieldIncludingNulls() throws Exception {
        List<PreSerializedRecord> records = List.of(
                PreSerializedRecord.of("t", null, bytes("{\"a\":1}")),
                PreSerializedRecord.of("t", bytes("k"), null),
                new PreSerializedRecord("topic-2", 3, 1234567890123L, bytes("key"), new byte[0],
                        List.of(new RecordHeader("h1", bytes("v1")), new RecordHeader("h2", null))));
        for (PreSerializedRecord record : records) {
            DataOutputSerializer out = new DataOutputSerializer(64);
            serializer.serialize(record, out);
            PreSerializedRecord back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertThat(back).isEqualTo(record);
            assertThat(back.partition()).isEqualTo(record.partition());
            assertThat(back.timestamp()).isEqualTo(record.timestamp());

            DataOutputSerializer copied = new DataOutputSerializer(64);
            serializer.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
            assertThat(copied.getCopyOfBuffer()).isEqualTo(out.getCopyOfBuffer());
        }
    }

    @Test
    void copyIsTheSameInstanceAndTheSnapshotRestores() throws Exception {
        PreSerializedRecord record = PreSerializedRecord.of("t", null, bytes("v"));
        assertThat(serializer.copy(record)).isSameAs(record);
        assertThat(serializer.copy(record, null)).isSameAs(record);
        assertThat(TypeInformation.of(PreSerializedRecord.class)).isEqualTo(PreSerializedRecordTypeInfo.INSTANCE);

        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer.snapshotConfiguration());
        TypeSerializerSnapshot<PreSerializedRecord> restored = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
        assertThat(serializer.snapshotConfiguration().resolveSchemaCompatibility(restored).isCompatibleAsIs())
                .isTrue();
    }

    @Test
    void serializationSchemaHandsTheRecordOverUnchangedAndDeclaresItsTopics() {
        PreSerializedRecordSerializationSchema schema = new PreSerializedRecordSerializationSchema(List.of("t"));
        byte[] key = bytes("k");
        byte[] value = bytes("v");
        List<Header> headers = List.of(new RecordHeader("h", bytes("x")));
        PreSerializedRecord record = new PreSerializedRecord("t", 2, 99L, key, value, headers);

        ProducerRecord<byte[], byte[]> out = schema.serialize(record, null, 12345L);

        assertThat(out.topic()).isEqualTo("t");
        assertThat(out.partition()).isEqualTo(2);
        assertThat(out.timestamp()).as("the record's own timestamp, not Flink's element timestamp").isEqualTo(99L);
        assertThat(out.key()).isSameAs(key);
        assertThat(out.value()).isSameAs(value);
        assertThat(out.headers().toArray()).containsExactlyElementsOf(headers);

        ProducerRecord<byte[], byte[]> plain = schema.serialize(PreSerializedRecord.of("t", null, value), null, 5L);
        assertThat(plain.partition()).isNull();
        assertThat(plain.timestamp()).isNull();
        assertThat(plain.key()).isNull();
        assertThat(plain.headers().toArray()).isEmpty();

        KafkaDatasetFacet facet = schema.getKafkaDatasetFacet().orElseThrow();
        assertThat(facet.getTopicIdentifier().getTopics()).containsExactly("t");
        assertThatThrownBy(() -> schema.serialize(PreSerializedRecord.of("other", null, value), null, null))
                .hasMessageContaining("other");
    }
}
