package io.columnarkafka.flink.source.reader;

import io.columnarkafka.client.decode.RecordChunk;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One fetch's records per split, cut into {@link RecordChunk}s when the source reader asks for the next one, on
 * the task thread, just before the step that emits it: each chunk takes what the {@link BatchTimeCap} allows at
 * that moment (and about {@code maxBytes} key and value bytes), so the cap measured on the step before applies to
 * it, however many fetches wait in the fetcher's queue.
 */
final class ChunkedFetch implements RecordsWithSplitIds<RecordChunk> {
    private final Iterator<Map.Entry<String, List<ConsumerRecord<ByteBuffer, ByteBuffer>>>> splits;
    private final Set<String> finishedSplits;
    private final BatchTimeCap cap;
    private final long maxBytes;
    private List<ConsumerRecord<ByteBuffer, ByteBuffer>> records;
    private TopicPartition partition;
    private int next;

    /**
     * @param recordsBySplit each split's records in offset order, none empty, in the order to emit the splits
     */
    ChunkedFetch(
            Map<String, List<ConsumerRecord<ByteBuffer, ByteBuffer>>> recordsBySplit,
            Set<String> finishedSplits,
            BatchTimeCap cap,
            long maxBytes) {
        this.splits = recordsBySplit.entrySet().iterator();
        this.finishedSplits = finishedSplits;
        this.cap = cap;
        this.maxBytes = maxBytes;
    }

    @Override
    public String nextSplit() {
        if (!splits.hasNext()) {
            records = null;
            return null;
        }
        Map.Entry<String, List<ConsumerRecord<ByteBuffer, ByteBuffer>>> split = splits.next();
        records = split.getValue();
        ConsumerRecord<ByteBuffer, ByteBuffer> first = records.get(0);
        partition = new TopicPartition(first.topic(), first.partition());
        next = 0;
        return split.getKey();
    }

    @Override
    public RecordChunk nextRecordFromSplit() {
        if (records == null || next == records.size()) {
            return null;
        }
        int maxRows = cap.rows();
        RecordChunk chunk = new RecordChunk(partition, Math.min(maxRows, records.size() - next));
        while (next < records.size()) {
            ConsumerRecord<ByteBuffer, ByteBuffer> record = records.get(next);
            long size = RecordChunk.sizeOf(record);
            if (!chunk.hasRoomFor(size, maxRows, maxBytes)) {
                break;
            }
            chunk.add(record, size);
            next++;
        }
        return chunk;
    }

    @Override
    public Set<String> finishedSplits() {
        return finishedSplits;
    }
}
