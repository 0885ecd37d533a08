package io.columnarkafka.client;

/**
 * What a configured sink promises and what its caller must do, known without opening anything.
 *
 * @param deliveryGuarantee the guarantee of the configuration
 * @param ordering the ordering records keep
 * @param idempotent whether the producer is idempotent (no duplicates from its own retries)
 * @param transactional whether records are written in Kafka transactions, one per epoch
 * @param epochDuty what the caller must do at each of its checkpoints ("epochs")
 */
public record SinkContract(
        DeliveryGuarantee deliveryGuarantee,
        String ordering,
        boolean idempotent,
        boolean transactional,
        String epochDuty) {}
