package io.columnarkafka.testkit.nexmark;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Nexmark events as Flink {@code json} values (default options: SQL timestamps, nulls written) of the
 * suite's Kafka table, a batch at a time: the generator's rows are transposed into one reused Arrow batch
 * and encoded by the columnar JSON encoder. Not thread-safe; close it to free the Arrow buffers.
 */
public final class NexmarkJson implements AutoCloseable {
    private final NexmarkGenerator generator;
    private final BufferAllocator allocator = new RootAllocator();
    private final RowDataArrowWriter rows;
    private final BatchEncoder encoder =
            Formats.encoder("json", Projection.all(NexmarkGenerator.EVENT_TYPE), Map.of());

    public NexmarkJson(NexmarkGenerator generator) {
        this.generator = generator;
        this.rows = new RowDataArrowWriter(NexmarkGenerator.EVENT_TYPE, allocator);
    }

    /** Events {@code from .. from+n-1} as records {@code 0 .. n-1} of the returned slab (valid until the next call). */
    public RecordSlab encode(long from, int n) {
        rows.reset();
        for (long i = from; i < from + n; i++) {
            rows.write(generator.event(i));
        }
        return encoder.encode(rows.finish());
    }

    /** Arrow bytes still allocated (zero once closed). */
    public long allocatedBytes() {
        return allocator.getAllocatedMemory();
    }

    @Override
    public void close() {
        rows.close();
        allocator.close();
    }
}
