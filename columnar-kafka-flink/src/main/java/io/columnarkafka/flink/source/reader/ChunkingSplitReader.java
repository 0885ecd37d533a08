package io.columnarkafka.flink.source.reader;

import io.columnarkafka.client.decode.RecordChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * unchanged) and hands each fetch's records, per split, to the task thread as a {@link ChunkedFetch}, which cuts
 * them into {@link RecordChunk}s there, each within the {@link BatchTimeCap}'s rows and about {@code maxBytes} key
 * and value bytes: the units the emitter decodes into one Arrow batch each.
 *
 * <p>A chunk never spans two fetches: a fetch is what the consumer has at hand, so waiting for more
 * would add latency without saving a copy.
 */
public final class ChunkingSplitReader implements SplitReader<RecordChunk, KafkaPartitionSplit> {
    private final KafkaPartitionSplitReader kafka;
    private final BatchTimeCap cap;
    private final long maxBytes;

    /** @param cap the emitter's: the rows of a chunk are cut to what it allows when the chunk is taken */
    public ChunkingSplitReader(KafkaPartitionSplitReader kafka, BatchTimeCap cap, long maxBytes) {
        this.kafka = kafka;
        this.cap = cap;
        this.maxBytes = maxBytes;
    }

    @Override
    public RecordsWithSplitIds<RecordChunk> fetch() throws IOException {
        RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetched = kafka.fetch();
        try {
            Map<String, List<ConsumerRecord<ByteBuffer, ByteBuffer>>> recordsBySplit = new LinkedHashMap<>();
            String splitId;
            while ((splitId = fetched.nextSplit()) != null) {
                List<ConsumerRecord<ByteBuffer, ByteBuffer>> records = null;
                ConsumerRecord<ByteBuffer, ByteBuffer> record;
                while ((record = viewed(fetched.nextRecordFromSplit())) != null) {
                    if (records == null) {
                        records = recordsBySplit.computeIfAbsent(splitId, id -> new ArrayList<>());
                    }
                    records.add(record);
                }
            }
            return new ChunkedFetch(recordsBySplit, Set.copyOf(fetched.finishedSplits()), cap, maxBytes);
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
