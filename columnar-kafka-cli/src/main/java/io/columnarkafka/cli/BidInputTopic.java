package io.columnarkafka.cli;

import io.columnarkafka.client.ArrowKafkaSink;
import io.columnarkafka.client.ArrowKafkaSinkConfig;
import io.columnarkafka.client.DeliveryGuarantee;
import io.columnarkafka.client.SinkListener;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.time.Duration;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The demo's input: bids {@code 0 .. rows-1} written to a topic as Flink JSON by the Flink-free
 * {@link ArrowKafkaSink} (at least once, round-robin over the partitions), before any Flink job starts.
 */
final class BidInputTopic {
    private static final int BATCH_ROWS = 4096;
    private static final Duration FLUSH_TIMEOUT = Duration.ofMinutes(5);

    private BidInputTopic() {}

    /** Writes the bids and returns once every record is acknowledged. */
    static void fill(String servers, String topic, long rows, long seed) {
        ArrowKafkaSinkConfig config = ArrowKafkaSinkConfig.builder()
                .topic(topic)
                .bootstrapServers(servers)
                .valueFormat("json", Map.of())
                .deliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .partitioner("round-robin")
                .producerProperty("linger.ms", "20")
                .producerProperty("batch.size", "262144")
                .build();
        BidGenerator generator = new BidGenerator(seed);
        try (ArrowKafkaSink sink = new ArrowKafkaSink(BidGenerator.BID_TYPE, config,
                        SinkListener.NONE);
                BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = VectorSchemaRoot.create(sink.schema(), allocator)) {
            sink.open();
            for (long from = 0; from < rows; from += BATCH_ROWS) {
                int n = (int) Math.min(BATCH_ROWS, rows - from);
                generator.fill(batch, from, n);
                sink.writeBatch(batch);
            }
            sink.flush(FLUSH_TIMEOUT);
        }
    }
}
