package io.columnarkafka.flink.source.reader;

import io.columnarkafka.client.decode.RecordChunk;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.fetcher.SingleThreadFetcherManager;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcher;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcherTask;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;

/**
 * One fetcher thread for all of a reader's splits, as Flink's {@code KafkaSourceFetcherManager}; offset
 * commits run as a task on that thread, because the consumer is not thread-safe.
 */
final class ChunkFetcherManager extends SingleThreadFetcherManager<RecordChunk, KafkaPartitionSplit> {

    ChunkFetcherManager(Supplier<SplitReader<RecordChunk, KafkaPartitionSplit>> splitReaders, Configuration config) {
        super(splitReaders, config);
    }

    /** Commits {@code offsets} on the fetcher thread, starting a fetcher if none runs (all splits finished). */
    void commitOffsets(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        if (offsets.isEmpty()) {
            return;
        }
        SplitFetcher<RecordChunk, KafkaPartitionSplit> fetcher = getRunningFetcher();
        if (fetcher != null) {
            enqueueCommit(fetcher, offsets, callback);
        } else {
            fetcher = createSplitFetcher();
            enqueueCommit(fetcher, offsets, callback);
            startFetcher(fetcher);
        }
    }

    private static void enqueueCommit(
            SplitFetcher<RecordChunk, KafkaPartitionSplit> fetcher,
            Map<TopicPartition, OffsetAndMetadata> offsets,
            OffsetCommitCallback callback) {
        ChunkingSplitReader reader = (ChunkingSplitReader) fetcher.getSplitReader();
        fetcher.enqueueTask(new SplitFetcherTask() {
            @Override
            public boolean run() {
                reader.commitOffsets(offsets, callback);
                return true;
            }

            @Override
            public void wakeUp() {}
        });
    }
}
