package io.columnarkafka.flink.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.parity.EdgeValues;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
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

    /** HASH_CODE of INT and BIGINT, and the split distinct aggregate's bucket MOD(HASH_CODE(col), n). */
    @Property(tries = 2)
    void hashCodes(@ForAll long seed) throws Exception {
        compare(CalcCases.hashCodes(), seed);
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
     * DATE_FORMAT of numeric patterns is written without Java's formatter for years 1–9999; a quarter of the rows
     * are at those years' edges or beyond them (year 0, 1 BC, 10000), where Java's formatter writes it again.
     */
    @Property(tries = 2)
    void dateFormats(@ForAll long seed) throws Exception {
        List<RowData> rows = new CalcValues(seed).rows(CalcCases.INPUT, ROWS);
        List<LocalDateTime> edges = List.of(LocalDateTime.parse("0000-06-15T12:34:56.789123"),
                LocalDateTime.parse("-0001-12-31T23:59:59.999999"), LocalDateTime.parse("+10000-01-01T00:00:00"),
                LocalDateTime.parse("9999-12-31T23:59:59.999999"), LocalDateTime.parse("0001-01-01T00:00:00.000001"));
        int ts = CalcCases.INPUT.getFieldIndex("ts");
        int ts6 = CalcCases.INPUT.getFieldIndex("ts6");
        for (int r = 0; r < rows.size(); r += 4) {
            LocalDateTime edge = edges.get(r / 4 % edges.size());
            ((GenericRowData) rows.get(r)).setField(ts, TimestampData.fromLocalDateTime(EdgeValues.truncate(edge, 3)));
            ((GenericRowData) rows.get(r)).setField(ts6, TimestampData.fromLocalDateTime(edge));
        }
        compare(CalcCases.INPUT, rows, CalcCases.dateFormats(), seed);
    }

    @Property(tries = 2)
    void stringCasts(@ForAll long seed) throws Exception {
        compare(StringCastValues.INPUT, new StringCastValues(seed).rows(ROWS), CalcCases.stringCasts(), seed);
    }

    /**
     * A string that does not parse fails the job in Flink's CAST (the legacy cast behaviour is off by default)
     * and fails the batch here, naming the projection and the value; the memory is freed.
     */
    @Example
    void aStringThatDoesNotParseFailsAsInFlink() throws Exception {
        String[][] bad = {{"i32", "INT", "12x"}, {"i32", "INT", "2147483648"}, {"i32", "DECIMAL(12, 1)", " 002147483647 "}, {"i8", "TINYINT", "128"},
            {"i64", "BIGINT", ""}, {"dbl", "DOUBLE", "one"}, {"dm", "DECIMAL(10, 2)", "1.2.3"},
            {"dm", "DECIMAL(10, 2)", "123456789.5"},
            {"flag", "BOOLEAN", "maybe"}, {"flag", "BOOLEAN", " 1 "}, {"ts", "TIMESTAMP(3)", "2024-13-01 00:00:00"},
            {"ts", "TIMESTAMP(3)", "2024-06-01T07:08:09"}};
        Exprs x = new Exprs(StringCastValues.INPUT);
        for (String[] b : bad) {
            List<RowData> rows = new StringCastValues(3).rows(20);
            ((GenericRowData) rows.get(7)).setField(StringCastValues.INPUT.getFieldIndex(b[0]),
                    StringData.fromString(b[2]));
            String sql = "SELECT CAST(" + b[0] + " AS " + b[1] + ") FROM t";
            Throwable flinkError = catchThrowable(() -> oracle.flink(StringCastValues.INPUT, rows, sql));
            assertThat(flinkError).as(sql + " on '" + b[2] + "' in Flink").isNotNull();

            LogicalType target = RowTypes.parse("ROW<v " + b[1] + ">").getTypeAt(0);
            CalcProgram program = new CalcProgram(StringCastValues.INPUT,
                    List.of(Exprs.call(Op.CAST, target, x.col(b[0]))), List.of("q"), null);
            assertThat(CalcSupport.unsupported(program)).isEmpty();
            assertThatThrownBy(() -> CalcOracle.columnar(program, rows))
                    .as(sql + " on '" + b[2] + "' columnar")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("projection 0 (q)")
                    .hasMessageContaining("CAST of '" + b[2] + "'");
            assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        }
    }

    /**
     * Flink's TIMESTAMP(9) holds year 1095, beyond Arrow's 64-bit nanoseconds (1677..2262); the calc writes a
     * computed timestamp as Flink's millis + nanos of the milli, so the value comes out as Flink's
     * {@code BinaryStringDataUtil.toTimestamp} parses it, every digit.
     */
    @Example
    void aNanosecondTimestampOutsideArrowsRangeIsKept() {
        List<RowData> rows = new StringCastValues(5).rows(20);
        String text = "1095-09-09 20:56:12.588941118";
        ((GenericRowData) rows.get(4)).setField(StringCastValues.INPUT.getFieldIndex("ts"), StringData.fromString(text));
        CalcProgram program = new CalcProgram(StringCastValues.INPUT, List.of(Exprs.call(Op.CAST,
                new org.apache.flink.table.types.logical.TimestampType(9), new Exprs(StringCastValues.INPUT).col("ts"))),
                List.of("q"), null);
        List<Row> out = CalcOracle.columnar(program, rows.subList(4, 5));
        assertThat(out.get(0).getField(0)).isEqualTo(org.apache.flink.table.data.binary.BinaryStringDataUtil
                .toTimestamp(org.apache.flink.table.data.binary.BinaryStringData.fromString(text), 9).toLocalDateTime());
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
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
     * Sub-expressions read by several parts of a program ({@link CalcFilters#shared}: the condition, projections,
     * CASE branches) are computed once per row, each row only where some reader evaluates it: every program must
     * give Flink's rows, also where {@code j} is zero (every seventh row) in rows whose division the condition or a
     * CASE skips, and {@code s} lower-cases to 'apple' or starts with 'a' in some rows. Run as one batch and as
     * batches of 37 rows through one calc (a row's value held for one batch must not serve the next).
     */
    @Property(tries = 2)
    void sharedSubexpressionsGiveFlinksRows(@ForAll long seed) throws Exception {
        List<RowData> rows = new CalcValues(seed).rows(CalcCases.INPUT, ROWS);
        int j = CalcCases.INPUT.getFieldIndex("j");
        int s = CalcCases.INPUT.getFieldIndex("s");
        String[] apples = {"Apple", "APPLE", "ab\u00e9", "apple pie", "\u00c9clair"};
        for (int r = 0; r < rows.size(); r++) {
            if (r % 7 == 0) {
                ((GenericRowData) rows.get(r)).setField(j, 0);
            }
            if (r % 3 == 1) {
                ((GenericRowData) rows.get(r)).setField(s, StringData.fromString(apples[r % apples.length]));
            }
        }
        int passed = 0;
        int zeroDivisors = 0;
        for (CalcFilters.Filter filter : CalcFilters.shared()) {
            CalcOracle.FlinkResult flink = oracle.flink(CalcCases.INPUT, rows, filter.sql());
            assertThat(CalcSupport.unsupported(filter.program())).as(filter.sql()).isEmpty();
            assertThat(filter.program().outputType().getChildren()).as("result types of " + filter.sql())
                    .isEqualTo(flink.types());
            assertThat(CalcOracle.columnar(filter.program(), rows)).as(filter.sql() + " (seed " + seed + ")")
                    .isEqualTo(flink.rows());
            assertThat(CalcOracle.columnar(filter.program(), rows, 37)).as(filter.sql() + " in batches (seed " + seed
                    + ")").isEqualTo(flink.rows());
            passed += flink.rows().size();
            for (Row row : flink.rows()) {
                RowData in = rows.get((Integer) row.getField(0));
                if (!in.isNullAt(j) && in.getInt(j) == 0) {
                    zeroDivisors++;
                }
            }
        }
        assertThat(passed).as("rows that passed").isGreaterThan(ROWS);
        // every seventh row of the two division programs: each passes all of them
        assertThat(zeroDivisors).as("rows with j = 0 that passed").isGreaterThanOrEqualTo(2 * (ROWS / 7));
    }

    /**
     * A division the condition computes for some rows and a projection for one more, whose divisor is zero: Flink
     * fails the job in the projection ({@code OR} passes row 10 without the division, the projection then divides
     * by zero), and so must the calc, although the shared quotient was already computed for the other rows.
     */
    @Example
    void aSharedDivisionFailsInTheProjectionAsInFlink() throws Exception {
        List<RowData> rows = new CalcValues(17).rows(CalcCases.INPUT, 50);
        int j = CalcCases.INPUT.getFieldIndex("j");
        for (int r = 0; r < rows.size(); r++) {
            ((GenericRowData) rows.get(r)).setField(j, r == 10 ? 0 : 1 + r % 5);
        }
        String sql = "SELECT id, i / j FROM t WHERE (j <> 0 AND i / j > 0) OR id = 10";
        Throwable flinkError = catchThrowable(() -> oracle.flink(CalcCases.INPUT, rows, sql));
        assertThat(flinkError).as(sql).hasRootCauseInstanceOf(ArithmeticException.class);

        Expr quotient = Exprs.call(Op.DIVIDE, Exprs.INT, CalcCases.col("i"), CalcCases.col("j"));
        Expr condition = Exprs.call(Op.OR, Exprs.BOOLEAN,
                Exprs.call(Op.AND, Exprs.BOOLEAN, Exprs.call(Op.NOT_EQUALS, Exprs.BOOLEAN, CalcCases.col("j"),
                        Exprs.lit(0)), Exprs.call(Op.GREATER_THAN, Exprs.BOOLEAN, quotient, Exprs.lit(0))),
                Exprs.call(Op.EQUALS, Exprs.BOOLEAN, CalcCases.col("id"), Exprs.lit(10)));
        CalcProgram program = new CalcProgram(CalcCases.INPUT, List.of(CalcCases.col("id"), quotient),
                List.of("id", "q"), condition);
        assertThatThrownBy(() -> CalcOracle.columnar(program, rows))
                .isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("projection 1 (q)")
                .hasMessageContaining("/ by zero");
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /**
     * A CASE over a column the condition fixes (Nexmark's {@code dateTime} through the {@code bid} view): the calc
     * drops the branches no passed row takes ({@code ConditionFacts}); the rows and values must still be Flink's,
     * with a CASE that collapses to one branch, one that keeps an undecided condition before the decided one, and one
     * no fact decides. {@code i} cycles through 0, 1, 2 and null so that a quarter of the rows pass.
     */
    @Example
    void caseBranchesTheConditionDecidesGiveFlinksValues() throws Exception {
        List<RowData> rows = new CalcValues(11).rows(CalcCases.INPUT, ROWS);
        int i = CalcCases.INPUT.getFieldIndex("i");
        for (int k = 0; k < rows.size(); k++) {
            ((GenericRowData) rows.get(k)).setField(i, k % 4 == 3 ? null : k % 4);
        }
        Exprs x = new Exprs(CalcCases.INPUT);
        Expr iIs0 = Exprs.call(Op.EQUALS, Exprs.BOOLEAN, x.col("i"), Exprs.lit(0));
        Expr iIs1 = Exprs.call(Op.EQUALS, Exprs.BOOLEAN, x.col("i"), Exprs.lit(1));
        Expr iIs2 = Exprs.call(Op.EQUALS, Exprs.BOOLEAN, x.col("i"), Exprs.lit(2));
        Expr collapses = Exprs.call(Op.CASE, Exprs.BIGINT, iIs0, x.col("b"), iIs1, x.col("c"), x.field("r", "a"));
        Expr keepsOne = Exprs.call(Op.CASE, Exprs.BIGINT,
                Exprs.call(Op.GREATER_THAN, Exprs.BOOLEAN, x.col("j"), Exprs.lit(0)), x.col("b"),
                iIs2, x.col("c"), x.field("r", "a"));
        Expr undecided = Exprs.call(Op.CASE, Exprs.BIGINT,
                Exprs.call(Op.EQUALS, Exprs.BOOLEAN, x.col("j"), Exprs.lit(2)), x.col("b"), x.col("c"));
        CalcProgram program = new CalcProgram(CalcCases.INPUT, List.of(x.col("id"), collapses, keepsOne, undecided),
                List.of("id", "collapses", "keepsOne", "undecided"),
                Exprs.call(Op.AND, Exprs.BOOLEAN, iIs2,
                        Exprs.call(Op.IS_NOT_NULL, Exprs.BOOLEAN_NOT_NULL, x.col("id"))));
        CalcOracle.FlinkResult flink = oracle.flink(CalcCases.INPUT, rows, "SELECT id,"
                + " CASE WHEN i = 0 THEN b WHEN i = 1 THEN c ELSE r.a END,"
                + " CASE WHEN j > 0 THEN b WHEN i = 2 THEN c ELSE r.a END,"
                + " CASE WHEN j = 2 THEN b ELSE c END FROM t WHERE i = 2 AND id IS NOT NULL");
        assertThat(CalcSupport.unsupported(program)).isEmpty();
        assertThat(program.outputType().getChildren()).isEqualTo(flink.types());
        List<Row> ours = CalcOracle.columnar(program, rows);
        assertThat(ours).isEqualTo(flink.rows());
        assertThat(ours).as("rows with i = 2").hasSize(ROWS / 4);
    }

    /**
     * DATE_FORMAT on rows clustered on a few days, each day's rows at many times of day (midnight and its last
     * millisecond included), the days before and after the epoch adjacent (a day truncated instead of floored would
     * give 1969-12-31 the text of 1970-01-01), year 1 among them, nulls between: numeric patterns (written without
     * per-row objects, {@code NumericDatePattern}) and patterns with names or quoted text (Java's formatter), against
     * Flink's text for every row.
     */
    @Example
    void dateFormatOfRowsOnFewDaysGivesFlinksText() throws Exception {
        List<RowData> rows = new CalcValues(13).rows(CalcCases.INPUT, ROWS);
        long[] days = {0, -1, 0, 18_000, 18_001, -1, -2, -719_162}; // -719,162: 0001-01-01
        long[] times = {0, 86_399_999L, 3_600_000L, 43_200_123L, 82_800_000L, 1L};
        int ts = CalcCases.INPUT.getFieldIndex("ts");
        int ts6 = CalcCases.INPUT.getFieldIndex("ts6");
        for (int k = 0; k < rows.size(); k++) {
            long millis = days[(k / 25) % days.length] * 86_400_000L + times[k % times.length] + 60_000L * (k % 7);
            boolean isNull = k % 13 == 12;
            ((GenericRowData) rows.get(k)).setField(ts, isNull ? null : TimestampData.fromEpochMillis(millis));
            ((GenericRowData) rows.get(k)).setField(ts6, isNull ? null : TimestampData.fromEpochMillis(millis, 456_000));
        }
        Exprs x = new Exprs(CalcCases.INPUT);
        String[][] patterns = {{"ts", "yyyy-MM-dd"}, {"ts", "EEE d MMM yyyy"}, {"ts6", "D 'at' uuuu"},
            {"ts", "yyyy-MM-dd HH"}, {"ts6", "dd HH:mm:ss.SSSSSS"}, {"ts", "'day' d h a"}};
        List<CalcCases.Case> cases = new ArrayList<>();
        for (String[] p : patterns) {
            cases.add(new CalcCases.Case("DATE_FORMAT(" + p[0] + ", '" + p[1].replace("'", "''") + "')",
                    Exprs.call(Op.DATE_FORMAT, Exprs.STRING, x.col(p[0]), Exprs.lit(p[1]))));
        }
        compare(CalcCases.INPUT, rows, cases, 13);
    }

    /**
     * Integer division by zero fails the job in Flink (generated Java division) and fails the batch here,
     * with the Arrow memory freed.
     */
    @Example
    void integerDivisionByZeroFailsAsInFlink() throws Exception {
        List<RowData> rows = new CalcValues(7).rows(CalcCases.INPUT, 50);
        ((GenericRowData) rows.get(10)).setField(1, 5);
        ((GenericRowData) rows.get(10)).setField(2, 0);
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

    /**
     * Integer division and remainder by zero keep Flink's message however often they fail: once the JIT had seen
     * the division throw a few times it threw a preallocated exception without a message (OmitStackTraceInFastThrow),
     * so the error read "projection 0 (q) of the columnar calc: null" (found by running this class 11 times in one
     * JVM). One-row batches until the evaluation is compiled and its traps are spent (about 25,000 before the fix).
     */
    @Example
    void integerDivisionByZeroKeepsFlinksMessageWhenTheJitHasSeenItOften() throws Exception {
        RowType input = RowTypes.parse("ROW<i INT, j INT>");
        List<RowData> rows = List.of(GenericRowData.of(5, 0));
        Exprs x = new Exprs(input);
        for (Op op : new Op[] {Op.DIVIDE, Op.MOD}) {
            String sql = op == Op.DIVIDE ? "SELECT i / j FROM t" : "SELECT MOD(i, j) FROM t";
            String flinkMessage = rootCause(catchThrowable(() -> oracle.flink(input, rows, sql))).getMessage();
            assertThat(flinkMessage).as(sql + " in Flink").isNotBlank();
            CalcProgram program = new CalcProgram(input,
                    List.of(Exprs.call(op, Exprs.INT, x.col("i"), x.col("j"))), List.of("q"), null);
            try (BufferAllocator allocator = ArrowMemory.newChild("hot-division", 1L << 20);
                    ColumnarCalc calc = ColumnarCalc.plan(program, allocator)) {
                for (int n = 0; n < 40_000; n++) {
                    RowDataArrowWriter writer = new RowDataArrowWriter(input, allocator);
                    writer.write(rows.get(0));
                    ArrowBatch batch = ArrowBatch.of(writer.finish(), null);
                    Throwable ours = catchThrowable(() -> calc.apply(batch).close());
                    assertThat(ours).as(sql + ", batch " + n).isInstanceOf(ArithmeticException.class)
                            .hasMessageContaining(flinkMessage);
                }
            }
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /**
     * DECIMAL division by zero fails the job in Flink ({@code BigDecimal#divide} in {@code DecimalDataUtils})
     * and fails the batch here with the same error, naming the projection; the memory is freed.
     */
    @Example
    void decimalDivisionByZeroFailsAsInFlink() throws Exception {
        List<RowData> rows = new CalcValues(11).rows(CalcCases.INPUT, 50);
        int m18 = CalcCases.INPUT.getFieldIndex("m18");
        ((GenericRowData) rows.get(10)).setField(m18,
                DecimalData.fromUnscaledLong(0, 18, 4));
        ((GenericRowData) rows.get(10)).setField(CalcCases.INPUT.getFieldIndex("m"),
                DecimalData.fromUnscaledLong(150, 10, 2));
        for (Op op : new Op[] {Op.DIVIDE, Op.MOD}) {
            String sql = op == Op.DIVIDE ? "SELECT m / m18 FROM t" : "SELECT MOD(m, m18) FROM t";
            Throwable flinkError = catchThrowable(() -> oracle.flink(CalcCases.INPUT, rows, sql));
            assertThat(flinkError).as(sql).hasRootCauseInstanceOf(ArithmeticException.class);
            String flinkMessage = rootCause(flinkError).getMessage();

            CalcProgram program = new CalcProgram(CalcCases.INPUT, List.of(Exprs.call(op,
                    op == Op.DIVIDE ? Exprs.decimal(33, 21) : Exprs.decimal(12, 4), CalcCases.col("m"),
                    CalcCases.col("m18"))), List.of("q"), null);
            assertThat(CalcSupport.unsupported(program)).isEmpty();
            assertThatThrownBy(() -> CalcOracle.columnar(program, rows))
                    .isInstanceOf(ArithmeticException.class)
                    .hasMessageContaining("projection 0 (q)")
                    .hasMessageContaining(flinkMessage);
            assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    private static void compare(List<CalcCases.Case> cases, long seed) throws Exception {
        compare(CalcCases.INPUT, new CalcValues(seed).rows(CalcCases.INPUT, ROWS), cases, seed);
    }

    private static void compare(RowType input, List<RowData> rows, List<CalcCases.Case> cases, long seed)
            throws Exception {
        String sql = "SELECT " + cases.stream().map(CalcCases.Case::sql).collect(Collectors.joining(", ")) + " FROM t";
        CalcOracle.FlinkResult flink = oracle.flink(input, rows, sql);

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
        CalcProgram program = new CalcProgram(input, projections, names, null);
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
        // through one calc, a batch of 37 rows and then one of the rest: every node's column (a literal's, which
        // holds its value at every row position, among them) must serve a batch larger than the one before
        assertThat(CalcOracle.columnar(program, rows, new int[] {37, rows.size()}, null))
                .as("values in a small batch, then a larger one (seed " + seed + ")").isEqualTo(flink.rows());
    }
}
