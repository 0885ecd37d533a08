package io.columnarkafka.client;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Turns one Arrow batch into one Kafka record per row and sends them: the layout is checked, the value and
 * key slabs are encoded in one call each (the encoders the Flink sink uses, planned once), and each record
 * is copied out of its slab as the {@code byte[]} the producer keeps, with its topic, partition, timestamp
 * and headers. Nothing is sent if the layout check or encoding fails, or if a record is over the size the
 * producer accepts ({@link RecordSizeLimit}, the check of the Flink sinks): the producer would reject that record
 * alone in {@code send()}, after the batch's earlier records were sent.
 */
final class BatchSender {
    private final SinkSettings settings;
    private final BatchEncoder valueEncoder;
    private final BatchEncoder keyEncoder;
    private final MetadataColumns metadata;
    private final PartitionChooser partitions;
    private final SinkListener listener;
    private final RecordSizeLimit sizeLimit;

    /** A sender for producers made from {@code settings}, whose size properties {@code sizeLimit} was read from. */
    BatchSender(SinkSettings settings, SinkListener listener, RecordSizeLimit sizeLimit) {
        this.settings = settings;
        this.valueEncoder = settings.valueEncoder;
        this.keyEncoder = settings.keyEncoder;
        this.metadata = new MetadataColumns(settings);
        this.partitions = new PartitionChooser(settings);
        this.listener = listener;
        this.sizeLimit = sizeLimit;
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
        int rows = values.recordCount();
        List<Header>[] headers = headers(rows);
        checkSizes(keys, values, headers);
        long sendStart = System.nanoTime();
        for (int row = 0; row < rows; row++) {
            String topic = metadata.topic(row);
            byte[] key = keys == null ? null : keys.copyRecord(row);
            Integer partition = partitions.leavesToProducer() ? null : partitions.partition(topic, producer);
            producer.send(new ProducerRecord<>(topic, partition, metadata.timestamp(row), key,
                    values.copyRecord(row), headers == null ? null : headers[row]), tracker);
        }
        long sendEnd = System.nanoTime();
        long bytes = values.size() + (keys == null ? 0 : keys.size());
        listener.batchWritten(rows, bytes, sendStart - encodeStart, sendEnd - sendStart);
        return new WriteResult(rows, bytes);
    }

    /** Each row's headers (null: none), read once for the size check and the send; null without a headers column. */
    @SuppressWarnings("unchecked")
    private List<Header>[] headers(int rows) {
        if (settings.headersColumn < 0) {
            return null;
        }
        List<Header>[] headers = new List[rows];
        for (int row = 0; row < rows; row++) {
            headers[row] = metadata.headers(row);
        }
        return headers;
    }

    /** Fails the batch before any record is sent if one is over the producer's limit, naming its topic and row. */
    private void checkSizes(RecordSlab keys, RecordSlab values, List<Header>[] headers) {
        int rows = values.recordCount();
        sizeLimit.check(rows, values.size() + (keys == null ? 0L : keys.size()),
                keys == null ? i -> -1 : keys::length, values::length, headers == null ? null : i -> headers[i],
                i -> "topic '" + metadata.topic(i) + "', row " + i + " of the Arrow batch of " + rows + " rows");
    }

    /** Which encoders write values and keys, e.g. {@code json value (JsonBatchEncoder), json key (...)}. */
    static String describe(SinkSettings settings) {
        String value = settings.valueFormat + " value (" + settings.valueEncoder.getClass().getSimpleName() + ")";
        return settings.keyEncoder == null ? value : value + ", " + settings.keyFormat + " key ("
                + settings.keyEncoder.getClass().getSimpleName() + ")";
    }
}
