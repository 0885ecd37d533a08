package io.columnarkafka.flink.table;

import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.table.data.RowData;

/** A custom partitioner that reads the row: the first column's value modulo the partition count. */
public final class RowPartitioner implements KafkaPartitioner<RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public int partition(RowData record, byte[] key, byte[] value, String topic, int[] partitions) {
        return partitions[Math.floorMod(record.getInt(0), partitions.length)];
    }
}
