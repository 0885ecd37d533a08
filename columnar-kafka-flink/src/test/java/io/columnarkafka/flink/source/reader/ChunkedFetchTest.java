package io.columnarkafka.flink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.client.decode.RecordChunk;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** How one fetch's records are cut into chunks when the reader takes them. */
class ChunkedFetchTest {
    private static final long MS = 1_000_000;

    @Test
    void eachChunkTakesWhatTheCapAllowsWhenItIsTaken() {
        BatchTimeCap cap = new BatchTimeCap(500, 5 * MS);
        ChunkedFetch fetch = new ChunkedFetch(fetched(Map.of("t-0", records("t", 0, 100, 1_000, 10)), Set.of()), cap, 8L << 20);
        assertThat(fetch.nextSplit()).isEqualTo("t-0");

        RecordChunk first = fetch.nextRecordFromSplit();
        assertThat(first.size()).as("no step measured yet: the row cap, the whole fetch").isEqualTo(500);
        cap.measured(first.size(), 50 * MS); // 100 us a record: 50 fit 5 ms
        RecordChunk second = fetch.nextRecordFromSplit();
        assertThat(second.size()).isEqualTo(50);
        cap.measured(second.size(), MS / 2); // 10 us; the average moves to 77.5 us: 64 records
        RecordChunk third = fetch.nextRecordFromSplit();
        assertThat(third.size()).isEqualTo(64);

        List<RecordChunk> chunks = new ArrayList<>(List.of(first, second, third));
        RecordChunk chunk;
        while ((chunk = fetch.nextRecordFromSplit()) != null) {
            chunks.add(chunk);
        }
        assertContiguous(chunks, new TopicPartition("t", 0), 100, 1_000);
        assertThat(fetch.nextSplit()).isNull();
    }

    @Test
    void theByteCapEndsAChunkBeforeTheRowCapButNeverLeavesItEmpty() {
        ChunkedFetch fetch = new ChunkedFetch(
                fetched(Map.of("t-1", records("t", 1, 0, 10, 100)), Set.of()), new BatchTimeCap(500, 0), 250);
        fetch.nextSplit();
        List<Integer> sizes = new ArrayList<>();
        List<Long> bytes = new ArrayList<>();
        RecordChunk chunk;
        while ((chunk = fetch.nextRecordFromSplit()) != null) {
            sizes.add(chunk.size());
            bytes.add(chunk.bytes());
        }
        assertThat(sizes).containsExactly(2, 2, 2, 2, 2);
        assertThat(bytes).containsOnly(200L);

        ChunkedFetch big = new ChunkedFetch(
                fetched(Map.of("t-1", records("t", 1, 0, 3, 1_000)), Set.of()), new BatchTimeCap(500, 0), 250);
        big.nextSplit();
        assertThat(big.nextRecordFromSplit().size()).as("a record above the byte cap is a chunk of its own").isOne();
    }

    @Test
    void splitsInFetchOrderAndTheFetchsFinishedSplits() {
        Map<String, List<ConsumerRecord<ByteBuffer, ByteBuffer>>> bySplit = new LinkedHashMap<>();
        bySplit.put("t-1", records("t", 1, 7, 30, 10));
        bySplit.put("t-0", records("t", 0, 0, 20, 10));
        ChunkedFetch fetch = new ChunkedFetch(fetched(bySplit, Set.of("t-2")), new BatchTimeCap(16, 0), 8L << 20);
        assertThat(fetch.nextRecordFromSplit()).as("no split yet").isNull();
        assertThat(fetch.nextSplit()).isEqualTo("t-1");
        List<RecordChunk> first = drain(fetch);
        assertThat(first).extracting(RecordChunk::size).containsExactly(16, 14);
        assertContiguous(first, new TopicPartition("t", 1), 7, 30);
        assertThat(fetch.nextSplit()).isEqualTo("t-0");
        assertContiguous(drain(fetch), new TopicPartition("t", 0), 0, 20);
        assertThat(fetch.nextSplit()).isNull();
        assertThat(fetch.nextRecordFromSplit()).isNull();
        assertThat(fetch.finishedSplits()).containsExactly("t-2");
    }

