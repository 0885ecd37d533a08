package io.columnarkafka.flink.source.reader;

import io.columnarkafka.client.decode.RecordChunk;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.kafka.source.KafkaSourceOptions;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitState;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source reader: Flink's split state ({@link KafkaPartitionSplitState}, whose current offset the
 * {@link ChunkEmitter} alone advances), one fetcher thread, and offsets committed to Kafka when a
 * checkpoint completes, as Flink's {@code KafkaSourceReader} does ({@code commit.offsets.on.checkpoint},
 * the offsets of the splits in the checkpoint plus those of splits finished before it; a failed commit
 * is logged and counted, as it only serves monitoring).
 */
public final class ColumnarKafkaSourceReader<T>
        extends SingleThreadMultiplexSourceReaderBase<RecordChunk, T, KafkaPartitionSplit, KafkaPartitionSplitState> {
    private static final Logger LOG = LoggerFactory.getLogger(ColumnarKafkaSourceReader.class);

    // Read by the task thread and by commit callbacks on the fetcher thread.
    private final SortedMap<Long, Map<TopicPartition, OffsetAndMetadata>> offsetsToCommit =
            Collections.synchronizedSortedMap(new TreeMap<>());
    private final ConcurrentMap<TopicPartition, OffsetAndMetadata> offsetsOfFinishedSplits = new ConcurrentHashMap<>();
    private final KafkaSourceReaderMetrics kafkaMetrics;
    private final boolean commitOffsetsOnCheckpoint;
    private final ChunkEmitter<T> emitter;

    public ColumnarKafkaSourceReader(
            Supplier<SplitReader<RecordChunk, KafkaPartitionSplit>> splitReaders,
            ChunkEmitter<T> emitter,
            Configuration config,
            SourceReaderContext context,
            KafkaSourceReaderMetrics kafkaMetrics) {
        super(new ChunkFetcherManager(splitReaders, config), emitter, config, context);
        this.emitter = emitter;
        this.kafkaMetrics = kafkaMetrics;
        this.commitOffsetsOnCheckpoint = config.get(KafkaSourceOptions.COMMIT_OFFSETS_ON_CHECKPOINT);
    }

    @Override
    protected void onSplitFinished(Map<String, KafkaPartitionSplitState> finishedSplits) {
        finishedSplits.values().forEach(split -> {
            if (split.getCurrentOffset() >= 0) {
                offsetsOfFinishedSplits.put(split.getTopicPartition(), new OffsetAndMetadata(split.getCurrentOffset()));
            }
        });
    }

    @Override
    public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
        List<KafkaPartitionSplit> splits = super.snapshotState(checkpointId);
        if (!commitOffsetsOnCheckpoint || checkpointId < 0) {
            return splits;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = offsetsToCommit.computeIfAbsent(checkpointId, id -> new HashMap<>());
        for (KafkaPartitionSplit split : splits) {
            // A split whose starting offset is still a marker (earliest, latest, committed) has read nothing.
            if (split.getStartingOffset() >= 0) {
                offsets.put(split.getTopicPartition(), new OffsetAndMetadata(split.getStartingOffset()));
            }
        }
        offsets.putAll(offsetsOfFinishedSplits);
        return splits;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        if (!commitOffsetsOnCheckpoint) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = offsetsToCommit.get(checkpointId);
        if (offsets == null) {
            return;
        }
        if (offsets.isEmpty()) {
            removeOffsetsUpTo(checkpointId);
            return;
        }
        ((ChunkFetcherManager) splitFetcherManager).commitOffsets(offsets, (committed, e) -> {
            if (e != null) {
                kafkaMetrics.recordFailedCommit();
                LOG.warn("Failed to commit consumer offsets for checkpoint {}", checkpointId, e);
                return;
            }
            kafkaMetrics.recordSucceededCommit();
            offsets.forEach((tp, offset) -> kafkaMetrics.recordCommittedOffset(tp, offset.offset()));
            offsetsOfFinishedSplits.keySet().removeIf(offsets::containsKey);
            removeOffsetsUpTo(checkpointId);
        });
    }

    private void removeOffsetsUpTo(long checkpointId) {
        synchronized (offsetsToCommit) {
            offsetsToCommit.headMap(checkpointId + 1).clear();
        }
    }

    @Override
    protected KafkaPartitionSplitState initializedState(KafkaPartitionSplit split) {
        return new KafkaPartitionSplitState(split);
    }

    @Override
    protected KafkaPartitionSplit toSplitType(String splitId, KafkaPartitionSplitState state) {
        return state.toKafkaPartitionSplit();
    }

    /** Stops the fetcher, then frees the reader's Arrow allocator. */
    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            emitter.close();
        }
    }
}
