package io.columnarkafka.flink.source.reader;

import io.columnarkafka.client.decode.RecordChunk;
import java.nio.ByteBuffer;
import java.util.Set;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One fetch's records per split, cut into {@link RecordChunk}s when the source reader asks for the next one, on
 * the task thread, just before the step that emits it: each chunk takes what the {@link BatchTimeCap} allows at
 * that moment (and about {@code maxBytes} key and value bytes), so the cap measured on the step before applies to
 * it, however many fetches wait in the fetcher's queue.
 *
 * <p>The records are taken from Flink's own fetch ({@code KafkaPartitionSplitRecords}) only here, as Flink's reader
 * takes each record just before emitting it: taking a record moves the split's {@code currentOffset} metric, so the
 * metric stands at the chunk about to be emitted, not at what the fetcher has read ahead. Only a record that ended a
 * chunk by the byte cap is taken one step early (its size is known once taken); the next step emits it.
 */
final class ChunkedFetch implements RecordsWithSplitIds<RecordChunk> {
    /** A chunk's first capacity: Kafka's default {@code max.poll.records}, the most records of a default fetch. */
    private static final int EXPECTED_RECORDS = 500;
    private final RecordsWithSplitIds<ConsumerRecord<ByteBuffer, ByteBuffer>> fetched;
    private final BatchTimeCap cap;
    private final long maxBytes;
    private boolean inSplit;
    /** A record taken but left for the next chunk (it did not fit this one's bytes), or null. */
    private ConsumerRecord<ByteBuffer, ByteBuffer> held;

    /**
     * @param fetched each split's records in offset order, in the order to emit the splits, and the finished splits
     */
    ChunkedFetch(RecordsWithSplitIds<ConsumerRecord<ByteBuffer, ByteBuffer>> fetched, BatchTimeCap cap, long maxBytes) {
        this.fetched = fetched;
        this.cap = cap;
        this.maxBytes = maxBytes;
    }

    @Override
    public String nextSplit() {
        String split = fetched.nextSplit();
        inSplit = split != null;
        held = null;
        return split;
    }

    @Override
    public RecordChunk nextRecordFromSplit() {
        if (!inSplit) {
            return null;
        }
        ConsumerRecord<ByteBuffer, ByteBuffer> first = held != null ? held : fetched.nextRecordFromSplit();
        held = null;
        if (first == null) {
            return null;
        }
        int maxRows = cap.rows();
        RecordChunk chunk = new RecordChunk(new TopicPartition(first.topic(), first.partition()),
                Math.min(maxRows, EXPECTED_RECORDS));
        chunk.add(first, RecordChunk.sizeOf(first));
        while (chunk.size() < maxRows) {
            ConsumerRecord<ByteBuffer, ByteBuffer> record = fetched.nextRecordFromSplit();
            if (record == null) {
                break;
            }
            long size = RecordChunk.sizeOf(record);
            if (!chunk.hasRoomFor(size, maxRows, maxBytes)) {
                held = record;
                break;
            }
            chunk.add(record, size);
        }
        return chunk;
    }

    @Override
    public Set<String> finishedSplits() {
        return fetched.finishedSplits();
    }

    @Override
    public void recycle() {
        fetched.recycle();
    }
}
