package io.columnarkafka.flink.batch;

import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.SourceOutput;

/**
 * A source output that does what Flink's chain does for a source with several outputs: hands the same batch
 * instance to each consumer, in turn (one consumer: a plain chained output).
 */
public record FanOutSourceOutput(List<Consumer<ArrowBatch>> consumers) implements SourceOutput<ArrowBatch> {
    @SafeVarargs
    public FanOutSourceOutput(Consumer<ArrowBatch>... consumers) {
        this(List.of(consumers));
    }

    @Override
    public void collect(ArrowBatch batch) {
        consumers.forEach(c -> c.accept(batch));
    }

    @Override
    public void collect(ArrowBatch batch, long timestamp) {
        collect(batch);
    }

    @Override
    public void emitWatermark(Watermark watermark) {}

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}
}
