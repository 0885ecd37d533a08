package io.columnarkafka.planner.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.TestRows;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.trait.MiniBatchInterval;
import org.apache.flink.table.planner.plan.trait.MiniBatchMode;
import org.apache.flink.table.runtime.operators.wmassigners.ProcTimeMiniBatchAssignerOperator;
import org.apache.flink.table.runtime.operators.wmassigners.RowTimeMiniBatchAssginerOperator;
import org.junit.jupiter.api.Test;

/**
 * The columnar assigner's operator on batches against Flink's assigner on the batches' rows, one row at a time,
 * the oracle: the same random script of rows, input watermarks and clock readings (a batch's rows all arrive at
 * one reading) drives both, and the output, each batch expanded into its rows, must be the same sequence of rows
 * and watermarks, each batch passed on as the same instance.
 */
class ColumnarMiniBatchAssignerTest {
    private static final long INTERVAL = 1000;

    @Test
    void rowTimeOnBatchesEmitsFlinksWatermarksBetweenTheSameRows() throws Exception {
        assertBatchesEmitWhatFlinkEmitsOnRows(MiniBatchMode.RowTime, () -> new RowTimeMiniBatchAssginerOperator(INTERVAL));
    }

    @Test
    void procTimeOnBatchesEmitsFlinksMarkersBetweenTheSameRows() throws Exception {
        assertBatchesEmitWhatFlinkEmitsOnRows(MiniBatchMode.ProcTime,
                () -> new ProcTimeMiniBatchAssignerOperator(INTERVAL));
    }

    private static void assertBatchesEmitWhatFlinkEmitsOnRows(MiniBatchMode mode,
            Supplier<OneInputStreamOperator<RowData, RowData>> flinkOnRows) throws Exception {
        int watermarks = 0;
        for (long seed = 1; seed <= 5; seed++) {
            List<String> expected = run(new Script(seed), flinkOnRows.get(), false);
            List<String> actual = run(new Script(seed),
                    ColumnarMiniBatchAssignerExecNode.operator(new MiniBatchInterval(INTERVAL, mode)), true);
            assertThat(actual).as("%s, seed %d", mode, seed).isEqualTo(expected);
            watermarks += (int) expected.stream().filter(e -> e.startsWith("W")).count();
        }
        assertThat(watermarks).as("watermarks compared").isGreaterThan(200);
    }

    /**
     * Runs the script through {@code operator}, fed batches or their rows one at a time, and returns what it
     * emitted: {@code r<id>} per row (a batch's rows in order), {@code W<timestamp>} per watermark.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<String> run(Script script, OneInputStreamOperator<?, ?> operator, boolean batches)
            throws Exception {
        Map<ArrowBatch, long[]> rowsOf = new IdentityHashMap<>();
        BufferAllocator allocator = ArrowMemory.newChild("mini-batch-assigner-test", 16L << 20);
        List<String> emitted = new ArrayList<>();
        try (OneInputStreamOperatorTestHarness harness = new OneInputStreamOperatorTestHarness(operator)) {
            harness.setProcessingTime(0);
            harness.open();
            long nextId = 0;
            for (int step = 0; step < 400; step++) {
                int kind = script.random.nextInt(10);
                if (kind < 5) {
                    int rows = 1 + script.random.nextInt(6);
                    if (batches) {
                        // freed once handed over, as a scan frees a lent batch: the assigner keeps nothing
                        try (ArrowBatch batch = ArrowBatch.of(TestRows.batch(nextId, rows, allocator), null)) {
                            rowsOf.put(batch, ids(nextId, rows));
                            harness.processElement(new StreamRecord<>(batch));
                        }
                    } else {
                        for (int i = 0; i < rows; i++) {
                            harness.processElement(new StreamRecord<RowData>(GenericRowData.of(nextId + i)));
                        }
                    }
                    nextId += rows;
                } else if (kind < 8) {
                    // mostly rising, sometimes behind the last one (the assigner keeps the largest)
                    script.eventTime += script.random.nextInt(900) - 100;
                    harness.processWatermark(new Watermark(script.eventTime));
                } else {
                    script.clock += script.random.nextInt(1500);
                    harness.setProcessingTime(script.clock);
                }
            }
            harness.processWatermark(new Watermark(Long.MAX_VALUE));
            harness.getOneInputOperator().finish();
            for (Object element : harness.getOutput()) {
                if (element instanceof Watermark w) {
                    emitted.add("W" + w.getTimestamp());
                } else if (batches) {
                    Object value = ((StreamRecord<?>) element).getValue();
                    long[] ids = rowsOf.get(value);
                    assertThat(ids).as("an emitted batch is one that came in, unchanged").isNotNull();
                    for (long id : ids) {
                        emitted.add("r" + id);
                    }
                } else {
                    emitted.add("r" + ((RowData) ((StreamRecord<?>) element).getValue()).getLong(0));
                }
            }
        } finally {
            allocator.close();
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        return emitted;
    }

    private static long[] ids(long first, int rows) {
        long[] ids = new long[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = first + i;
        }
        return ids;
    }

    /** One seeded script: the same random draws for the row run and the batch run. */
    private static final class Script {
        final Random random;
        long eventTime;
        long clock;

        Script(long seed) {
            random = new Random(seed);
        }
    }
}
