package io.columnarkafka.flink.source.reader;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The records of one split, consecutive and in offset order, out of one fetch: the unit the emitter
 * decodes into one batch. The records are the consumer's own; nothing is copied: their keys and values
 * are views of the fetched bytes (Kafka's {@code ByteBufferDeserializer}), alive while the chunk is.
 */
public final class RecordChunk {
    private final TopicPartition partition;
    private final List<ConsumerRecord<ByteBuffer, ByteBuffer>> records;
    private final long bytes;

    /**
     * @param records consecutive records of {@code partition}, at least one
     * @param bytes their key and value bytes ({@link #sizeOf} summed)
     */
    RecordChunk(TopicPartition partition, List<ConsumerRecord<ByteBuffer, ByteBuffer>> records, long bytes) {
        this.partition = partition;
        this.records = records;
        this.bytes = bytes;
    }

    public TopicPartition partition() {
        return partition;
    }

    public int size() {
        return records.size();
    }

    public ConsumerRecord<ByteBuffer, ByteBuffer> record(int index) {
        return records.get(index);
    }

    /** Offset of record {@code index}. */
    public long offset(int index) {
        return records.get(index).offset();
    }

    /** Offset of the last record: the split resumes after it once the chunk is emitted. */
    public long lastOffset() {
        return records.get(records.size() - 1).offset();
    }

    /** Key and value bytes of the records. */
    public long bytes() {
        return bytes;
    }

    /** Size of a record's key and value, as the chunk caps count them. */
    static long sizeOf(ConsumerRecord<ByteBuffer, ByteBuffer> record) {
        return Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
    }
}
