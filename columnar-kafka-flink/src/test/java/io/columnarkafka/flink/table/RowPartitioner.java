package io.columnarkafka.flink.table;

import java.util.Arrays;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.table.data.RowData;

/**
 * A custom partitioner that reads everything Flink hands it: the row's first column, the serialized key
 * and value, the subtask and parallelism given to {@link #open}, and the topic's partitions.
 */
public final class RowPartitioner implements KafkaPartitioner<RowData> {
    private static final long serialVersionUID = 1L;

    private int subtask = -1;
    private int parallelism = -1;

    @Override
    public void open(int parallelInstanceId, int parallelInstances) {
        subtask = parallelInstanceId;
        parallelism = parallelInstances;
    }

    @Override
    public int partition(RowData record, byte[] key, byte[] value, String topic, int[] partitions) {
        if (parallelism < 1) {
            throw new IllegalStateException("partition called before open");
        }
        int mix = record.getInt(0) + 31 * Arrays.hashCode(key) + 17 * Arrays.hashCode(value) + 7 * subtask;
        return partitions[Math.floorMod(mix, partitions.length)];
    }
}
