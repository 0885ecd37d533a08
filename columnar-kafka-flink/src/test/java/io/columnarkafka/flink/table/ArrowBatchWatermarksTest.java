package io.columnarkafka.flink.table;

import static io.columnarkafka.flink.testing.WatermarkGenerators.context;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.WatermarkGenerators.Emitted;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.generated.GeneratedWatermarkGeneratorSupplier;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.watermark.WatermarkEmitStrategy;
import org.apache.flink.util.clock.ManualClock;
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

    /**
     * Flink's own generator for a pushed watermark ({@code DefaultWatermarkGenerator}: it keeps the watermark of
     * the last row that gave one), over an expression standing in for the generated one: column 0 minus 10, null
     * for a null column. Counts the generators made.
     */
    private static WatermarkStrategy<RowData> flinksGeneratorMinusTen(AtomicInteger made) {
        return WatermarkStrategy.forGenerator(context -> {
            made.incrementAndGet();
            return new GeneratedWatermarkGeneratorSupplier.DefaultWatermarkGenerator(
                    new org.apache.flink.table.runtime.generated.WatermarkGenerator() {
                        @Override
                        public long extractTimestamp(RowData row) {
                            return row.getLong(0);
                        }

                        @Override
                        public Long currentWatermark(RowData row) {
                            return row.isNullAt(0) ? null : row.getLong(0) - 10;
                        }
                    },
                    WatermarkEmitStrategy.ON_PERIODIC);
        });
    }

    private static WatermarkStrategy<RowData> flinksGeneratorMinusTen() {
        return flinksGeneratorMinusTen(new AtomicInteger());
    }

    private ArrowBatch batch(Long... values) {
        return splitBatch("split-0", values);
    }

    private ArrowBatch splitBatch(String split, Long... values) {
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
        return ArrowBatch.fromSplit(new VectorSchemaRoot(List.of(vector)), split);
    }

    @Test
    void theSplitsGeneratorSeesTheBatchsLargestWatermarkAfterTheBatchIsFreed() {
        ArrowBatchWatermarks strategy = new ArrowBatchWatermarks(flinksGeneratorMinusTen(), ROWS, null);
        TimestampAssigner<ArrowBatch> assigner = strategy.createTimestampAssigner(UnregisteredMetricsGroup::new);
        WatermarkGenerator<ArrowBatch> split = strategy.createWatermarkGenerator(context(new ManualClock()));
        Emitted out = new Emitted();

        assertThat(emit(assigner, split, batch(5L, 30L, null, 12L), 7L, out)).as("record timestamp").isEqualTo(7L);
        assertThat(out.last()).isEqualTo(20L);
        emit(assigner, split, batch(null, null), 8L, out);
        assertThat(out.largest()).as("a batch without watermarks changes nothing").isEqualTo(20L);
        emit(assigner, split, batch(25L, 3L), 9L, out);
        assertThat(out.largest()).as("a smaller watermark does not move it back").isEqualTo(20L);
        emit(assigner, split, batch(1L, 41L, 40L), 10L, out);
        assertThat(out.last()).isEqualTo(31L);
    }

    @Test
    void eachSplitKeepsItsOwnWatermark() {
        ArrowBatchWatermarks strategy = new ArrowBatchWatermarks(flinksGeneratorMinusTen(), ROWS, null);
        TimestampAssigner<ArrowBatch> assigner = strategy.createTimestampAssigner(UnregisteredMetricsGroup::new);
        WatermarkGenerator<ArrowBatch> first = strategy.createWatermarkGenerator(context(new ManualClock()));
        WatermarkGenerator<ArrowBatch> second = strategy.createWatermarkGenerator(context(new ManualClock()));
        Emitted firstOut = new Emitted();
        Emitted secondOut = new Emitted();
        emit(assigner, first, splitBatch("a", 100L), 0L, firstOut);
        emit(assigner, second, splitBatch("b", null, 50L, null), 0L, secondOut);
        emit(assigner, first, splitBatch("a", null, 95L), 0L, firstOut);
        emit(assigner, second, splitBatch("b", null, 45L), 0L, secondOut);
        assertThat(firstOut.last()).isEqualTo(90L);
        assertThat(secondOut.last()).isEqualTo(40L);
    }

    /** Flink generates and compiles the watermark code for each generator it makes: one probe per split, ever. */
    @Test
    void oneProbePerSplitWhateverTheNumberOfBatches() {
        AtomicInteger made = new AtomicInteger();
        ArrowBatchWatermarks strategy = new ArrowBatchWatermarks(flinksGeneratorMinusTen(made), ROWS, null);
        TimestampAssigner<ArrowBatch> assigner = strategy.createTimestampAssigner(UnregisteredMetricsGroup::new);
        WatermarkGenerator<ArrowBatch> first = strategy.createWatermarkGenerator(context(new ManualClock()));
        WatermarkGenerator<ArrowBatch> second = strategy.createWatermarkGenerator(context(new ManualClock()));
        Emitted out = new Emitted();
        for (long i = 0; i < 200; i++) {
            emit(assigner, first, splitBatch("a", i, i + 1), 0L, out);
            emit(assigner, second, splitBatch("b", i), 0L, out);
        }
        assertThat(made.get()).as("two split generators and two probes").isEqualTo(4);
    }

    @Test
    void aBatchWithoutItsSplitIsRefused() {
        ArrowBatchWatermarks strategy = new ArrowBatchWatermarks(flinksGeneratorMinusTen(), ROWS, null);
        TimestampAssigner<ArrowBatch> assigner = strategy.createTimestampAssigner(UnregisteredMetricsGroup::new);
        BigIntVector vector = new BigIntVector("f0", allocator);
        try (ArrowBatch batch = ArrowBatch.of(new VectorSchemaRoot(List.of(vector)), null)) {
            assertThatThrownBy(() -> assigner.extractTimestamp(batch, 0L))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("split");
        }
    }

    /**
     * Random batches (nulls, rows out of order, batches below the split's watermark) of three interleaved splits:
     * after each batch every split's watermark equals the largest Flink's generator emits when it is fed the same
     * split's rows one at a time with an emission after each row (the most a row-at-a-time source can emit).
     */
    @Test
    void eachSplitsWatermarkIsTheLargestARowAtATimeFeedEmits() {
        AtomicInteger made = new AtomicInteger();
        WatermarkStrategy<RowData> flink = flinksGeneratorMinusTen(made);
        ArrowBatchWatermarks strategy = new ArrowBatchWatermarks(flink, ROWS, null);
        TimestampAssigner<ArrowBatch> assigner = strategy.createTimestampAssigner(UnregisteredMetricsGroup::new);
        String[] splits = {"a", "b", "c"};
        Map<String, WatermarkGenerator<ArrowBatch>> ours = new HashMap<>();
        Map<String, Emitted> oursOut = new HashMap<>();
        Map<String, WatermarkGenerator<RowData>> oracle = new HashMap<>();
        Map<String, Emitted> oracleOut = new HashMap<>();
        for (String split : splits) {
            ours.put(split, strategy.createWatermarkGenerator(context(new ManualClock())));
            oursOut.put(split, new Emitted());
            oracle.put(split, flink.createWatermarkGenerator(context(new ManualClock())));
            oracleOut.put(split, new Emitted());
        }
        Random random = new Random(20261201);
        int compared = 0;
        int belowTheSplitsWatermark = 0;
        for (int b = 0; b < 3000; b++) {
            String split = splits[random.nextInt(splits.length)];
            Long[] values = new Long[1 + random.nextInt(6)];
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextInt(4) == 0 ? null : (long) (b + random.nextInt(200) - 100);
            }
            for (Long value : values) {
                GenericRowData row = GenericRowData.of(value);
                oracle.get(split).onEvent(row, 0L, oracleOut.get(split));
                oracle.get(split).onPeriodicEmit(oracleOut.get(split));
            }
            long before = oursOut.get(split).largest();
            emit(assigner, ours.get(split), splitBatch(split, values), 0L, oursOut.get(split));
            assertThat(oursOut.get(split).largest()).as("split %s after batch %d", split, b)
                    .isEqualTo(oracleOut.get(split).largest());
            compared++;
            if (oursOut.get(split).largest() == before) {
                belowTheSplitsWatermark++;
            }
        }
        assertThat(compared).isEqualTo(3000);
        assertThat(belowTheSplitsWatermark).as("batches that moved nothing").isGreaterThan(300);
        assertThat(made.get()).as("three split generators, three oracles, three probes").isEqualTo(9);
    }

    @Test
    void idlenessAndAlignmentAreFlinksWrappersOfThePushedStrategy() {
        ManualClock clock = new ManualClock();
        clock.advanceTime(Duration.ofSeconds(1)); // Flink's idleness timer reads a time of 0 as "not started"
        WatermarkStrategy<RowData> pushed = flinksGeneratorMinusTen().withIdleness(Duration.ofSeconds(1))
                .withWatermarkAlignment("group", Duration.ofSeconds(3), Duration.ofMillis(250));
        ArrowBatchWatermarks strategy = new ArrowBatchWatermarks(pushed, ROWS, null);
        assertThat(strategy.getAlignmentParameters().getWatermarkGroup()).isEqualTo("group");
        assertThat(strategy.getAlignmentParameters().getMaxAllowedWatermarkDrift()).isEqualTo(3000L);
        TimestampAssigner<ArrowBatch> assigner = strategy.createTimestampAssigner(UnregisteredMetricsGroup::new);
        WatermarkGenerator<ArrowBatch> split = strategy.createWatermarkGenerator(context(clock));
        Emitted out = new Emitted();
        emit(assigner, split, batch(30L), 0L, out);
        assertThat(out.idle()).isFalse();
        split.onPeriodicEmit(out); // Flink's idleness timer starts at the first emission without new input
        clock.advanceTime(Duration.ofSeconds(2));
        split.onPeriodicEmit(out);
        assertThat(out.idle()).as("idle after the timeout without batches").isTrue();
        clock.advanceTime(Duration.ofMillis(10));
        emit(assigner, split, batch(31L), 0L, out);
        assertThat(out.idle()).as("active again with a batch").isFalse();
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
}
