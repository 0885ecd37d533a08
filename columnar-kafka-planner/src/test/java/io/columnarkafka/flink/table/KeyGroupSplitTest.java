package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.runtime.partitioner.KeyGroupStreamPartitioner;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The keyed exchange's split ({@link KeyGroupSplit}) against Flink's own {@code KeyGroupStreamPartitioner} over Flink's
 * key selector of the rows (as {@code CommonExecSink.applyKeyBy} builds them, configured with the sink's max
 * parallelism as Flink's task configures it): seeded batches of random rows of every kind, with and without a
 * selection, keyed by a string and a decimal, or by a BIGINT and a timestamp. Each subtask's part must hold, in order,
 * the rows Flink's partitioner sends to that subtask; the Arrow allocators close at zero.
 */
class KeyGroupSplitTest {
    private static final RowType ROWS = RowType.of(new LogicalType[] {new BigIntType(), new VarCharType(20),
            new DecimalType(12, 3), new TimestampType(3), new IntType()}, new String[] {"id", "name", "amount", "ts",
                    "n"});
    private static final String[] NAMES = {"", "a", "b", "ab", "é", "日本", "\uD834\uDD1E", "a much longer name here"};

    @ParameterizedTest
    @CsvSource({"'1,2', 3, 128", "'1,2', 2, 200", "'0,3', 5, 128", "'0,3', 1, 128"})
    void eachSubtaskGetsTheRowsFlinksPartitionerSendsIt(String key, int sinkParallelism, int maxParallelism)
            throws Exception {
        int[] keyFields = Arrays.stream(key.split(",")).mapToInt(Integer::parseInt).toArray();
        RowDataKeySelector keys = KeySelectorUtil.getRowDataSelector(getClass().getClassLoader(), keyFields,
                InternalTypeInfo.of(ROWS));
        KeyGroupStreamPartitioner<RowData, RowData> flinks = new KeyGroupStreamPartitioner<>(keys, 128);
        flinks.configure(maxParallelism);
        flinks.setup(sinkParallelism);
        Random random = new Random(sinkParallelism * 31L + maxParallelism);
        try (BufferAllocator allocator = ArrowMemory.newChild("key-group-split-test", Long.MAX_VALUE);
                OneInputStreamOperatorTestHarness<ArrowBatch, Tuple2<Integer, ArrowBatch>> split =
                        new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(new KeyGroupSplit(keys.copy(),
                                ROWS, true, sinkParallelism, maxParallelism)))) {
            split.open();
            for (int b = 0; b < 12; b++) {
                List<RowData> rows = randomRows(random, 1 + random.nextInt(300));
                int[] selection = b % 3 == 0 ? null
                        : IntStream.range(0, rows.size()).filter(i -> random.nextInt(4) != 0).toArray();
                List<List<String>> expected = new ArrayList<>();
                IntStream.range(0, sinkParallelism).forEach(s -> expected.add(new ArrayList<>()));
                for (int i : selection == null ? IntStream.range(0, rows.size()).toArray() : selection) {
                    SerializationDelegate<StreamRecord<RowData>> record = new SerializationDelegate<>(null);
                    record.setInstance(new StreamRecord<>(rows.get(i)));
                    expected.get(flinks.selectChannel(record)).add(describe(rows.get(i)));
                }
                RowDataArrowWriter writer = new RowDataArrowWriter(ROWS, "$kind", allocator);
                rows.forEach(writer::write);
                VectorSchemaRoot root = writer.finish();
                split.processElement(new StreamRecord<>(selection == null ? ArrowBatch.of(root, writer)
                        : ArrowBatch.of(root, writer, selection, selection.length)));
                assertThat(parts(split.extractOutputValues(), sinkParallelism, allocator)).isEqualTo(expected);
                split.getOutput().clear();
            }
        }
        ArrowMemoryChecks.assertReleased();
    }

    /** The rows of each subtask's parts (their selected rows), in order, each part's batch then closed. */
    private static List<List<String>> parts(List<Tuple2<Integer, ArrowBatch>> parts, int sinkParallelism,
            BufferAllocator allocator) {
        List<List<String>> rows = new ArrayList<>();
        IntStream.range(0, sinkParallelism).forEach(s -> rows.add(new ArrayList<>()));
        ArrowRowView view = new ArrowRowView(RowDataArrowWriter.withRowKindColumn(ROWS, "$kind"));
        for (Tuple2<Integer, ArrowBatch> part : parts) {
            try (ArrowBatch batch = part.f1) {
                view.bind(batch.open(allocator));
                int[] selection = batch.selection(); // a batch handed on whole keeps its selection
                for (int i = 0; i < batch.selectedCount(allocator); i++) {
                    RowData row = view.row(selection == null ? i : selection[i]);
                    rows.get(part.f0).add(describe(row, RowKind.fromByteValue(row.getByte(ROWS.getFieldCount()))));
                }
            }
        }
        return rows;
    }

    private static List<RowData> randomRows(Random random, int count) {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            GenericRowData row = new GenericRowData(RowKind.values()[random.nextInt(4)], ROWS.getFieldCount());
            row.setField(0, random.nextInt(7) == 0 ? null : random.nextLong() % 1000);
            row.setField(1, random.nextInt(7) == 0 ? null : StringData.fromString(NAMES[random.nextInt(NAMES.length)]));
            row.setField(2, random.nextInt(7) == 0 ? null
                    : DecimalData.fromBigDecimal(BigDecimal.valueOf(random.nextInt(20_000) - 10_000, 3), 12, 3));
            row.setField(3, random.nextInt(7) == 0 ? null
                    : TimestampData.fromEpochMillis(random.nextLong() % 4_000_000_000_000L));
            row.setField(4, random.nextInt());
            rows.add(row);
        }
        return rows;
    }

    private static String describe(RowData row) {
        return describe(row, row.getRowKind());
    }

    private static String describe(RowData row, RowKind kind) {
        return kind.shortString() + " " + (row.isNullAt(0) ? null : row.getLong(0)) + " "
                + (row.isNullAt(1) ? null : row.getString(1)) + " "
                + (row.isNullAt(2) ? null : row.getDecimal(2, 12, 3))
                + " " + (row.isNullAt(3) ? null : row.getTimestamp(3, 3)) + " " + row.getInt(4);
    }
}
