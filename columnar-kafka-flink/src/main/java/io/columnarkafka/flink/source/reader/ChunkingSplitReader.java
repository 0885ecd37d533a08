package io.columnarkafka.flink.source.reader;

import io.columnarkafka.client.decode.RecordChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
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
 * unchanged) and hands each fetch, untouched, to the task thread as a {@link ChunkedFetch}, which takes its records
 * there (moving Flink's {@code currentOffset} metric as Flink's own reader does, just before they are emitted) and
 * cuts them into {@link RecordChunk}s, each within the {@link BatchTimeCap}'s rows and about {@code maxBytes} key
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
        return new ChunkedFetch(viewed(kafka.fetch()), cap, maxBytes);
    }

    /**
     * Flink's split reader is typed for byte arrays but never touches a key or value; its consumer runs
     * with the {@code ByteBufferDeserializer} the source's reader properties name, so each record holds
     * views of the fetched bytes.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static RecordsWithSplitIds<ConsumerRecord<ByteBuffer, ByteBuffer>> viewed(
            RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetched) {
        return (RecordsWithSplitIds) fetched;
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
