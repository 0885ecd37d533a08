package io.columnarkafka.flink.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.InstallStatus;
import io.columnarkafka.planner.match.NodeDecision;
import io.columnarkafka.planner.match.NodeKind;
import io.columnarkafka.testkit.nexmark.CountChar;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.TaskInfoImpl;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.functions.util.RuntimeUDFContext;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The columnar calc running Flink's generated code for a user-defined function call ({@code Expr.FlinkCode}) against
 * Flink's own Calc, the oracle: each statement is planned by the stage over a {@code kafka-columnar} table (planning
 * only; the Calc must be admitted whole, with the call in the calc) and its program run on Arrow batches of random
 * rows (a fifth null, empty, non-ASCII and non-BMP strings, edge numbers), and the same statement runs in stock Flink
 * over the same rows; the rows out must be equal, in order.
 */
class FlinkCodeCalcParityTest {
    private static final RowType INPUT = RowTypes.parse("ROW<id INT NOT NULL, i INT, b BIGINT, d DOUBLE,"
            + " m DECIMAL(10, 2), s STRING, s2 STRING, ts TIMESTAMP(3), bo BOOLEAN>");
    private static final int ROWS = 400;
    /** Batch sizes of the columnar side: one batch, and batches that split the rows unevenly. */
    private static final int[] BATCH_ROWS = {ROWS, 37};

    private static final Map<String, Class<? extends UserDefinedFunction>> FUNCTIONS = Map.ofEntries(
            Map.entry("count_char", CountChar.class), Map.entry("reverse_text", FlinkCodeUdfs.ReverseText.class),
            Map.entry("describe_args", FlinkCodeUdfs.DescribeArgs.class),
            Map.entry("plus_one", FlinkCodeUdfs.PlusOne.class), Map.entry("half", FlinkCodeUdfs.Half.class),
            Map.entry("is_long", FlinkCodeUdfs.IsLong.class), Map.entry("tripled", FlinkCodeUdfs.Tripled.class),
            Map.entry("next_second", FlinkCodeUdfs.NextSecond.class),
            Map.entry("call_number", FlinkCodeUdfs.CallNumber.class),
            Map.entry("fail_on_boom", FlinkCodeUdfs.FailOnBoom.class),
            Map.entry("counting", FlinkCodeUdfs.Counting.class),
            Map.entry("counted_length", FlinkCodeUdfs.CountedLength.class),
            Map.entry("counted_sign", FlinkCodeUdfs.CountedSign.class),
            Map.entry("counted_half", FlinkCodeUdfs.CountedHalf.class));

    /** One call of a user-defined function each, of every type the calc hands over. */
    private static final List<String> QUERIES = List.of(
            "SELECT id, reverse_text(s) AS v FROM t WHERE i IS NOT NULL",
            "SELECT id, count_char(s, '\u00e9') AS v, s2 FROM t WHERE b > 0",
            "SELECT id, CAST(count_char(s2, 'a') AS INT) + i AS v FROM t WHERE bo",
            "SELECT id, describe_args(i, b, d, m, bo, ts, s) AS v FROM t WHERE id <> 3",
            "SELECT id, plus_one(i) AS v FROM t WHERE s IS NOT NULL",
            "SELECT id, half(d) AS v FROM t WHERE i > 0",
            "SELECT id, is_long(s2) AS v FROM t WHERE i < 100",
            "SELECT id, tripled(m) AS v FROM t WHERE bo IS NOT NULL",
            "SELECT id, next_second(ts) AS v FROM t WHERE b IS NOT NULL",
            // not deterministic: the n-th call returns n, so equal values mean the same calls in the same order,
            // only for the rows that passed and took the branch
            "SELECT id, CASE WHEN i > 0 THEN call_number(b) ELSE -1 END AS v FROM t WHERE s IS NOT NULL",
            "SELECT id, call_number(b) AS v, s FROM t");

