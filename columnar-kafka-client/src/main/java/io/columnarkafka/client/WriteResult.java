package io.columnarkafka.client;

/**
 * What one {@link ArrowKafkaSink#writeBatch} handed to Kafka's producer.
 *
 * @param records records sent, one per row of the batch
 * @param bytes encoded key and value bytes of those records (null keys and values count 0)
 */
public record WriteResult(long records, long bytes) {}
