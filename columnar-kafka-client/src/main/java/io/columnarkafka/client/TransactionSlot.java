package io.columnarkafka.client;

import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * One transactional id of the sink's pool and its producer: idle, writing one epoch, or holding one
 * prepared epoch until it is committed or rolled back. Epoch {@code n} uses slot {@code n mod pool size}.
 */
final class TransactionSlot {
    enum Phase { IDLE, WRITING, PREPARED }

    final String transactionalId;
    final KafkaProducer<byte[], byte[]> producer;
    final SendTracker tracker;
    Phase phase = Phase.IDLE;
    long epoch = -1;
    long records;
    EpochDescriptor prepared;

    TransactionSlot(String transactionalId, KafkaProducer<byte[], byte[]> producer, SendTracker tracker) {
        this.transactionalId = transactionalId;
        this.producer = producer;
        this.tracker = tracker;
    }

    void begin(long newEpoch) {
        producer.beginTransaction();
        tracker.reset();
        phase = Phase.WRITING;
        epoch = newEpoch;
        records = 0;
        prepared = null;
    }

    void idle() {
        phase = Phase.IDLE;
        prepared = null;
    }

    @Override
    public String toString() {
        return transactionalId + " (" + phase + (phase == Phase.IDLE ? "" : " epoch " + epoch) + ")";
    }
}
