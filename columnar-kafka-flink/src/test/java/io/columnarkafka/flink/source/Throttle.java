package io.columnarkafka.flink.source;

import io.columnarkafka.flink.batch.ArrowBatch;
import org.apache.flink.api.common.functions.MapFunction;

/** Passes batches on, sleeping a while per batch, so a bounded input lasts through a few checkpoints. */
final class Throttle implements MapFunction<ArrowBatch, ArrowBatch> {
    private final long millis;

    Throttle(long millis) {
        this.millis = millis;
    }

    @Override
    public ArrowBatch map(ArrowBatch batch) throws InterruptedException {
        Thread.sleep(millis);
        return batch;
    }
}
