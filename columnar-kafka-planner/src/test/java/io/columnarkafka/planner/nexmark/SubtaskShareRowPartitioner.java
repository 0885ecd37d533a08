package io.columnarkafka.planner.nexmark;

import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.table.data.RowData;

/**
 * A custom {@code sink.partitioner} for the parity tests, whose sink rows start with a BIGINT and a STRING column:
 * each sink subtask writes a share of its own of the topic's partitions (given by {@link #open}), so every partition
 * has one writer and the input's order, and picks the partition in its share from what Flink hands it: the consumed
 * row's first two columns, its arity (the physical and metadata columns) and its kind, and the key bytes.
 */
public final class SubtaskShareRowPartitioner implements KafkaPartitioner<RowData> {
    private static final long serialVersionUID = 1L;

    private int subtask = -1;
    private int subtasks = -1;

    @Override
    public void open(int parallelInstanceId, int parallelInstances) {
        subtask = parallelInstanceId;
        subtasks = parallelInstances;
    }

    @Override
    public int partition(RowData record, byte[] key, byte[] value, String topic, int[] partitions) {
        if (subtasks < 1) {
            throw new IllegalStateException("partition called before open");
        }
        int share = partitions.length / subtasks;
        int h = Objects.hash(record.getLong(0), record.isNullAt(1) ? null : record.getString(1).toString(),
                record.getArity(), record.getRowKind().shortString(), Arrays.hashCode(key));
        // scrambled, so that each input changes the choice within a share of two as often as not
        h = (h ^ (h >>> 16)) * 0x45d9f3b;
        h ^= h >>> 16;
        return partitions[subtask * share + Math.floorMod(h, share)];
    }
}
