package io.columnarkafka.flink.source;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Fills a topic with Nexmark bids in Flink's JSON (the columnar JSON encoder's bytes, which equal Flink's). */
final class BidTopics {
    private static final int BATCH = 1000;

    private BidTopics() {}

    /** Bids {@code 0 .. count-1} as JSON values with null keys, bid {@code i} in partition {@code i % partitions}. */
    static void fill(KafkaBroker broker, String topic, int partitions, int count) {
        broker.createTopic(topic, partitions);
        BidGenerator generator = new BidGenerator(42);
        BatchEncoder json = Formats.encoder("json", Projection.all(BidGenerator.BID_TYPE), Map.of());
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(count);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowLayout.schema(BidGenerator.BID_TYPE), allocator)) {
            for (int from = 0; from < count; from += BATCH) {
                int n = Math.min(BATCH, count - from);
                generator.fill(batch, from, n);
                RecordSlab values = json.encode(batch);
                for (int i = 0; i < n; i++) {
                    records.add(new ProducerRecord<>(topic, (from + i) % partitions, null, values.copyRecord(i)));
                }
            }
        }
        SourceTopics.produce(broker, records);
    }
}