    /**
     * Several calls of deterministic functions in one Calc: in the condition (under AND and OR, so only where the
     * operand is reached), in several projections, nested in built-in calls and in each other, over computed
     * arguments, as a CASE's condition and branch.
     */
    private static final List<String> SEVERAL_CALLS = List.of(
            "SELECT id, reverse_text(s) AS v, plus_one(i) AS w, half(d) AS x FROM t WHERE b IS NOT NULL",
            "SELECT id, s AS v, tripled(m) AS w FROM t WHERE is_long(s) OR i > 0",
            "SELECT id, UPPER(reverse_text(LOWER(s))) AS v, plus_one(i) + 1 AS w FROM t"
                    + " WHERE i IS NOT NULL AND is_long(s2) IS NOT NULL",
            "SELECT id, CASE WHEN is_long(s) THEN reverse_text(s2) ELSE s END AS v,"
                    + " CAST(count_char(s, 'a') AS INT) + plus_one(i) AS w FROM t",
            "SELECT id, next_second(ts) AS v, ts AS w FROM t WHERE half(d) > 0 OR i IS NULL",
            "SELECT id, describe_args(plus_one(i), b, half(d), m, bo, next_second(ts), reverse_text(s)) AS v FROM t"
                    + " WHERE id <> 3");

    /**
     * One deterministic function called two or three times in one Calc: in two projections, in the condition and a
     * projection (the same expression, one local reference of the program, which Flink's code evaluates in each),
     * nested in itself, in CASE branches; Flink's code has one instance for all of a function's calls, and so has the
     * calc.
     */
    private static final List<String> SAME_FUNCTION_TWICE = List.of(
            "SELECT id, reverse_text(s) AS v, reverse_text(s2) AS w FROM t WHERE i IS NOT NULL",
            "SELECT id, half(d) AS v, s AS w FROM t WHERE half(d) > 0 OR i IS NULL",
            "SELECT id, plus_one(plus_one(i)) AS v FROM t WHERE b IS NOT NULL",
            "SELECT id, CASE WHEN is_long(s) THEN reverse_text(s) ELSE reverse_text(s2) END AS v,"
                    + " CAST(count_char(s, 'a') AS INT) + CAST(count_char(s2, 'b') AS INT) + plus_one(i) AS w FROM t"
                    + " WHERE is_long(s2) IS NOT NULL");

    /**
     * Statements whose functions count their calls: the condition's calls under AND and OR, a CASE branch's, nested
     * ones; each function must be called as often in the columnar calc as in Flink's Calc.
     */
    private static final List<String> COUNTED = List.of(
            "SELECT id, CASE WHEN i > 0 THEN counted_length(s) ELSE 0 END AS v FROM t"
                    + " WHERE (i > 0 AND counted_sign(b) >= 0) OR counted_half(d) > 1",
            "SELECT id, counted_length(s2) + counted_sign(b) AS v, counted_half(d) AS w FROM t");

    private static CalcOracle oracle;

    @BeforeAll
    static void startFlink() throws Exception {
        oracle = new CalcOracle();
    }

