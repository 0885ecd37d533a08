package io.columnarkafka.flink.calc;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.format.arrow.ArrowRowView;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.RowRowConverter;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs the same rows through Flink SQL (the oracle: a DataStream source, so the planner cannot fold the
 * expressions into constants, and Flink's generated code evaluates them) and through {@link ColumnarCalc}
 * on Arrow vectors built from the same values, and hands back both results as external {@link Row}s.
 */
final class CalcOracle implements AutoCloseable {
    /** What Flink produced: the result column types and rows. */
    record FlinkResult(List<LogicalType> types, List<Row> rows) {}

    private final MiniCluster cluster;

    CalcOracle() throws Exception {
        Configuration configuration = new Configuration();
        // any free port: other test JVMs on the machine may hold Flink's default 8081
        configuration.set(RestOptions.BIND_PORT, "0");
        cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(configuration)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(1)
                .build());
        cluster.start();
    }

    /** {@code sql} over a view {@code t} of {@code rows}, in Flink, parallelism 1 (rows keep their order). */
    FlinkResult flink(RowType input, List<RowData> rows, String sql) throws Exception {
        return flink(input, rows, sql, Map.of());
    }

    /** {@code sql} as {@link #flink(RowType, List, String)}, with {@code functions} registered by name. */
    FlinkResult flink(RowType input, List<RowData> rows, String sql,
            Map<String, Class<? extends UserDefinedFunction>> functions) throws Exception {
        StreamExecutionEnvironment env = new TestStreamEnvironment(cluster, 1);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        functions.forEach(tableEnv::createTemporarySystemFunction);
        // a session time zone far from UTC: TIMESTAMP (without zone) results must not depend on it
        tableEnv.getConfig().setLocalTimeZone(java.time.ZoneId.of("Asia/Kathmandu"));
        DataType dataType = TypeConversions.fromLogicalToDataType(input);
        RowRowConverter converter = RowRowConverter.create(dataType);
        converter.open(CalcOracle.class.getClassLoader());
        List<Row> external = new ArrayList<>(rows.size());
        for (RowData row : rows) {
            external.add(converter.toExternal(row));
        }
        DataStream<Row> stream = env.fromData(external, ExternalTypeInfo.of(dataType));
        tableEnv.createTemporaryView("t", tableEnv.fromDataStream(stream));
        TableResult result = tableEnv.executeSql(sql);
        List<LogicalType> types = new ArrayList<>();
        result.getResolvedSchema().getColumnDataTypes().forEach(t -> types.add(t.getLogicalType()));
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(out::add);
        }
        return new FlinkResult(types, out);
    }

    /**
     * {@code program} over {@code rows} in one Arrow batch, through {@link ColumnarCalc}: the selected
     * rows of the output, as external rows. Asserts nothing is left allocated.
     */
    static List<Row> columnar(CalcProgram program, List<RowData> rows) {
        return columnar(program, rows, Math.max(1, rows.size()));
    }

    /**
     * {@code program} over {@code rows} in batches of {@code batchRows} rows, through one {@link ColumnarCalc}
     * (as a task runs it): the selected rows of every output batch, in order, as external rows.
     */
    static List<Row> columnar(CalcProgram program, List<RowData> rows, int batchRows) {
        return columnar(program, rows, batchRows, null);
    }

    /**
     * {@code program} as {@link #columnar(CalcProgram, List, int)}, its calls of Flink's generated code opened on
     * {@code context} (null when it has none) and closed after the last batch.
     */
    static List<Row> columnar(CalcProgram program, List<RowData> rows, int batchRows, RuntimeContext context) {
        return columnar(program, rows, new int[] {batchRows}, context);
    }

    /**
     * {@code program} as {@link #columnar(CalcProgram, List, int, RuntimeContext)}, in batches of {@code
     * batchRows[0]} rows, then {@code batchRows[1]}, and so on, the last size repeating: batches that grow make the
     * calc's columns grow mid-run.
     */
    static List<Row> columnar(CalcProgram program, List<RowData> rows, int[] batchRows, RuntimeContext context) {
        List<Row> out = new ArrayList<>();
        RowType outputType = program.outputType();
        RowRowConverter converter = RowRowConverter.create(TypeConversions.fromLogicalToDataType(outputType));
        converter.open(CalcOracle.class.getClassLoader());
        try (BufferAllocator allocator = ArrowMemory.newChild("calc-parity", 1L << 30);
                ColumnarCalc calc = ColumnarCalc.plan(program, allocator, context)) {
            int batch = 0;
            for (int from = 0; from < Math.max(1, rows.size()); batch++) {
                int to = Math.min(rows.size(), from + batchRows[Math.min(batch, batchRows.length - 1)]);
                RowDataArrowWriter writer = new RowDataArrowWriter(program.input(), allocator);
                for (RowData row : rows.subList(from, to)) {
                    writer.write(row);
                }
                ArrowBatch input = ArrowBatch.of(writer.finish(), null);
                try (ArrowBatch result = calc.apply(input)) {
                    VectorSchemaRoot root = result.open(allocator);
                    ArrowRowView view = new ArrowRowView(outputType);
                    view.bind(root);
                    int[] selection = result.selection();
                    int count = result.selectedCount(allocator);
                    for (int k = 0; k < count; k++) {
                        out.add(converter.toExternal(view.row(selection == null ? k : selection[k])));
                    }
                } finally {
                    input.close();
                }
                from = Math.max(to, from + 1); // no rows: one empty batch
            }
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