    /**
     * Records leave Flink's fetch only when the chunk that holds them is cut, on the task thread just before its
     * step, as Flink's own reader takes each record just before emitting it: taking a record moves the split's
     * {@code currentOffset} metric ({@code KafkaPartitionSplitRecords}, here a fetch that records the last record
     * taken), which must not run ahead of the emitted data to the end of what the fetcher has read.
     */
    @Test
    void recordsAreTakenFromTheFetchOnlyWhenTheirChunkIsCut() {
        TakenOffsets fetched = new TakenOffsets(fetched(Map.of("t-0", records("t", 0, 0, 100, 10)), Set.of()));
        ChunkedFetch fetch = new ChunkedFetch(fetched, new BatchTimeCap(30, 0), 8L << 20);
        assertThat(fetched.lastTaken).as("nothing taken before the reader asks for a chunk").isEqualTo(-1);
        fetch.nextSplit();
        List<Long> takenAfterEachChunk = new ArrayList<>();
        List<Long> lastOffsets = new ArrayList<>();
        RecordChunk chunk;
        while ((chunk = fetch.nextRecordFromSplit()) != null) {
            takenAfterEachChunk.add(fetched.lastTaken);
            lastOffsets.add(chunk.lastOffset());
        }
        assertThat(takenAfterEachChunk).as("the metric at each chunk's last record").isEqualTo(lastOffsets)
                .containsExactly(29L, 59L, 89L, 99L);

        TakenOffsets bytes = new TakenOffsets(fetched(Map.of("t-0", records("t", 0, 0, 10, 100)), Set.of()));
        ChunkedFetch byBytes = new ChunkedFetch(bytes, new BatchTimeCap(500, 0), 250);
        byBytes.nextSplit();
        RecordChunk first = byBytes.nextRecordFromSplit();
        assertThat(first.lastOffset()).isOne();
        assertThat(bytes.lastTaken).as("the record that did not fit the bytes: taken, held for the next chunk")
                .isEqualTo(2);
        assertThat(byBytes.nextRecordFromSplit().offset(0)).isEqualTo(2);
    }

    /** A fetch that keeps the offset of the last record taken from it, as Flink's sets its split's metric. */
    private static final class TakenOffsets implements RecordsWithSplitIds<ConsumerRecord<ByteBuffer, ByteBuffer>> {
        private final RecordsWithSplitIds<ConsumerRecord<ByteBuffer, ByteBuffer>> records;
        long lastTaken = -1;

        TakenOffsets(RecordsWithSplitIds<ConsumerRecord<ByteBuffer, ByteBuffer>> records) {
            this.records = records;
        }

        @Override
        public String nextSplit() {
            return records.nextSplit();
        }

        @Override
        public ConsumerRecord<ByteBuffer, ByteBuffer> nextRecordFromSplit() {
            ConsumerRecord<ByteBuffer, ByteBuffer> record = records.nextRecordFromSplit();
            if (record != null) {
                lastTaken = record.offset();
            }
            return record;
        }

        @Override
        public Set<String> finishedSplits() {
            return records.finishedSplits();
        }
    }

    /** A fetch of these records per split, in the map's order, and these finished splits. */
    private static RecordsWithSplitIds<ConsumerRecord<ByteBuffer, ByteBuffer>> fetched(
            Map<String, List<ConsumerRecord<ByteBuffer, ByteBuffer>>> bySplit, Set<String> finished) {
        RecordsBySplits.Builder<ConsumerRecord<ByteBuffer, ByteBuffer>> builder = new RecordsBySplits.Builder<>();
        bySplit.forEach(builder::addAll);
        builder.addFinishedSplits(finished);
        return builder.build();
    }

    private static List<RecordChunk> drain(ChunkedFetch fetch) {
        List<RecordChunk> chunks = new ArrayList<>();
        RecordChunk chunk;
        while ((chunk = fetch.nextRecordFromSplit()) != null) {
            chunks.add(chunk);
        }
        return chunks;
    }

    /** The chunks hold records {@code from} to {@code from + count - 1} of {@code partition}, each once, in order. */
    private static void assertContiguous(List<RecordChunk> chunks, TopicPartition partition, long from, int count) {
        long expected = from;
        for (RecordChunk chunk : chunks) {
            assertThat(chunk.partition()).isEqualTo(partition);
            assertThat(chunk.size()).isPositive();
            for (int i = 0; i < chunk.size(); i++) {
                assertThat(chunk.offset(i)).isEqualTo(expected++);
            }
            assertThat(chunk.lastOffset()).isEqualTo(expected - 1);
        }
        assertThat(expected).isEqualTo(from + count);
    }

    /** {@code count} records from offset {@code from}, each with a value of {@code valueBytes} bytes and no key. */
    private static List<ConsumerRecord<ByteBuffer, ByteBuffer>> records(
            String topic, int partition, long from, int count, int valueBytes) {
        List<ConsumerRecord<ByteBuffer, ByteBuffer>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new ConsumerRecord<>(topic, partition, from + i, 0L, TimestampType.CREATE_TIME, -1, valueBytes,
                    null, ByteBuffer.allocate(valueBytes), new RecordHeaders(), Optional.empty()));
        }
        return records;
    }
}
