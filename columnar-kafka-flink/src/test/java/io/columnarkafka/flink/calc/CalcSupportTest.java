package io.columnarkafka.flink.calc;

import static io.columnarkafka.flink.calc.CalcCases.col;
import static io.columnarkafka.flink.calc.Exprs.BIGINT;
import static io.columnarkafka.flink.calc.Exprs.BOOLEAN;
import static io.columnarkafka.flink.calc.Exprs.STRING;
import static io.columnarkafka.flink.calc.Exprs.call;
import static io.columnarkafka.flink.calc.Exprs.decimal;
import static io.columnarkafka.flink.calc.Exprs.lit;
import static io.columnarkafka.flink.calc.Exprs.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the calc refuses, each with the reason it gives: nothing is ever approximated. */
class CalcSupportTest {
    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(call(Op.DIVIDE, decimal(21, 13), col("m"), col("i")), "may not fit the result type"),
                Arguments.of(call(Op.MOD, decimal(10, 2), col("m"), lit(1_000_000_000)), "may not fit the result type"),
                Arguments.of(call(Op.PLUS, decimal(38, 9), col("m38"), col("m38")), "rounds"),
                Arguments.of(call(Op.TIMES, decimal(38, 6), col("m38"), col("m")), "rounds"),
                Arguments.of(call(Op.TIMES, decimal(38, 20), col("m38"), col("m18")), "wider than 64 bits"),
                Arguments.of(call(Op.PLUS, new DoubleType(), col("d"), col("m")), "DOUBLE and integer operands"),
                Arguments.of(call(Op.EQUALS, BOOLEAN, col("d"), col("m")), "not implemented for these operand types"),
                Arguments.of(call(Op.CAST, decimal(10, 1), col("m")), "lowering the scale rounds"),
                Arguments.of(call(Op.CAST, STRING, col("d")), "CAST from DOUBLE"),
                Arguments.of(call(Op.CAST, new DateType(), col("s")), "CAST from STRING to DATE"),
                Arguments.of(call(Op.CAST, new FloatType(), col("i")), "FLOAT"),
                Arguments.of(call(Op.REINTERPRET, new TimestampType(6), col("ts")),
                        "only a TIMESTAMP as a time attribute of the same precision"),
                Arguments.of(call(Op.REINTERPRET, BIGINT, col("ts")), "REINTERPRET of TIMESTAMP(3) as BIGINT"),
                Arguments.of(call(Op.LIKE, BOOLEAN, col("s"), lit("a_c")), "LIKE pattern 'a_c'"),
                Arguments.of(call(Op.LIKE, BOOLEAN, col("s"), lit("%a%b%")), "LIKE pattern '%a%b%'"),
                Arguments.of(call(Op.LIKE, BOOLEAN, col("s"), col("s2")), "non-literal"),
                Arguments.of(call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("(a"), lit(1)), "invalid regex"),
                Arguments.of(call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("(a)")), "literal group index"),
                Arguments.of(call(Op.SPLIT_INDEX, STRING, col("s"), lit(""), lit(1)), "empty separator"),
                Arguments.of(call(Op.SPLIT_INDEX, STRING, col("s"), lit("/"), col("i")), "non-literal"),
                Arguments.of(call(Op.SUBSTRING, STRING, col("s"), col("b")), "not INT"),
                Arguments.of(call(Op.DATE_FORMAT, STRING, col("ts"), lit("yyyy-{")), "invalid pattern"),
                Arguments.of(call(Op.DATE_FORMAT, STRING, col("s"), lit("yyyy")), "DATE_FORMAT of STRING"),
                Arguments.of(call(Op.HASH_CODE, Exprs.INT, col("d")), "HASH_CODE of DOUBLE (only INT, BIGINT, VARCHAR)"),
                Arguments.of(call(Op.HASH_CODE, Exprs.INT, col("m")), "HASH_CODE of DECIMAL(10, 2)"),
                Arguments.of(call(Op.EXTRACT, BIGINT, unit("DAY"), col("ts")), "EXTRACT of DAY"),
                Arguments.of(call(Op.CASE, BIGINT, col("bo"), col("i"), col("b")), "branch typed INT"),
                Arguments.of(new Expr.Column(3, new IntType()), "typed INT but the input holds BIGINT"),
                Arguments.of(call(Op.EQUALS, BOOLEAN, col("m"),
                        new Expr.Literal(new java.math.BigDecimal("1.5"), decimal(2, 1))), "internal format"),
                Arguments.of(new Expr.Field(col("b"), 0, BIGINT), "does not name a field of a ROW"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void refusesWithTheReason(Expr projection, String reason) {
        CalcProgram program = new CalcProgram(CalcCases.INPUT, List.of(col("id"), wrapped(projection)),
                List.of("id", "x"), null);
        assertThat(CalcSupport.unsupported(program)).hasValueSatisfying(r -> assertThat(r).contains(reason));
        try (RootAllocator allocator = new RootAllocator()) {
            assertThatThrownBy(() -> ColumnarCalc.plan(program, allocator))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(reason);
        }
    }

    /** A plain column projection is shared, not compiled: refusals of columns show inside an expression. */
    private static Expr wrapped(Expr e) {
        return e instanceof Expr.Column ? call(Op.IS_NULL, Exprs.BOOLEAN_NOT_NULL, e) : e;
    }

    @Test
    void refusesANonBooleanCondition() {
        CalcProgram program = new CalcProgram(CalcCases.INPUT, List.of(col("id")), List.of("id"), col("i"));
        assertThat(CalcSupport.unsupported(program)).hasValueSatisfying(r -> assertThat(r).contains("not BOOLEAN"));
    }

    @Test
    void refusesCaseMappingInLocalesWhereAsciiLettersMapDifferently() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            CalcProgram program = new CalcProgram(CalcCases.INPUT, List.of(call(Op.LOWER, STRING, col("s"))),
                    List.of("x"), null);
            assertThat(CalcSupport.unsupported(program)).hasValueSatisfying(r -> assertThat(r).contains("tr_TR"));
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void admitsTheNexmarkStatelessShapes() {
        for (CalcFilters.Filter filter : CalcFilters.all()) {
            assertThat(CalcSupport.unsupported(filter.program())).as(filter.sql()).isEmpty();
        }
    }
}
