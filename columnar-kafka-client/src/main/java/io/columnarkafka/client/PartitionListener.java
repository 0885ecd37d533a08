package io.columnarkafka.client;

import java.util.Collection;
import org.apache.kafka.common.TopicPartition;

/**
 * Told when the consumer group gives an {@link ArrowKafkaSource} partitions or takes them away, on the thread that
 * calls {@link ArrowKafkaSource#poll} (or {@link ArrowKafkaSource#close}), inside that call. Kafka's {@code
 * ConsumerRebalanceListener} contract, with the source's batches:
 *
 * <ul>
 *   <li>{@link #revoked}: the partitions are still this source's until the method returns, so {@link
 *       ArrowKafkaSource#commit} works here: commit what has been processed of them and the next owner starts
 *       right after it (no record read twice). Batches of these partitions already handed out stay the caller's
 *       (close them as usual); records the source held beyond a batch's caps are dropped, the next owner reads
 *       them from the commit.
 *   <li>{@link #lost}: the partitions already belong to another member (this one was out of the group too long);
 *       committing is refused by the group, so what was processed of them since the last commit is read again by
 *       their new owner.
 *   <li>{@link #assigned}: the partitions are this source's now, each positioned as the startup mode says the
 *       first time, else at the group's commit.
 * </ul>
 *
 * An exception thrown here fails the {@code poll} (Kafka's behaviour). All methods default to nothing.
 */
public interface PartitionListener {
    default void assigned(Collection<TopicPartition> partitions) {}

    default void revoked(Collection<TopicPartition> partitions) {}

    default void lost(Collection<TopicPartition> partitions) {}
}
