package io.columnarkafka.flink.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.flink.source.ArrowBatchOutput;
import io.columnarkafka.flink.testing.TestRows;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A lent batch (a scan or calc shared by several consumers): every consumer reads it during the hand-over,
 * whatever the consumers before it did (closed it, serialized it for a shuffle), and the lender frees it
 * afterwards.
 */
class ArrowBatchLendingTest {
    private BufferAllocator producer;
    private BufferAllocator consumer;

    @BeforeEach
    void allocators() {
        producer = ArrowMemory.newChild("test-lender", 64 << 20);
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
    void everyConsumerReadsTheBatchThenTheLendingOutputFreesIt() {
        VectorSchemaRoot rows = TestRows.batch(100, 37, producer);
        String content = rows.contentToTSVString();
        List<String> seen = new ArrayList<>();
        ArrowBatchOutput.LENDING.emit(rows, 5L, "split-0", new FanOutSourceOutput(batch -> {
            // a chained consumer: reads the vectors in place, then closes its use
            seen.add(batch.open(consumer).contentToTSVString());
            batch.close();
        }, batch -> {
            // a shuffle: the serializer writes the bytes; the receiver opens them in its own allocator
            assertThat(batch.isClosed()).as("a consumer's close leaves a lent batch to the others").isFalse();
            DataOutputSerializer out = new DataOutputSerializer(1024);
            try {
                ArrowBatchSerializer.INSTANCE.serialize(batch, out);
                ArrowBatch received = ArrowBatchSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(out.getCopyOfBuffer()));
                seen.add(received.open(consumer).contentToTSVString());
                received.close();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, batch -> {
            assertThat(batch.isLive()).as("serializing a lent batch keeps its vectors").isTrue();
            seen.add(batch.open(consumer).contentToTSVString());
            assertThat(producer.getAllocatedMemory()).as("still lent").isPositive();
            batch.close();
        }));
        assertThat(seen).containsExactly(content, content, content);
        assertThat(producer.getAllocatedMemory()).as("freed by the lender after the hand-over").isZero();
    }

    @Test
    void aFailingHandOverStillFreesTheLentBatch() {
        VectorSchemaRoot rows = TestRows.batch(0, 10, producer);
        FanOutSourceOutput failing = new FanOutSourceOutput(batch -> batch.close(), batch -> {
            throw new IllegalStateException("consumer failed");
        });
        assertThatThrownBy(() -> ArrowBatchOutput.LENDING.emit(rows, 0L, "split-0", failing))
                .hasMessage("consumer failed");
        assertThat(producer.getAllocatedMemory()).isZero();
    }

    /**
     * An operator's own batch (a calc's result: a selection over vectors it owns, with an owner to free) lent
     * for one hand-over: every consumer reads the selected rows, a shuffle sends only those, and reclaiming
     * frees the vectors and the owner.
     */
    @Test
    void anOwnedBatchLentToSeveralConsumersKeepsItsSelectionAndIsFreedOnReclaim() {
        VectorSchemaRoot rows = TestRows.batch(0, 10, producer);
        java.util.concurrent.atomic.AtomicInteger ownerClosed = new java.util.concurrent.atomic.AtomicInteger();
        int[] selection = {1, 4, 9};
        ArrowBatch owned = ArrowBatch.of(rows, ownerClosed::incrementAndGet, selection, 3);
        ArrowBatch lent = owned.lent();
        assertThat(owned.isClosed()).as("the owned instance is spent").isTrue();
        assertThatThrownBy(owned::lent).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(lent::lent).isInstanceOf(IllegalStateException.class);
        List<Integer> seen = new ArrayList<>();
        assertThat(ownerClosed).as("spending the owned instance frees nothing").hasValue(0);
        try {
            new FanOutSourceOutput(batch -> {
                assertThat(batch.selection()).containsExactly(1, 4, 9);
                seen.add(batch.selectedCount(consumer));
                batch.close();
            }, batch -> {
                DataOutputSerializer out = new DataOutputSerializer(1024);
                try {
                    ArrowBatchSerializer.INSTANCE.serialize(batch, out);
                    ArrowBatch received = ArrowBatchSerializer.INSTANCE.deserialize(
                            new DataInputDeserializer(out.getCopyOfBuffer()));
                    seen.add(received.open(consumer).getRowCount());
                    received.close();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, batch -> {
                assertThat(batch.isClosed()).isFalse();
                seen.add(batch.selectedCount(consumer));
            }).collect(lent);
        } finally {
            lent.reclaim();
        }
        assertThat(seen).containsExactly(3, 3, 3);
        assertThat(producer.getAllocatedMemory()).as("vectors freed on reclaim").isZero();
        assertThat(ownerClosed).as("the owner closed once, on reclaim").hasValue(1);
    }

    /**
     * The lending output gives the rows back once the hand-over is over, so the source can build its next batch in
     * the same vectors: the consumers' batch is closed by then, a buffer a consumer kept (Arrow's reference counts)
     * outlives the vectors' reuse, and a failing hand-over still frees the rows.
     */
    @Test
    void theLendingOutputReturnsTheRowsOnceTheHandOverIsOver() {
        VectorSchemaRoot rows = TestRows.batch(0, 10, producer);
        String content = rows.contentToTSVString();
        List<ArrowBatch> handedOver = new ArrayList<>();
        List<org.apache.arrow.vector.FieldVector> kept = new ArrayList<>();
        VectorSchemaRoot returned = ArrowBatchOutput.LENDING.emitAndReturn(rows, 0L, "split-0", new FanOutSourceOutput(batch -> {
            handedOver.add(batch);
            org.apache.arrow.vector.FieldVector first = batch.open(consumer).getFieldVectors().get(0);
            org.apache.arrow.vector.util.TransferPair share = first.getTransferPair(producer);
            share.splitAndTransfer(0, first.getValueCount());
            kept.add((org.apache.arrow.vector.FieldVector) share.getTo());
            batch.close();
        }));
        assertThat(returned).isSameAs(rows);
        assertThat(returned.contentToTSVString()).isEqualTo(content);
        assertThat(handedOver.get(0).isClosed()).as("the consumers' batch ends with the loan").isTrue();
        assertThatThrownBy(() -> handedOver.get(0).open(consumer)).isInstanceOf(IllegalStateException.class);
        String keptValues = kept.get(0).toString();
        returned.clear();
        assertThat(kept.get(0).toString()).as("a buffer a consumer kept outlives the rows' reuse").isEqualTo(keptValues);
        kept.get(0).close();
        returned.close();
        VectorSchemaRoot failing = TestRows.batch(0, 10, producer);
        assertThatThrownBy(() -> ArrowBatchOutput.LENDING.emitAndReturn(failing, 0L, "split-0", new FanOutSourceOutput(batch -> {
            throw new IllegalStateException("consumer failed");
        }))).hasMessage("consumer failed");
        assertThat(producer.getAllocatedMemory()).isZero();
        assertThat(ArrowBatchOutput.INSTANCE.emitAndReturn(TestRows.batch(0, 3, producer), 0L, "split-0",
                new FanOutSourceOutput(ArrowBatch::close))).as("an output that hands the rows on returns none").isNull();
    }

    @Test
    void onlyALentBatchIsReclaimed() {
        ArrowBatch owned = ArrowBatch.of(TestRows.batch(0, 3, producer), null);
        assertThatThrownBy(owned::reclaim).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(owned::takeBack).isInstanceOf(IllegalStateException.class);
        owned.close();
    }
}
