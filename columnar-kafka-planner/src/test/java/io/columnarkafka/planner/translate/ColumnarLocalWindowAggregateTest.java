package io.columnarkafka.planner.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.table.ArrowLocalWindowAggOperator;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.InstallStatus;
import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.operators.aggregate.window.LocalSlicingWindowAggOperator;
import org.apache.flink.table.runtime.operators.aggregate.window.buffers.WindowBuffer;
import org.apache.flink.table.runtime.operators.window.tvf.slicing.SliceAssigner;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The columnar local window aggregate on batches against Flink's {@link LocalSlicingWindowAggOperator} on the
 * batches' rows one at a time, the oracle. Both operators come from the plan Flink's planner makes for the query
 * with the stage installed (Flink's with the same generated parts, as Flink's exec node builds it); a seeded random
 * script of batches (null keys, late rows), watermarks (some behind the last) and checkpoint barriers drives both,
 * and the emitted rows and watermarks must be the same sequence.
 */
class ColumnarLocalWindowAggregateTest {
    /** The columnar calc's output the aggregate reads: {@code k BIGINT, v DOUBLE, dateTime TIMESTAMP(3)}. */
    private static final RowType INPUT = RowType.of(new LogicalType[] {new BigIntType(), new DoubleType(),
            new TimestampType(3)}, new String[] {"k", "v", "dateTime"});

    @Test
    void tumbleOnBatchesEmitsWhatFlinksOperatorEmitsOnTheRows() throws Exception {
        assertSameOutput("TUMBLE(TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND)");
    }

    @Test
    void hopOnBatchesEmitsWhatFlinksOperatorEmitsOnTheRows() throws Exception {
        assertSameOutput("HOP(TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND)");
    }

    private static void assertSameOutput(String window) throws Exception {
        Planned planned = plan(window);
        int rows = 0;
        int cases = 0;
        for (long seed = 1; seed <= 8; seed++) {
            List<String> expected = run(seed, planned.flinks(), planned.outputType(), false);
            List<String> actual = run(seed, planned.columnar(), planned.outputType(), true);
            assertThat(actual).as("%s, seed %d", window, seed).isEqualTo(expected);
            rows += (int) expected.stream().filter(e -> e.startsWith("+I")).count();
            cases++;
        }
        assertThat(cases).isEqualTo(8);
        // 8 scripts of ~150 batches of 1-40 rows into 2 s slices over ~60 s of event time: ~1,000 outputs each
        assertThat(rows).as("aggregated rows compared").isGreaterThan(2000);
    }

    private record Planned(ArrowLocalWindowAggOperator columnar, LocalSlicingWindowAggOperator flinks,
            RowType outputType) {}

