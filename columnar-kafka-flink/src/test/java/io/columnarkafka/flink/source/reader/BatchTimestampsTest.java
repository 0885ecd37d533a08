package io.columnarkafka.flink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.client.decode.RecordChunk;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BatchTimestampsTest {

    /** Values in the column's unit; the expected batch time is the largest in epoch ms, floored. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "TIMESTAMP(3), 1000;-5;1436918400123, 1436918400123",
            "TIMESTAMP(0), -2000;7123;3000, 7123",
            "TIMESTAMP(6), -1500;-999;-1001, -1",
            "TIMESTAMP_LTZ(9), 9223372036854775807;5, 9223372036854",
            "TIMESTAMP(9), -1000001;-2000000, -2",
    })
    void theLargestValueOfTheColumnInEpochMillis(String type, String values, long expectedMillis) {
        String[] raw = values.split(";");
        RowType rowType = RowTypes.parse("ROW<ts " + type + ">");
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(rowType), allocator)) {
            TimeStampVector ts = (TimeStampVector) root.getVector(0);
            ts.allocateNew(raw.length + 1);
            for (int i = 0; i < raw.length; i++) {
                ts.set(i, Long.parseLong(raw[i]));
            }
            ts.setNull(raw.length);
            root.setRowCount(raw.length + 1);
            assertThat(new BatchTimestamps(rowType, 0).of(root, chunk(1L))).isEqualTo(expectedMillis);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"-1", "0"})
    void withoutTheColumnOrWhenItIsAllNullTheLargestKafkaTimestamp(int field) {
        RowType rowType = RowTypes.parse("ROW<ts TIMESTAMP(3)>");
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(rowType), allocator)) {
            root.getVector(0).allocateNew();
            ((TimeStampVector) root.getVector(0)).setNull(0);
            root.setRowCount(1);
            assertThat(new BatchTimestamps(rowType, field).of(root, chunk(5L, 9L, 7L))).isEqualTo(9L);
        }
    }

    private static RecordChunk chunk(long... timestamps) {
        RecordChunk chunk = new RecordChunk(new TopicPartition("t", 0), timestamps.length);
        for (int i = 0; i < timestamps.length; i++) {
            chunk.add(new ConsumerRecord<>("t", 0, i, timestamps[i], org.apache.kafka.common.record.TimestampType.CREATE_TIME,
                    0, 1, null, java.nio.ByteBuffer.wrap(new byte[] {1}), new org.apache.kafka.common.header.internals.RecordHeaders(),
                    java.util.Optional.empty()), 1);
        }
        return chunk;
    }
}
