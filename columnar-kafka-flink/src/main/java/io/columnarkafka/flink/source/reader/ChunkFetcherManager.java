package io.columnarkafka.flink.source.reader;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 *
 * <p>Unlike Flink's, it remembers whether the last commit task has run: once every split has finished,
 * a commit starts a fetcher of its own, and the reader's close (which follows the final checkpoint's
 * notification at once) would otherwise shut that fetcher down before the task ran, losing the commit
 * of the last offsets. Once the task has run, closing the consumer completes the commit.
 */
final class ChunkFetcherManager extends SingleThreadFetcherManager<RecordChunk, KafkaPartitionSplit> {
    private volatile CompletableFuture<Void> lastCommitEnqueued = CompletableFuture.completedFuture(null);

    ChunkFetcherManager(Supplier<SplitReader<RecordChunk, KafkaPartitionSplit>> splitReaders, Configuration config) {
        super(splitReaders, config);
    }

    /** Commits {@code offsets} on the fetcher thread, starting a fetcher if none runs (all splits finished). */
    void commitOffsets(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        if (offsets.isEmpty()) {
            return;
        }
        CompletableFuture<Void> enqueued = new CompletableFuture<>();
        lastCommitEnqueued = enqueued;
        SplitFetcher<RecordChunk, KafkaPartitionSplit> fetcher = getRunningFetcher();
        if (fetcher != null) {
            enqueueCommit(fetcher, offsets, callback, enqueued);
        } else {
            fetcher = createSplitFetcher();
            enqueueCommit(fetcher, offsets, callback, enqueued);
            startFetcher(fetcher);
        }
    }

    /**
     * Waits up to {@code timeout} for the last commit task to have handed its offsets to the consumer;
     * false if it has not by then.
     */
    boolean awaitLastCommitEnqueued(Duration timeout) throws InterruptedException {
        try {
            lastCommitEnqueued.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true; // the commit failed and its callback has said so
        }
    }

    private static void enqueueCommit(
            SplitFetcher<RecordChunk, KafkaPartitionSplit> fetcher,
            Map<TopicPartition, OffsetAndMetadata> offsets,
            OffsetCommitCallback callback,
            CompletableFuture<Void> enqueued) {
        ChunkingSplitReader reader = (ChunkingSplitReader) fetcher.getSplitReader();
        fetcher.enqueueTask(new SplitFetcherTask() {
            @Override
            public boolean run() {
                try {
                    reader.commitOffsets(offsets, callback);
                    enqueued.complete(null);
                } catch (RuntimeException e) {
                    enqueued.completeExceptionally(e);
                    throw e;
                }
                return true;
            }

            @Override
            public void wakeUp() {}
        });
    }
}
