package io.columnarkafka.flink.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.columnarkafka.flink.batch.ArrowMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;

/**
 * Every admitted operation and type against Flink SQL as the oracle: random rows (nulls everywhere, edge
 * values) go through Flink's generated code and through {@link ColumnarCalc} on Arrow vectors; every value
 * and every result type must be equal. One Flink job per try and family keeps the run short; each try
 * checks it compared every row of every expression.
 */
class CalcParityProperties {
    private static final int ROWS = 400;
    private static CalcOracle oracle;

    @BeforeContainer
    static void startFlink() throws Exception {
        oracle = new CalcOracle();
    }

    @AfterContainer
    static void stopFlink() throws Exception {
        oracle.close();
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Property(tries = 2)
    void arithmetic(@ForAll long seed) throws Exception {
        compare(CalcCases.arithmetic(), seed);
    }

    @Property(tries = 2)
    void comparisons(@ForAll long seed) throws Exception {
        compare(CalcCases.comparisons(), seed);
    }

    @Property(tries = 2)
    void logicAndCase(@ForAll long seed) throws Exception {
        compare(CalcCases.logic(), seed);
    }

    @Property(tries = 2)
    void strings(@ForAll long seed) throws Exception {
        compare(CalcCases.strings(), seed);
    }

    @Property(tries = 2)
    void temporalAndCasts(@ForAll long seed) throws Exception {
        compare(CalcCases.temporalAndCasts(), seed);
    }

    /**
     * Conditions become selections: the rows and values that pass must be Flink's, including conditions
     * whose later operands would fail on rows an earlier operand rejects, and projections that would fail
     * on rows the condition rejects (Flink evaluates neither).
     */
    @Property(tries = 2)
    void filters(@ForAll long seed) throws Exception {
        List<RowData> rows = new CalcValues(seed).rows(CalcCases.INPUT, ROWS);
        int passed = 0;
        for (CalcFilters.Filter filter : CalcFilters.all()) {
            CalcOracle.FlinkResult flink = oracle.flink(CalcCases.INPUT, rows, filter.sql());
            assertThat(CalcSupport.unsupported(filter.program())).as(filter.sql()).isEmpty();
            List<LogicalType> ourTypes = filter.program().outputType().getChildren();
            assertThat(ourTypes).as("result types of " + filter.sql()).isEqualTo(flink.types());
            List<Row> ours = CalcOracle.columnar(filter.program(), rows);
            assertThat(ours).as(filter.sql() + " (seed " + seed + ")").isEqualTo(flink.rows());
            passed += ours.size();
        }
        assertThat(passed).as("rows that passed some filter").isGreaterThan(ROWS / 4);
    }

    /**
     * Integer division by zero fails the job in Flink (generated Java division) and fails the batch here,
     * with the Arrow memory freed.
     */
    @Example
    void integerDivisionByZeroFailsAsInFlink() throws Exception {
        List<RowData> rows = new CalcValues(7).rows(CalcCases.INPUT, 50);
        ((org.apache.flink.table.data.GenericRowData) rows.get(10)).setField(1, 5);
        ((org.apache.flink.table.data.GenericRowData) rows.get(10)).setField(2, 0);
        Throwable flinkError = catchThrowable(() -> oracle.flink(CalcCases.INPUT, rows, "SELECT i / j FROM t"));
        assertThat(flinkError).hasRootCauseInstanceOf(ArithmeticException.class);

        CalcProgram program = new CalcProgram(CalcCases.INPUT,
                List.of(Exprs.call(Op.DIVIDE, Exprs.INT, CalcCases.col("i"), CalcCases.col("j"))), List.of("q"), null);
        assertThatThrownBy(() -> CalcOracle.columnar(program, rows))
                .isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("projection 0 (q)")
                .hasMessageContaining("/ by zero");
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    private static void compare(List<CalcCases.Case> cases, long seed) throws Exception {
        List<RowData> rows = new CalcValues(seed).rows(CalcCases.INPUT, ROWS);
        String sql = "SELECT " + cases.stream().map(CalcCases.Case::sql).collect(Collectors.joining(", ")) + " FROM t";
        CalcOracle.FlinkResult flink = oracle.flink(CalcCases.INPUT, rows, sql);

        List<String> typeMismatches = new ArrayList<>();
        for (int c = 0; c < cases.size(); c++) {
            LogicalType ours = cases.get(c).expr().type();
            if (!flink.types().get(c).equals(ours)) {
                typeMismatches.add(cases.get(c).sql() + ": Flink " + flink.types().get(c) + ", ours " + ours);
            }
        }
        assertThat(typeMismatches).as("result types").isEmpty();

        List<Expr> projections = cases.stream().map(CalcCases.Case::expr).collect(Collectors.toList());
        List<String> names = new ArrayList<>();
        for (int c = 0; c < cases.size(); c++) {
            names.add("e" + c);
        }
        CalcProgram program = new CalcProgram(CalcCases.INPUT, projections, names, null);
        assertThat(CalcSupport.unsupported(program)).as("admitted").isEmpty();
        List<Row> ours = CalcOracle.columnar(program, rows);

        assertThat(ours).hasSameSizeAs(flink.rows());
        int compared = 0;
        List<String> differences = new ArrayList<>();
        for (int r = 0; r < ours.size(); r++) {
            for (int c = 0; c < cases.size(); c++) {
                Object expected = flink.rows().get(r).getField(c);
                Object actual = ours.get(r).getField(c);
                if (!java.util.Objects.equals(expected, actual) && differences.size() < 20) {
                    differences.add(cases.get(c).sql() + " on row " + rows.get(r) + ": Flink " + expected + ", ours "
                            + actual);
                }
                compared++;
            }
        }
        assertThat(differences).as("values differing from Flink (seed " + seed + ")").isEmpty();
        assertThat(compared).isEqualTo(ROWS * cases.size());
    }
}
