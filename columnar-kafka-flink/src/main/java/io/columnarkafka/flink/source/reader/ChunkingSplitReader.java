package io.columnarkafka.flink.source.reader;

import io.columnarkafka.client.decode.RecordChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads Kafka through Flink's own {@link KafkaPartitionSplitReader} (its consumer, its seeks to the
 * starting offsets, its stopping offsets, empty and finished splits, its offset commit and metrics, all
 * unchanged) and regroups each fetch's records per split into {@link RecordChunk}s of at most {@code
 * maxRows} records and about {@code maxBytes} key and value bytes: the units the emitter decodes into
 * one Arrow batch each.
 *
 * <p>A chunk never spans two fetches: a fetch is what the consumer has at hand, so waiting for more
 * would add latency without saving a copy.
 */
public final class ChunkingSplitReader implements SplitReader<RecordChunk, KafkaPartitionSplit> {
    private final KafkaPartitionSplitReader kafka;
    private final int maxRows;
    private final long maxBytes;

    public ChunkingSplitReader(KafkaPartitionSplitReader kafka, int maxRows, long maxBytes) {
        this.kafka = kafka;
        this.maxRows = maxRows;
        this.maxBytes = maxBytes;
    }

    @Override
    public RecordsWithSplitIds<RecordChunk> fetch() throws IOException {
        RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetched = kafka.fetch();
        try {
            RecordsBySplits.Builder<RecordChunk> chunks = new RecordsBySplits.Builder<>();
            String splitId;
            while ((splitId = fetched.nextSplit()) != null) {
                RecordChunk chunk = null;
                ConsumerRecord<ByteBuffer, ByteBuffer> record;
                while ((record = viewed(fetched.nextRecordFromSplit())) != null) {
                    long size = RecordChunk.sizeOf(record);
                    if (chunk != null && !chunk.hasRoomFor(size, maxRows, maxBytes)) {
                        chunks.add(splitId, chunk);
                        chunk = null;
                    }
                    if (chunk == null) {
                        chunk = new RecordChunk(new TopicPartition(record.topic(), record.partition()),
                                Math.min(maxRows, 1024));
                    }
                    chunk.add(record, size);
                }
                if (chunk != null) {
                    chunks.add(splitId, chunk);
                }
            }
            chunks.addFinishedSplits(fetched.finishedSplits());
            return chunks.build();
        } finally {
            fetched.recycle();
        }
    }

    /**
     * Flink's split reader is typed for byte arrays but never touches a key or value; its consumer runs
     * with the {@code ByteBufferDeserializer} the source's reader properties name, so each record holds
     * views of the fetched bytes.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ConsumerRecord<ByteBuffer, ByteBuffer> viewed(ConsumerRecord<byte[], byte[]> record) {
        return (ConsumerRecord) record;
    }

    @Override
    public void handleSplitsChanges(SplitsChange<KafkaPartitionSplit> splitsChange) {
        kafka.handleSplitsChanges(splitsChange);
    }

    @Override
    public void wakeUp() {
        kafka.wakeUp();
    }

    @Override
    public void pauseOrResumeSplits(
            java.util.Collection<KafkaPartitionSplit> splitsToPause,
            java.util.Collection<KafkaPartitionSplit> splitsToResume) {
        kafka.pauseOrResumeSplits(splitsToPause, splitsToResume);
    }

    /** Commits offsets asynchronously through Flink's split reader (call on the fetcher thread). */
    void commitOffsets(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        kafka.notifyCheckpointComplete(offsets, callback);
    }

    @Override
    public void close() throws Exception {
        kafka.close();
    }
}
