package io.columnarkafka.client;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.common.TopicPartition;

/**
 * The rows an {@link ArrowKafkaSource} decoded from consecutive records of one partition, with where they came
 * from: topic, partition, and the first and last offset of the records read (records that gave no row, such as
 * tombstones or records skipped under {@code ignore-parse-errors}, are inside that range all the same, so a batch
 * may hold fewer rows than records, or none).
 *
 * <p>The caller owns it: {@link #close()} frees its Arrow memory (at most once; later calls do nothing), from any
 * thread. Its offsets stay readable after closing, so a batch can be committed once its rows are processed and
 * freed.
 */
public final class ArrowKafkaBatch implements AutoCloseable {
    private final VectorSchemaRoot root;
    private final TopicPartition partition;
    private final long firstOffset;
    private final long lastOffset;
    private final int records;
    private final int rows;
    private final Runnable onClose;
    private final AtomicBoolean closed = new AtomicBoolean();

    ArrowKafkaBatch(VectorSchemaRoot root, TopicPartition partition, long firstOffset, long lastOffset, int records,
            Runnable onClose) {
        this.root = root;
        this.partition = partition;
        this.firstOffset = firstOffset;
        this.lastOffset = lastOffset;
        this.records = records;
        this.rows = root.getRowCount();
        this.onClose = onClose;
    }

    /** The rows, laid out as {@link ArrowKafkaSource#schema()}; valid until {@link #close()}. */
    public VectorSchemaRoot root() {
        if (closed.get()) {
            throw new IllegalStateException("the batch of " + partition + " at offsets " + firstOffset + ".." + lastOffset
                    + " is closed");
        }
        return root;
    }

    public int rowCount() {
        return rows;
    }

    public String topic() {
        return partition.topic();
    }

    public int partition() {
        return partition.partition();
    }

    public TopicPartition topicPartition() {
        return partition;
    }

    /** Offset of the first record read into this batch. */
    public long firstOffset() {
        return firstOffset;
    }

    /** Offset of the last record read into this batch. */
    public long lastOffset() {
        return lastOffset;
    }

    /** The offset after this batch ({@code lastOffset() + 1}): what {@link ArrowKafkaSource#commit} commits for it. */
    public long nextOffset() {
        return lastOffset + 1;
    }

    /** Records read into this batch, those that gave no row included. */
    public int records() {
        return records;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            root.close();
            onClose.run();
        }
    }

    @Override
    public String toString() {
        return "ArrowKafkaBatch[" + partition + " offsets " + firstOffset + ".." + lastOffset + ", " + records
                + " records, " + rows + " rows" + (closed.get() ? ", closed" : "") + "]";
    }
}
