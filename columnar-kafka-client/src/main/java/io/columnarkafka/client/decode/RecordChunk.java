package io.columnarkafka.client.decode;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The records of one partition, consecutive and in offset order, out of one fetch: the unit decoded into one
 * batch ({@link ChunkDecoder}), by the Flink source's emitter and by the client's {@code ArrowKafkaSource}. The records are the consumer's own; nothing is copied: their keys and values
 * are views of the fetched bytes (Kafka's {@code ByteBufferDeserializer}), alive while the chunk is.
 */
public final class RecordChunk {
    private final TopicPartition partition;
    private final List<ConsumerRecord<ByteBuffer, ByteBuffer>> records;
    private long bytes;

    public RecordChunk(TopicPartition partition, int expectedRecords) {
        this.partition = partition;
        this.records = new ArrayList<>(expectedRecords);
    }

    public void add(ConsumerRecord<ByteBuffer, ByteBuffer> record, long recordBytes) {
        records.add(record);
        bytes += recordBytes;
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

    /**
     * Whether a record of {@code recordBytes} ({@link #sizeOf}) still goes into this chunk under the caps: at most
     * {@code maxRows} records and {@code maxBytes} key and value bytes, except that an empty chunk takes any
     * record (a record larger than the cap makes a chunk of its own).
     */
    public boolean hasRoomFor(long recordBytes, int maxRows, long maxBytes) {
        return records.isEmpty() || (records.size() < maxRows && bytes + recordBytes <= maxBytes);
    }

    /** Size of a record's key and value, as the chunk caps count them. */
    public static long sizeOf(ConsumerRecord<ByteBuffer, ByteBuffer> record) {
        return Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
    }
}
