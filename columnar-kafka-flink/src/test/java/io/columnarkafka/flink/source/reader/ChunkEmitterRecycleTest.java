package io.columnarkafka.flink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.client.decode.ChunkDecoder;
import io.columnarkafka.client.decode.DecodingSpec;
import io.columnarkafka.client.decode.RecordChunk;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.batch.FanOutSourceOutput;
import io.columnarkafka.flink.source.ArrowBatchOutput;
import io.columnarkafka.flink.source.DecodeMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitState;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The lending source step builds each batch in the vectors of the batch before (the output hands them back): every
 * batch, after a bigger one and after a chunk that gave no row, holds what a decoder that never reuses anything
 * decodes from the same chunk, and the reader's allocator closes at zero.
 */
class ChunkEmitterRecycleTest {
    private static final TopicPartition PARTITION = new TopicPartition("t", 0);
    private static final RowType TYPE = (RowType) LogicalTypeParser.parse(
            "ROW<id BIGINT, name STRING, r ROW<x INT, s STRING>>", ChunkEmitterRecycleTest.class.getClassLoader());

    @Test
    void everyBatchBuiltInReturnedVectorsHoldsWhatAFreshDecodeHolds() {
        DecodingSpec spec = new DecodingSpec(TYPE, "json", Map.of(), null, null, List.of(), "",
                DecodingSpec.ValueFieldsInclude.ALL, List.of(), false, null);
        List<RecordChunk> chunks = List.of(chunk(0, 40), chunk(40, 1), nullRecords(41, 2), chunk(43, 5), chunk(48, 60));
        List<String> expected = new ArrayList<>();
        BufferAllocator fresh = ArrowMemory.newChild("test-fresh", 64 << 20);
        for (RecordChunk chunk : chunks) {
            ChunkDecoder once = new ChunkDecoder(spec);
            VectorSchemaRoot rows = once.decode(chunk, fresh);
            if (rows != null) {
                expected.add(rows.contentToTSVString());
                rows.close();
            }
            once.releaseRecycled();
        }
        fresh.close();
        BufferAllocator reader = ArrowMemory.newChild("test-reader", 64 << 20);
        List<String> seen = new ArrayList<>();
        List<FieldVector> firstVectors = new ArrayList<>();
        ChunkEmitter<ArrowBatch> emitter = new ChunkEmitter<>(spec, -1, reader, ArrowBatchOutput.LENDING,
                new DecodeMetrics(UnregisteredMetricsGroup.createSourceReaderMetricGroup()), new BatchTimeCap(100, 0));
        KafkaPartitionSplitState split = new KafkaPartitionSplitState(new KafkaPartitionSplit(PARTITION, 0));
        FanOutSourceOutput output = new FanOutSourceOutput(batch -> {
            VectorSchemaRoot root = batch.open(null);
            if (firstVectors.isEmpty()) {
                firstVectors.addAll(root.getFieldVectors());
            } else {
                assertThat(root.getFieldVectors()).as("the vectors of the first batch").isEqualTo(firstVectors);
            }
            seen.add(root.contentToTSVString());
        });
        for (RecordChunk chunk : chunks) {
            emitter.emitRecord(chunk, output, split);
        }
        assertThat(seen).isEqualTo(expected).hasSize(4);
        assertThat(split.getCurrentOffset()).isEqualTo(108);
        emitter.close(); // frees the kept vectors; fails if anything else still held memory
    }

    private static RecordChunk chunk(long from, int count) {
        RecordChunk chunk = new RecordChunk(PARTITION, count);
        for (long offset = from; offset < from + count; offset++) {
            String json = offset % 3 == 0
                    ? "{\"id\":" + offset + ",\"name\":null,\"r\":null}"
                    : "{\"id\":" + offset + ",\"name\":\"n" + "é".repeat((int) offset % 7) + "\",\"r\":{\"x\":"
                            + offset + ",\"s\":\"" + "s".repeat((int) offset % 11) + "\"}}";
            add(chunk, offset, ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
        }
        return chunk;
    }

    /** Records with no value: no row (Flink's json source skips them). */
    private static RecordChunk nullRecords(long from, int count) {
        RecordChunk chunk = new RecordChunk(PARTITION, count);
        for (long offset = from; offset < from + count; offset++) {
            add(chunk, offset, null);
        }
        return chunk;
    }

    private static void add(RecordChunk chunk, long offset, ByteBuffer value) {
        chunk.add(new ConsumerRecord<>(PARTITION.topic(), 0, offset, null, value), value == null ? 0 : value.remaining());
    }
}
