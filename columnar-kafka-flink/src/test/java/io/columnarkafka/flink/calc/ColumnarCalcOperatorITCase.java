package io.columnarkafka.flink.calc;

import static io.columnarkafka.flink.calc.Exprs.BIGINT;
import static io.columnarkafka.flink.calc.Exprs.BOOLEAN;
import static io.columnarkafka.flink.calc.Exprs.STRING;
import static io.columnarkafka.flink.calc.Exprs.call;
import static io.columnarkafka.flink.calc.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.format.arrow.ArrowRowView;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ColumnarCalcOperator} in a MiniCluster job: a source of Arrow batches, the calc (filter and
 * projections), then a reader chained to it (it gets the selection), behind a rebalance (it gets the
 * compacted selected rows), or several readers of one calc; every row and value checked, no Arrow memory left
 * after the job.
 */
class ColumnarCalcOperatorITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(2);

    private static final int BATCHES = 8;
    private static final int ROWS_PER_BATCH = 500;
    private static final Exprs X = new Exprs(TestRows.ROW_TYPE);
    private static final CalcProgram PROGRAM = new CalcProgram(TestRows.ROW_TYPE,
            List.of(X.col("id"), call(Op.UPPER, STRING, X.col("name")),
                    call(Op.TIMES, new DoubleType(), X.col("price"), lit(2))),
            List.of("id", "loud", "twice"),
            call(Op.EQUALS, BOOLEAN, call(Op.MOD, BIGINT, X.col("id"), lit(3L)), lit(0L)));

    @AfterEach
    void noArrowMemoryLeft() {
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void chainedReaderSeesTheSelection() throws Exception {
        assertThat(run(false)).containsExactlyInAnyOrderElementsOf(expected());
    }

    @Test
    void readerBehindAShuffleGetsTheSelectedRows() throws Exception {
        assertThat(run(true)).containsExactlyInAnyOrderElementsOf(expected());
    }

    /**
     * One calc feeding two chained readers and a reader behind a shuffle (a calc the planner shares between a
     * query's branches): each sees every selected row, whatever the readers before it did with the batch.
     */
    @Test
    void everyReaderOfASharedCalcSeesEverySelectedRow() throws Exception {
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        DataStream<ArrowBatch> calc = SinkJobs.batches(SinkJobs.batchIndexes(env, BATCHES, 0, 1, "indexes"),
                        ROWS_PER_BATCH, "rows")
                .transform("ColumnarCalc", ArrowBatchTypeInfo.INSTANCE, new ColumnarCalcOperator(PROGRAM))
                .setParallelism(1);
        DataStream<String> first = calc.flatMap(new SelectedRows(PROGRAM.outputType())).setParallelism(1)
                .map(row -> "first " + row).setParallelism(1);
        DataStream<String> second = calc.flatMap(new SelectedRows(PROGRAM.outputType())).setParallelism(1)
                .map(row -> "second " + row).setParallelism(1);
        DataStream<String> shuffled = calc.rebalance().flatMap(new SelectedRows(PROGRAM.outputType()))
                .setParallelism(2).map(row -> "shuffled " + row).setParallelism(2);
        List<String> out = new ArrayList<>();
        first.union(second, shuffled).executeAndCollect().forEachRemaining(out::add);
        List<String> expected = new ArrayList<>();
        for (String reader : List.of("first ", "second ", "shuffled ")) {
            expected().forEach(row -> expected.add(reader + row));
        }
        assertThat(out).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static List<String> run(boolean shuffle) throws Exception {
        assertThat(CalcSupport.unsupported(PROGRAM)).isEmpty();
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        DataStream<ArrowBatch> batches =
                SinkJobs.batches(SinkJobs.batchIndexes(env, BATCHES, 0, 1, "indexes"), ROWS_PER_BATCH, "rows");
        DataStream<ArrowBatch> calc = batches
                .transform("ColumnarCalc", ArrowBatchTypeInfo.INSTANCE, new ColumnarCalcOperator(PROGRAM))
                .setParallelism(1);
        DataStream<String> rows = (shuffle ? calc.rebalance() : calc)
                .flatMap(new SelectedRows(PROGRAM.outputType()))
                .setParallelism(shuffle ? 2 : 1);
        List<String> out = new ArrayList<>();
        rows.executeAndCollect().forEachRemaining(out::add);
        return out;
    }

    private static List<String> expected() {
        List<String> rows = new ArrayList<>();
        for (long id = 0; id < (long) BATCHES * ROWS_PER_BATCH; id += 3) {
            RowData row = TestRows.rowData(id);
            String loud = row.isNullAt(1) ? "null" : row.getString(1).toString().toUpperCase();
            rows.add(id + "|" + loud + "|" + (row.getDouble(2) * 2));
        }
        return rows;
    }

    /** The batch's selected rows as text, honouring the selection; frees each batch. */
    private static final class SelectedRows extends RichFlatMapFunction<ArrowBatch, String> {
        private static final long serialVersionUID = 1L;
        private final RowType type;
        private transient BufferAllocator allocator;

        SelectedRows(RowType type) {
            this.type = type;
        }

        @Override
        public void open(OpenContext context) {
            allocator = ArrowMemory.newChild("selected-rows", 64L << 20);
        }

        @Override
        public void flatMap(ArrowBatch batch, Collector<String> out) {
            try (batch) {
                VectorSchemaRoot root = batch.open(allocator);
                ArrowRowView view = new ArrowRowView(type);
                view.bind(root);
                int[] selection = batch.selection();
                for (int k = 0; k < batch.selectedCount(allocator); k++) {
                    RowData row = view.row(selection == null ? k : selection[k]);
                    out.collect(row.getLong(0) + "|" + (row.isNullAt(1) ? "null" : row.getString(1).toString())
                            + "|" + row.getDouble(2));
                }
            }
        }

        @Override
        public void close() {
            allocator.close();
        }
    }
}