    @AfterAll
    static void stopFlink() throws Exception {
        if (oracle != null) {
            oracle.close();
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void eachCallGivesFlinksValuesForTheSameRowsInTheSameOrder() throws Exception {
        long seed = new Random().nextLong();
        int compared = compareWithFlink(QUERIES, seed);
        // each query passes from about a third to all of the 400 rows, compared twice
        assertThat(compared).as("rows compared, seed " + seed).isGreaterThan(QUERIES.size() * 2 * 100);
    }

    @Test
    void severalDeterministicCallsInTheConditionAndNestedGiveFlinksValues() throws Exception {
        long seed = new Random().nextLong();
        int compared = compareWithFlink(SEVERAL_CALLS, seed);
        assertThat(compared).as("rows compared, seed " + seed).isGreaterThan(SEVERAL_CALLS.size() * 2 * 100);
    }

    /**
     * Each statement of {@link #SAME_FUNCTION_TWICE} runs whole in the columnar calc, every call of the function in
     * it (admitted, not only equal rows), and gives Flink's values.
     */
    @Test
    void oneDeterministicFunctionCalledTwiceInOneCalcGivesFlinksValues() throws Exception {
        int[] callsPerQuery = {2, 2, 2, 7};
        for (int q = 0; q < SAME_FUNCTION_TWICE.size(); q++) {
            String calls = String.join(", ", planned(SAME_FUNCTION_TWICE.get(q)).flinkCodeParts());
            assertThat(calls.split("UDF ", -1).length - 1).as("calls in the calc: " + calls)
                    .isEqualTo(callsPerQuery[q]);
        }
        long seed = new Random().nextLong();
        int compared = compareWithFlink(SAME_FUNCTION_TWICE, seed);
        assertThat(compared).as("rows compared, seed " + seed).isGreaterThan(SAME_FUNCTION_TWICE.size() * 2 * 100);
    }

    /**
     * A function called three times in one Calc (the condition, two projections) is opened once and closed once, in
     * Flink's Calc and in the columnar calc (one instance for the three calls; each call on the opened instance),
     * and called as many times; the rows are equal.
     */
    @Test
    void oneFunctionCalledThreeTimesIsOpenedOnceAndCalledAsOftenAsInFlinksCalc() throws Exception {
        String query = "SELECT id, counting(b) AS v, counting(CAST(i AS BIGINT)) + 1 AS w FROM t"
                + " WHERE counting(b) > 0 OR i > 0";
        long seed = new Random().nextLong();
        List<RowData> rows = new CalcValues(seed).rows(INPUT, ROWS);
        FlinkCodeUdfs.Counting.reset();
        CalcOracle.FlinkResult flink = oracle.flink(INPUT, rows, query, FUNCTIONS);
        int flinkCalls = FlinkCodeUdfs.Counting.CALLS.get();
        assertThat(FlinkCodeUdfs.Counting.OPENS.get()).as("Flink's Calc opens the function once").isEqualTo(1);
        assertThat(FlinkCodeUdfs.Counting.CLOSES.get()).as("Flink's Calc closes it once").isEqualTo(1);
        assertThat(flinkCalls).as("the condition's call for each row, the projections' for the passed ones, seed "
                + seed).isEqualTo(ROWS + 2 * flink.rows().size());
        assertThat(flink.rows().size()).as("rows that passed, seed " + seed).isGreaterThan(100);
        CalcProgram program = planned(query);
        assertThat(program.flinkCodeParts()).containsExactly("where (UDF counting)", "v (UDF counting)",
                "w (UDF counting)");
        List<RowData> input = projected(rows, program.input());
        for (int batchRows : BATCH_ROWS) {
            FlinkCodeUdfs.Counting.reset();
            List<Row> ours = CalcOracle.columnar(deployed(program), input, batchRows, taskContext());
            assertThat(ours).as(query + ", batches of " + batchRows + " rows, seed " + seed).isEqualTo(flink.rows());
            assertThat(FlinkCodeUdfs.Counting.OPENS.get()).as("opened once, batches of " + batchRows).isEqualTo(1);
            assertThat(FlinkCodeUdfs.Counting.CLOSES.get()).as("closed once, batches of " + batchRows).isEqualTo(1);
            assertThat(FlinkCodeUdfs.Counting.CALLS.get()).as("calls, batches of " + batchRows + ", seed " + seed)
                    .isEqualTo(flinkCalls);
        }
    }

    /**
     * Each statement of {@link #COUNTED} runs through Flink's Calc and through the columnar calc (one batch, and
     * batches of 37 rows) on the same rows: equal rows, and each function called as many times on either side;
     * the condition's AND, OR and the CASE keep some calls from being made (fewer calls than rows).
     */
    @Test
    void eachFunctionIsCalledAsOftenAsInFlinksCalc() throws Exception {
        long seed = new Random().nextLong();
        List<RowData> rows = new CalcValues(seed).rows(INPUT, ROWS);
        int comparedCalls = 0;
        List<Map<String, Integer>> flinkCallsPerQuery = new ArrayList<>();
        for (String query : COUNTED) {
            FlinkCodeUdfs.CallCounted.takeCalls();
            CalcOracle.FlinkResult flink = oracle.flink(INPUT, rows, query, FUNCTIONS);
            Map<String, Integer> flinkCalls = FlinkCodeUdfs.CallCounted.takeCalls();
            assertThat(flinkCalls).as("functions Flink's Calc called for " + query).hasSize(3);
            CalcProgram program = planned(query);
            List<RowData> input = projected(rows, program.input());
            for (int batchRows : BATCH_ROWS) {
                List<Row> ours = CalcOracle.columnar(deployed(program), input, batchRows, taskContext());
                assertThat(ours).as(query + ", batches of " + batchRows + " rows, seed " + seed)
                        .isEqualTo(flink.rows());
                assertThat(FlinkCodeUdfs.CallCounted.takeCalls())
                        .as("calls per function of " + query + ", batches of " + batchRows + ", seed " + seed)
                        .isEqualTo(flinkCalls);
            }
            comparedCalls += flinkCalls.values().stream().mapToInt(Integer::intValue).sum();
            flinkCallsPerQuery.add(flinkCalls);
        }
        Map<String, Integer> first = flinkCallsPerQuery.get(0);
        assertThat(first.get("CountedSign")).as("AND skips the call where i > 0 is FALSE, seed " + seed
                        + ", condition " + planned(COUNTED.get(0)).condition())
                .isLessThan(ROWS).isGreaterThan(ROWS / 4);
        assertThat(first.get("CountedLength")).as("only passed rows taking the branch, seed " + seed)
                .isLessThan(ROWS).isGreaterThan(20);
        assertThat(comparedCalls).as("calls compared, seed " + seed).isGreaterThan(ROWS * 3);
    }

    /**
     * Runs each of {@code queries} in Flink and in the columnar calc (one batch, batches of 37) over the same random
     * rows of {@code seed}, asserts equal rows in order and enough passed rows, and returns the rows compared.
     */
    private static int compareWithFlink(List<String> queries, long seed) throws Exception {
        List<RowData> rows = new CalcValues(seed).rows(INPUT, ROWS);
        int compared = 0;
        for (String query : queries) {
            CalcOracle.FlinkResult flink = oracle.flink(INPUT, rows, query, FUNCTIONS);
            CalcProgram program = planned(query);
            assertThat(program.outputType().getChildren()).as("result types of " + query).isEqualTo(flink.types());
            List<RowData> input = projected(rows, program.input());
            for (int batchRows : BATCH_ROWS) {
                List<Row> ours = CalcOracle.columnar(deployed(program), input, batchRows, taskContext());
                assertThat(ours).as(query + ", batches of " + batchRows + " rows, seed " + seed)
                        .isEqualTo(flink.rows());
                compared += ours.size();
            }
            assertThat(flink.rows().size()).as("rows that passed " + query + ", seed " + seed).isGreaterThan(40);
        }
        return compared;
    }

    /**
     * A function that throws on one row fails Flink's job with its exception, and fails the columnar calc's batch
     * with that same exception as the cause, the message naming the projection, the call and the row; on a row
     * the filter drops it fails neither. The memory is freed.
     */
    @Test
    void aFunctionThatThrowsFailsAsInFlinkNamingTheProjectionAndTheRow() throws Exception {
        String query = "SELECT id, fail_on_boom(s) AS v FROM t WHERE i IS NOT NULL";
        List<RowData> rows = new CalcValues(7).rows(INPUT, 60);
        GenericRowData boom = (GenericRowData) rows.get(17);
        boom.setField(INPUT.getFieldIndex("s"), StringData.fromString("boom"));
        CalcProgram program = planned(query);
        List<RowData> input = projected(rows, program.input());

        boom.setField(INPUT.getFieldIndex("i"), 5);
        Throwable flinkError = catchThrowable(() -> oracle.flink(INPUT, rows, query, FUNCTIONS));
        input = projected(rows, program.input());
        List<RowData> failing = input;
        Throwable ours = catchThrowable(() -> CalcOracle.columnar(deployed(program), failing, 25, taskContext()));
        assertThat(flinkError).as("Flink's Calc fails").isNotNull();
        assertThat(ours).isInstanceOf(io.columnarkafka.flink.calc.eval.FlinkCodeException.class)
                .hasMessageContaining("projection 1 (v) of the columnar calc: UDF fail_on_boom failed in Flink's"
                        + " generated code at row 17 of the batch")
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(ours.getCause()).hasMessage(rootCause(flinkError).getMessage())
                .isInstanceOf(rootCause(flinkError).getClass());

        boom.setField(INPUT.getFieldIndex("i"), null);
        List<RowData> dropped = projected(rows, program.input());
        assertThat(CalcOracle.columnar(deployed(program), dropped, 25, taskContext()))
                .as("the row the filter drops is never handed to the function")
                .isEqualTo(oracle.flink(INPUT, rows, query, FUNCTIONS).rows());
    }

    /**
     * A function in the condition that throws on one row fails Flink's job with its exception, and the columnar
     * calc's batch with that same exception as the cause, the message naming the condition, the call and the row.
     */
    @Test
    void aFunctionInTheConditionThatThrowsFailsAsInFlinkNamingTheCondition() throws Exception {
        String query = "SELECT id, s AS v, plus_one(i) AS w FROM t WHERE fail_on_boom(s) IS NOT NULL";
        List<RowData> rows = new CalcValues(13).rows(INPUT, 60);
        ((GenericRowData) rows.get(17)).setField(INPUT.getFieldIndex("s"), StringData.fromString("boom"));
        CalcProgram program = planned(query);
        List<RowData> input = projected(rows, program.input());
        Throwable flinkError = catchThrowable(() -> oracle.flink(INPUT, rows, query, FUNCTIONS));
        Throwable ours = catchThrowable(() -> CalcOracle.columnar(deployed(program), input, 25, taskContext()));
        assertThat(flinkError).as("Flink's Calc fails").isNotNull();
        assertThat(ours).isInstanceOf(io.columnarkafka.flink.calc.eval.FlinkCodeException.class)
                .hasMessageContaining("the condition of the columnar calc: UDF fail_on_boom failed in Flink's generated"
                        + " code at row 17 of the batch");
        assertThat(ours.getCause()).hasMessage(rootCause(flinkError).getMessage())
                .isInstanceOf(rootCause(flinkError).getClass());
    }

    /**
     * The operator opens the function once when it opens (with its runtime context, as Flink's Calc operator does),
     * calls it once per row that passed, and closes it when it closes; its allocator closes at zero.
     */
    @Test
    void theOperatorOpensTheFunctionCallsItForThePassedRowsAndClosesIt() throws Exception {
        FlinkCodeUdfs.Counting.reset();
        CalcProgram program = planned("SELECT id, counting(b) AS v FROM t WHERE i > 0");
        List<RowData> rows = new CalcValues(11).rows(INPUT, 300);
        int passed = (int) rows.stream().filter(r -> !r.isNullAt(1) && r.getInt(1) > 0).count();
        List<RowData> input = projected(rows, program.input());
        try (BufferAllocator allocator = ArrowMemory.newChild("flink-code-operator-test", 64L << 20)) {
            try (OneInputStreamOperatorTestHarness<ArrowBatch, ArrowBatch> harness =
                    new OneInputStreamOperatorTestHarness<>(new ColumnarCalcOperator(program))) {
                harness.open();
                assertThat(FlinkCodeUdfs.Counting.OPENS.get()).as("opened with the operator").isEqualTo(1);
                for (int from = 0; from < input.size(); from += 64) {
                    RowDataArrowWriter writer = new RowDataArrowWriter(program.input(), allocator);
                    for (RowData row : input.subList(from, Math.min(input.size(), from + 64))) {
                        writer.write(row);
                    }
                    try (ArrowBatch batch = ArrowBatch.of(writer.finish(), null)) {
                        harness.processElement(new StreamRecord<>(batch));
                    }
                }
                assertThat(FlinkCodeUdfs.Counting.CALLS.get()).as("one call per row that passed").isEqualTo(passed)
                        .isGreaterThan(50);
                assertThat(FlinkCodeUdfs.Counting.CLOSES.get()).isZero();
            }
        }
        assertThat(FlinkCodeUdfs.Counting.OPENS.get()).isEqualTo(1);
        assertThat(FlinkCodeUdfs.Counting.CLOSES.get()).as("closed with the operator").isEqualTo(1);
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /** The program the stage plans for {@code query} over a {@code kafka-columnar} table {@code t} of {@link #INPUT}. */
    static CalcProgram planned(String query) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        assertThat(ColumnarSql.install(tEnv).status()).isEqualTo(InstallStatus.INSTALLED);
        FUNCTIONS.forEach(tEnv::createTemporarySystemFunction);
        tEnv.executeSql("CREATE TABLE t (" + columns(INPUT) + ") WITH ('connector' = 'kafka-columnar', 'topic' = 't',"
                + " 'properties.bootstrap.servers' = 'localhost:1', 'properties.group.id' = 'g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')");
        RowType output = (RowType) tEnv.sqlQuery(query).getResolvedSchema().toPhysicalRowDataType().getLogicalType();
        tEnv.executeSql("CREATE TABLE results (" + columns(output) + ") WITH ('connector' = 'blackhole')");
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results " + query);
        List<NodeDecision> calcs = ColumnarSql.lastDecision(tEnv).decisions().stream()
                .filter(d -> d.node().getRelTypeName().equals("StreamPhysicalCalc")).toList();
        assertThat(calcs).as(explained).hasSize(1);
        NodeDecision calc = calcs.get(0);
        assertThat(calc.kind()).as(explained).isEqualTo(NodeKind.CALC);
        assertThat(calc.isColumnar()).as(explained).isTrue();
        assertThat(calc.program().flinkCodeParts()).as("the calls run in the calc: " + explained).isNotEmpty();
        return calc.program();
    }

    /**
     * {@code program} serialized and read back, as a job ships its operator to each task: every run gets its own copy
     * of the function (a non-deterministic one counts from its start again).
     */
    private static CalcProgram deployed(CalcProgram program) throws Exception {
        return InstantiationUtil.clone(program, FlinkCodeCalcParityTest.class.getClassLoader());
    }

    private static String columns(RowType type) {
        return type.getFields().stream().map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                .collect(Collectors.joining(", "));
    }

    /** {@code rows} with only the fields of {@code input} (the scan's projection), by name. */
    private static List<RowData> projected(List<RowData> rows, RowType input) {
        List<RowData.FieldGetter> getters = new ArrayList<>();
        for (RowType.RowField field : input.getFields()) {
            int at = INPUT.getFieldIndex(field.getName());
            assertThat(INPUT.getTypeAt(at).copy(true)).as(field.getName()).isEqualTo(field.getType().copy(true));
            getters.add(RowData.createFieldGetter(INPUT.getTypeAt(at), at));
        }
        List<RowData> out = new ArrayList<>(rows.size());
        for (RowData row : rows) {
            GenericRowData projected = new GenericRowData(getters.size());
            for (int f = 0; f < getters.size(); f++) {
                projected.setField(f, getters.get(f).getFieldOrNull(row));
            }
            out.add(projected);
        }
        return out;
    }

    /** A task's runtime context, as an operator hands its functions one. */
    static RuntimeContext taskContext() {
        return new RuntimeUDFContext(new TaskInfoImpl("flink-code-parity", 1, 0, 1, 0),
                FlinkCodeCalcParityTest.class.getClassLoader(), new ExecutionConfig(), Map.of(), Map.of(),
                UnregisteredMetricsGroup.createOperatorMetricGroup());
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