    /** Plans the window aggregate with the stage installed and takes its columnar local operator. */
    private static Planned plan(String window) throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        assertThat(ColumnarSql.install(tEnv).status()).isEqualTo(InstallStatus.INSTALLED);
        tEnv.executeSql("CREATE TABLE events (k BIGINT, v DOUBLE, `dateTime` TIMESTAMP(3), extra STRING,"
                + " WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH ('connector' = 'kafka-columnar',"
                + " 'topic' = 'events', 'properties.bootstrap.servers' = 'localhost:1', 'properties.group.id' = 'g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')");
        tEnv.executeSql("CREATE VIEW keyed AS SELECT k, v, `dateTime` FROM events WHERE extra IS NOT NULL");
        tEnv.executeSql("CREATE TABLE results (k BIGINT, n BIGINT, nk BIGINT, s DOUBLE, lo DOUBLE, hi DOUBLE)"
                + " WITH ('connector' = 'kafka-columnar', 'topic' = 'results', 'properties.bootstrap.servers' = 'localhost:1',"
                + " 'format' = 'json')");
        String insert = "INSERT INTO results SELECT k, COUNT(*), COUNT(k), SUM(v), MIN(v), MAX(v) FROM TABLE(" + window
                + ") GROUP BY k, window_start, window_end";
        assertThat(ColumnarSql.explain(tEnv, insert)).contains("ColumnarLocalWindowAggregate(");
        TableEnvironmentImpl impl = (TableEnvironmentImpl) tEnv;
        ModifyOperation modify = (ModifyOperation) impl.getParser().parse(insert).get(0);
        List<Transformation<?>> sinks = ((PlannerBase) impl.getPlanner()).translate(List.of(modify));
        OneInputTransformation<?, ?> local = localAggregate(sinks);
        ArrowLocalWindowAggOperator columnar = (ArrowLocalWindowAggOperator) operator(local.getOperatorFactory());
        LocalSlicingWindowAggOperator flinks = new LocalSlicingWindowAggOperator(
                part(columnar, "keySelector", RowDataKeySelector.class), part(columnar, "sliceAssigner", SliceAssigner.class),
                part(columnar, "windowBufferFactory", WindowBuffer.LocalFactory.class),
                part(columnar, "shiftTimezone", java.time.ZoneId.class));
        RowType outputType = (RowType) ((InternalTypeInfo<?>) local.getOutputType()).toLogicalType();
        return new Planned(columnar, flinks, outputType);
    }

    private static OneInputTransformation<?, ?> localAggregate(List<Transformation<?>> roots) {
        Deque<Transformation<?>> todo = new ArrayDeque<>(roots);
        Set<Transformation<?>> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Transformation<?> t = todo.pop();
            if (!seen.add(t)) {
                continue;
            }
            if (t instanceof OneInputTransformation<?, ?> one
                    && operator(one.getOperatorFactory()) instanceof ArrowLocalWindowAggOperator) {
                return one;
            }
            todo.addAll(t.getInputs());
        }
        throw new AssertionError("no ArrowLocalWindowAggOperator in the translated plan");
    }

    private static Object operator(StreamOperatorFactory<?> factory) {
        return factory instanceof SimpleOperatorFactory<?> simple ? simple.getOperator() : null;
    }

    private static <T> T part(LocalSlicingWindowAggOperator operator, String name, Class<T> type) throws Exception {
        Field field = LocalSlicingWindowAggOperator.class.getDeclaredField(name);
        field.setAccessible(true);
        return type.cast(field.get(operator));
    }

    /**
     * Runs one seeded script through {@code operator}, fed batches or their rows one at a time, and returns what it
     * emitted: each row as its fields ({@code +I[...]}) and each watermark ({@code W<timestamp>}), in order.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<String> run(long seed, LocalSlicingWindowAggOperator operator, RowType outputType,
            boolean batches) throws Exception {
        Random random = new Random(seed);
        BufferAllocator allocator = ArrowMemory.newChild("local-window-agg-test", 16L << 20);
        RowDataSerializer outputSerializer = new RowDataSerializer(outputType);
        LocalAggOutput output = new LocalAggOutput(outputType);
        List<String> emitted = new ArrayList<>();
        try (MockEnvironment environment = new MockEnvironmentBuilder().setManagedMemorySize(32L << 20).build();
                OneInputStreamOperatorTestHarness harness = new OneInputStreamOperatorTestHarness(operator, environment)) {
            harness.setup(outputSerializer);
            harness.getStreamConfig().setManagedMemoryFractionOperatorOfUseCase(ManagedMemoryUseCase.OPERATOR, 0.5);
            harness.open();
            long eventTime = 1_000_000;
            long watermark = Long.MIN_VALUE;
            for (int step = 0; step < 200; step++) {
                int kind = random.nextInt(10);
                if (kind < 7) {
                    List<RowData> rows = new ArrayList<>();
                    for (int i = 1 + random.nextInt(40); i > 0; i--) {
                        eventTime += random.nextInt(60);
                        // a tenth late: up to 8 s behind, before the watermark of 4 s behind
                        long ts = random.nextInt(10) == 0 ? eventTime - random.nextInt(8000) : eventTime;
                        Long key = random.nextInt(6) == 0 ? null : (long) random.nextInt(12);
                        Double value = random.nextInt(8) == 0 ? null : random.nextInt(1000) / 4.0;
                        rows.add(GenericRowData.of(key, value, TimestampData.fromEpochMillis(ts)));
                    }
                    feed(harness, rows, batches ? INPUT : null, allocator);
                } else if (kind < 9) {
                    // mostly rising, sometimes behind the last one (the operator keeps the largest)
                    watermark = eventTime - 4000 - (random.nextInt(4) == 0 ? 3000 : 0);
                    harness.processWatermark(new Watermark(watermark));
                } else {
                    harness.prepareSnapshotPreBarrier(step);
                }
                output.drain(harness, emitted);
            }
            harness.processWatermark(new Watermark(Long.MAX_VALUE));
            output.drain(harness, emitted);
        } finally {
            allocator.close();
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        return emitted;
    }

    /** Hands the operator {@code rows}: as one Arrow batch of {@code batchType}, or row by row when it is null. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void feed(OneInputStreamOperatorTestHarness harness, List<RowData> rows, RowType batchType,
            BufferAllocator allocator) throws Exception {
        feed(harness, rows, batchType, null, allocator);
    }

    /** As above, the batch with each row's kind in a column {@code rowKindColumn} after the fields, when not null. */
    static void feed(OneInputStreamOperatorTestHarness harness, List<RowData> rows, RowType batchType,
            String rowKindColumn, BufferAllocator allocator) throws Exception {
        if (batchType != null) {
            try (RowDataArrowWriter writer = new RowDataArrowWriter(batchType, rowKindColumn, allocator)) {
                rows.forEach(writer::write);
                harness.processElement(new StreamRecord<>(ArrowBatch.of(writer.finish(), null)));
            }
        } else {
            for (RowData row : rows) {
                harness.processElement(new StreamRecord<>(row));
            }
        }
    }
}
