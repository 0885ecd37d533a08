package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.clock.ManualClock;
import org.apache.flink.util.clock.RelativeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowBatchWatermarks} driven as Flink's source operator drives a strategy (timestamp assigner, then the
 * element is emitted and freed by a chained consumer, then the split's generator): the split's generator ends
 * in the state a row-at-a-time feed of the same rows gives, reads no freed Arrow memory, keeps the record
 * timestamp, and passes on idleness and alignment.
 */
class ArrowBatchWatermarksTest {
    private static final RowType ROWS = RowType.of(new BigIntType());
    private final BufferAllocator allocator = ArrowMemory.newChild("watermarks-test", 1 << 20);

    @AfterEach
    void noArrowMemoryOutstanding() {
        allocator.close();
        assertThat(ArrowMemory.allocatedBytes()).isZero();
    }

    /** Flink's generated generator's shape: the largest non-null watermark (here: column 0 minus 10). */
    private static WatermarkStrategy<RowData> largestMinusTen() {
        return WatermarkStrategy.forGenerator(context -> new WatermarkGenerator<>() {
            private long current = Long.MIN_VALUE;

            @Override
            public void onEvent(RowData row, long timestamp, WatermarkOutput output) {
                if (!row.isNullAt(0)) {
                    current = Math.max(current, row.getLong(0) - 10);
                }
            }

            @Override
            public void onPeriodicEmit(WatermarkOutput output) {
                output.emitWatermark(new Watermark(current));
            }
        });
    }

    private ArrowBatch batch(Long... values) {
        BigIntVector vector = new BigIntVector("f0", allocator);
        vector.allocateNew(values.length);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                vector.setNull(i);
            } else {
                vector.set(i, values[i]);
            }
        }
        vector.setValueCount(values.length);
        return ArrowBatch.of(new VectorSchemaRoot(List.of(vector)), null);
    }

    @Test
    void theSplitsGeneratorSeesTheBatchsLargestWatermarkAfterTheBatchIsFreed() {
        ArrowBatchWatermarks strategy = new ArrowBatchWatermarks(largestMinusTen(), ROWS);
        TimestampAssigner<ArrowBatch> assigner = strategy.createTimestampAssigner(UnregisteredMetricsGroup::new);
        WatermarkGenerator<ArrowBatch> split = strategy.createWatermarkGenerator(context(new ManualClock()));
        Emitted out = new Emitted();

        assertThat(emit(assigner, split, batch(5L, 30L, null, 12L), 7L, out)).as("record timestamp").isEqualTo(7L);
        assertThat(out.last()).isEqualTo(20L);
        emit(assigner, split, batch(null, null), 8L, out);
        assertThat(out.last()).as("a batch without watermarks changes nothing").isEqualTo(20L);
        emit(assigner, split, batch(25L, 3L), 9L, out);
        assertThat(out.last()).as("a smaller watermark does not move it back").isEqualTo(20L);
        emit(assigner, split, batch(1L, 41L, 40L), 10L, out);
        assertThat(out.last()).isEqualTo(31L);
    }

    @Test
    void eachSplitKeepsItsOwnWatermark() {
        ArrowBatchWatermarks strategy = new ArrowBatchWatermarks(largestMinusTen(), ROWS);
        TimestampAssigner<ArrowBatch> assigner = strategy.createTimestampAssigner(UnregisteredMetricsGroup::new);
        WatermarkGenerator<ArrowBatch> first = strategy.createWatermarkGenerator(context(new ManualClock()));
        WatermarkGenerator<ArrowBatch> second = strategy.createWatermarkGenerator(context(new ManualClock()));
        Emitted firstOut = new Emitted();
        Emitted secondOut = new Emitted();
        emit(assigner, first, batch(100L), 0L, firstOut);
        emit(assigner, second, batch(50L, null), 0L, secondOut);
        assertThat(firstOut.last()).isEqualTo(90L);
        assertThat(secondOut.last()).isEqualTo(40L);
    }

    @Test
    void idlenessAndAlignmentAreFlinksWrappersOfThePushedStrategy() {
        ManualClock clock = new ManualClock();
        clock.advanceTime(Duration.ofSeconds(1)); // Flink's idleness timer reads a time of 0 as "not started"
        WatermarkStrategy<RowData> pushed = largestMinusTen().withIdleness(Duration.ofSeconds(1))
                .withWatermarkAlignment("group", Duration.ofSeconds(3), Duration.ofMillis(250));
        ArrowBatchWatermarks strategy = new ArrowBatchWatermarks(pushed, ROWS);
        assertThat(strategy.getAlignmentParameters().getWatermarkGroup()).isEqualTo("group");
        assertThat(strategy.getAlignmentParameters().getMaxAllowedWatermarkDrift()).isEqualTo(3000L);
        TimestampAssigner<ArrowBatch> assigner = strategy.createTimestampAssigner(UnregisteredMetricsGroup::new);
        WatermarkGenerator<ArrowBatch> split = strategy.createWatermarkGenerator(context(clock));
        Emitted out = new Emitted();
        emit(assigner, split, batch(30L), 0L, out);
        assertThat(out.idle).isFalse();
        split.onPeriodicEmit(out); // Flink's idleness timer starts at the first emission without new input
        clock.advanceTime(Duration.ofSeconds(2));
        split.onPeriodicEmit(out);
        assertThat(out.idle).as("idle after the timeout without batches").isTrue();
        clock.advanceTime(Duration.ofMillis(10));
        emit(assigner, split, batch(31L), 0L, out);
        assertThat(out.idle).as("active again with a batch").isFalse();
        assertThat(out.last()).isEqualTo(21L);
    }

    /** As the source operator: assign, emit (a chained consumer frees the batch), then the split's generator. */
    private static long emit(TimestampAssigner<ArrowBatch> assigner, WatermarkGenerator<ArrowBatch> split,
            ArrowBatch batch, long recordTimestamp, Emitted out) {
        long timestamp = assigner.extractTimestamp(batch, recordTimestamp);
        batch.close();
        split.onEvent(batch, timestamp, out);
        split.onPeriodicEmit(out);
        return timestamp;
    }

    private static WatermarkGeneratorSupplier.Context context(RelativeClock clock) {
        return new WatermarkGeneratorSupplier.Context() {
            @Override
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            @Override
            public RelativeClock getInputActivityClock() {
                return clock;
            }
        };
    }

    private static final class Emitted implements WatermarkOutput {
        final List<Long> watermarks = new ArrayList<>();
        boolean idle;

        long last() {
            return watermarks.get(watermarks.size() - 1);
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            watermarks.add(watermark.getTimestamp());
            idle = false;
        }

        @Override
        public void markIdle() {
            idle = true;
        }

        @Override
        public void markActive() {
            idle = false;
        }
    }
}
