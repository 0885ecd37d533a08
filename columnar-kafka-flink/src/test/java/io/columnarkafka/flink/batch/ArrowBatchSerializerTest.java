package io.columnarkafka.flink.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.flink.testing.TestRows;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ArrowBatchSerializerTest {
    private final ArrowBatchSerializer serializer = ArrowBatchSerializer.INSTANCE;
    private BufferAllocator producer;
    private BufferAllocator consumer;

    @BeforeEach
    void allocators() {
        producer = ArrowMemory.newChild("test-producer", 64 << 20);
        consumer = ArrowMemory.newChild("test-consumer", 64 << 20);
    }

    @AfterEach
    void closeAllocators() {
        assertThat(producer.getAllocatedMemory()).isZero();
        assertThat(consumer.getAllocatedMemory()).isZero();
        producer.close();
        consumer.close();
    }

    @Test
    void wireRoundTripOpensTheSameRowsInTheConsumersAllocatorAndFreesTheProducer() throws Exception {
        VectorSchemaRoot expected = TestRows.batch(100, 37, producer);
        String expectedContent = expected.contentToTSVString();
        ArrowBatch live = ArrowBatch.of(expected, null);
        assertThat(producer.getAllocatedMemory()).isPositive();

        ArrowBatch received = roundTrip(live);

        assertThat(producer.getAllocatedMemory())
                .as("serializing hands the batch to the wire: the producer's vectors are freed")
                .isZero();
        assertThat(consumer.getAllocatedMemory()).as("a received batch holds heap bytes only").isZero();
        VectorSchemaRoot opened = received.open(consumer);
        assertThat(consumer.getAllocatedMemory()).isPositive();
        assertThat(opened.getRowCount()).isEqualTo(37);
        assertThat(opened.contentToTSVString()).isEqualTo(expectedContent);
        assertThat(opened.getSchema()).isEqualTo(expected.getSchema());
        received.close();
        live.close();
        assertThat(consumer.getAllocatedMemory()).isZero();
    }

    @Test
    void closingALiveBatchClosesItsRootAndOwner() {
        BufferAllocator own = producer.newChildAllocator("batch", 0, 1 << 20);
        ArrowBatch batch = ArrowBatch.of(TestRows.batch(0, 10, own), own);
        assertThat(producer.getAllocatedMemory()).isPositive();
        batch.close();
        batch.close();
        assertThat(producer.getAllocatedMemory()).isZero();
        assertThat(producer.getChildAllocators()).isEmpty();
        assertThatThrownBy(() -> batch.open(consumer)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aHandOverThatFailsFreesTheBatch() {
        BufferAllocator own = producer.newChildAllocator("batch", 0, 1 << 20);
        ArrowBatch batch = ArrowBatch.of(TestRows.batch(0, 10, own), own);
        org.apache.flink.util.Collector<ArrowBatch> failing = new org.apache.flink.util.Collector<>() {
            @Override
            public void collect(ArrowBatch record) {
                throw new IllegalStateException("record writer failed");
            }

            @Override
            public void close() {}
        };
        assertThatThrownBy(() -> batch.emitTo(failing)).hasMessage("record writer failed");
        assertThat(batch.isClosed()).isTrue();
        assertThat(producer.getAllocatedMemory()).isZero();
        assertThat(producer.getChildAllocators()).isEmpty();
    }

    @Test
    void serializingTheSameBatchTwiceWritesTheSameBytes() throws Exception {
        ArrowBatch live = ArrowBatch.of(TestRows.batch(0, 5, producer), null);
        DataOutputSerializer first = new DataOutputSerializer(256);
        DataOutputSerializer second = new DataOutputSerializer(256);
        serializer.serialize(live, first);
        serializer.serialize(live, second);
        assertThat(second.getCopyOfBuffer()).isEqualTo(first.getCopyOfBuffer());
        live.close();
    }

    @Test
    void copyReturnsTheSameInstanceAndCopyingTheWireFormPreservesIt() throws Exception {
        ArrowBatch live = ArrowBatch.of(TestRows.batch(0, 5, producer), null);
        assertThat(serializer.copy(live)).isSameAs(live);
        assertThat(serializer.copy(live, null)).isSameAs(live);
        assertThat(serializer.isImmutableType()).isTrue();

        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(live, out);
        DataOutputSerializer copied = new DataOutputSerializer(256);
        serializer.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(out.getCopyOfBuffer());
        live.close();
    }

    @Test
    void aBatchLargerThanTheConsumersLimitFailsToOpenAndLeavesNothingAllocated() throws Exception {
        ArrowBatch received = roundTrip(ArrowBatch.of(TestRows.batch(0, 10_000, producer), null));
        try (BufferAllocator tiny = ArrowMemory.newChild("tiny", 4096)) {
            assertThatThrownBy(() -> received.open(tiny)).isInstanceOf(OutOfMemoryException.class);
            assertThat(tiny.getAllocatedMemory()).isZero();
        }
        received.close();
    }

    @Test
    void typeInformationIsFoundByExtractionAndTheSnapshotRestoresACompatibleSerializer() throws Exception {
        assertThat(TypeInformation.of(ArrowBatch.class)).isEqualTo(ArrowBatchTypeInfo.INSTANCE);
        TypeSerializer<ArrowBatch> created =
                ArrowBatchTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl());
        assertThat(created).isEqualTo(serializer);

        TypeSerializerSnapshot<ArrowBatch> snapshot = serializer.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, snapshot);
        TypeSerializerSnapshot<ArrowBatch> restored = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
        assertThat(restored.restoreSerializer()).isEqualTo(serializer);
        TypeSerializerSchemaCompatibility<ArrowBatch> compatibility =
                serializer.snapshotConfiguration().resolveSchemaCompatibility(restored);
        assertThat(compatibility.isCompatibleAsIs()).isTrue();
    }

    private ArrowBatch roundTrip(ArrowBatch batch) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        serializer.serialize(batch, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
