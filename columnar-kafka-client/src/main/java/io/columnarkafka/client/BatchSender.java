package io.columnarkafka.client;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Turns one Arrow batch into one Kafka record per row and sends them: the layout is checked, the value and
 * key slabs are encoded in one call each (the encoders the Flink sink uses, planned once), and each record
 * is copied out of its slab as the {@code byte[]} the producer keeps, with its topic, partition, timestamp
 * and headers. Nothing is sent if the layout check or encoding fails.
 */
final class BatchSender {
    private final SinkSettings settings;
    private final BatchEncoder valueEncoder;
    private final BatchEncoder keyEncoder;
    private final MetadataColumns metadata;
    private final PartitionChooser partitions;
    private final SinkListener listener;

    BatchSender(SinkSettings settings, SinkListener listener) {
        this.settings = settings;
        this.valueEncoder = settings.valueEncoder;
        this.keyEncoder = settings.keyEncoder;
        this.metadata = new MetadataColumns(settings);
        this.partitions = new PartitionChooser(settings);
        this.listener = listener;
    }

    WriteResult send(VectorSchemaRoot batch, Producer<byte[], byte[]> producer, SendTracker tracker) {
        try {
            ArrowLayout.check(settings.rowType, batch);
        } catch (BatchLayoutException e) {
            throw new BatchLayoutException(e.column(), "the Arrow batch does not fit the sink's row type "
                    + settings.rowType.asSummaryString() + ": " + e.getMessage());
        }
        ArrowLayout.checkNotNull(settings.rowType, batch);
        metadata.bind(batch);
        metadata.check(batch.getRowCount());
        long encodeStart = System.nanoTime();
        RecordSlab values = valueEncoder.encode(batch);
        RecordSlab keys = keyEncoder == null ? null : keyEncoder.encode(batch);
        long sendStart = System.nanoTime();
        int rows = values.recordCount();
        for (int row = 0; row < rows; row++) {
            String topic = metadata.topic(row);
            byte[] key = keys == null ? null : keys.copyRecord(row);
            Integer partition = partitions.leavesToProducer() ? null : partitions.partition(topic, producer);
            producer.send(new ProducerRecord<>(topic, partition, metadata.timestamp(row), key,
                    values.copyRecord(row), metadata.headers(row)), tracker);
        }
        long sendEnd = System.nanoTime();
        long bytes = values.size() + (keys == null ? 0 : keys.size());
        listener.batchWritten(rows, bytes, sendStart - encodeStart, sendEnd - sendStart);
        return new WriteResult(rows, bytes);
    }

    /** Which encoders write values and keys, e.g. {@code json value (JsonBatchEncoder), json key (...)}. */
    String describe() {
        String value = settings.valueFormat + " value (" + valueEncoder.getClass().getSimpleName() + ")";
        return keyEncoder == null ? value
                : value + ", " + settings.keyFormat + " key (" + keyEncoder.getClass().getSimpleName() + ")";
    }
}
