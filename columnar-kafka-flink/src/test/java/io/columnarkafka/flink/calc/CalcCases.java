package io.columnarkafka.flink.calc;

import static io.columnarkafka.flink.calc.Exprs.BIGINT;
import static io.columnarkafka.flink.calc.Exprs.BOOLEAN;
import static io.columnarkafka.flink.calc.Exprs.BOOLEAN_NOT_NULL;
import static io.columnarkafka.flink.calc.Exprs.INT;
import static io.columnarkafka.flink.calc.Exprs.STRING;
import static io.columnarkafka.flink.calc.Exprs.call;
import static io.columnarkafka.flink.calc.Exprs.dec;
import static io.columnarkafka.flink.calc.Exprs.decimal;
import static io.columnarkafka.flink.calc.Exprs.interval;
import static io.columnarkafka.flink.calc.Exprs.lit;
import static io.columnarkafka.flink.calc.Exprs.unit;

import io.columnarkafka.format.RowTypes;
import java.util.List;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;

/**
 * The expressions the parity tests run, by family: each is the SQL Flink evaluates and the {@link Expr} the
 * planner stage would hand the calc for it, typed as Flink types it (the tests check the types too).
 */
final class CalcCases {
    /** One expression: Flink SQL over view {@code t}, and the same as an {@link Expr}. */
    record Case(String sql, Expr expr) {}

    static final RowType INPUT = RowTypes.parse("ROW<id INT NOT NULL, i INT, j INT, b BIGINT, c BIGINT, si SMALLINT,"
            + " ti TINYINT, d DOUBLE, e DOUBLE, m DECIMAL(10, 2), m18 DECIMAL(18, 4), m38 DECIMAL(38, 10),"
            + " s STRING, s2 STRING, url STRING, ts TIMESTAMP(3), ts6 TIMESTAMP(6), bo BOOLEAN, bo2 BOOLEAN,"
            + " r ROW<a BIGINT, s STRING>>");

    private static final Exprs X = new Exprs(INPUT);
    private static final LogicalType DOUBLE = new DoubleType();
    private static final LogicalType SMALLINT = new SmallIntType();
    private static final LogicalType TINYINT = new TinyIntType();

    private CalcCases() {}

    static Expr col(String name) {
        return X.col(name);
    }

    /**
     * Flink's internal HASH_CODE, as the split distinct aggregate's partial phase computes its bucket: the value
     * itself for an INT, {@code Long.hashCode} for a BIGINT (the edge values hold MIN and MAX), {@code Math.abs} of
     * the Java String's hash for a VARCHAR (the edge values hold empty, non-ASCII and non-BMP strings), then MOD.
     */
    static List<Case> hashCodes() {
        return List.of(
                new Case("HASH_CODE(i)", call(Op.HASH_CODE, INT, col("i"))),
                new Case("HASH_CODE(b)", call(Op.HASH_CODE, INT, col("b"))),
                new Case("HASH_CODE(r.a)", call(Op.HASH_CODE, INT, X.field("r", "a"))),
                new Case("MOD(HASH_CODE(i), 1024)", call(Op.MOD, INT, call(Op.HASH_CODE, INT, col("i")), lit(1024))),
                new Case("MOD(HASH_CODE(b), 1024)", call(Op.MOD, INT, call(Op.HASH_CODE, INT, col("b")), lit(1024))),
                new Case("MOD(HASH_CODE(c), 7)", call(Op.MOD, INT, call(Op.HASH_CODE, INT, col("c")), lit(7))),
                new Case("HASH_CODE(s)", call(Op.HASH_CODE, INT, col("s"))),
                new Case("HASH_CODE(url)", call(Op.HASH_CODE, INT, col("url"))),
                new Case("HASH_CODE(r.s)", call(Op.HASH_CODE, INT, X.field("r", "s"))),
                new Case("MOD(HASH_CODE(s2), 1024)", call(Op.MOD, INT, call(Op.HASH_CODE, INT, col("s2")), lit(1024))));
    }

    static List<Case> arithmetic() {
        return List.of(
                new Case("i + j", call(Op.PLUS, INT, col("i"), col("j"))),
                new Case("i - j", call(Op.MINUS, INT, col("i"), col("j"))),
                new Case("i * j", call(Op.TIMES, INT, col("i"), col("j"))),
                new Case("i / 7", call(Op.DIVIDE, INT, col("i"), lit(7))),
                new Case("MOD(i, 7)", call(Op.MOD, INT, col("i"), lit(7))),
                new Case("MOD(i, -3)", call(Op.MOD, INT, col("i"), lit(-3))),
                new Case("-i", call(Op.UNARY_MINUS, INT, col("i"))),
                new Case("b + i", call(Op.PLUS, BIGINT, col("b"), col("i"))),
                new Case("b - c", call(Op.MINUS, BIGINT, col("b"), col("c"))),
                new Case("b * c", call(Op.TIMES, BIGINT, col("b"), col("c"))),
                new Case("b / 3", call(Op.DIVIDE, BIGINT, col("b"), lit(3))),
                new Case("MOD(b, 123)", call(Op.MOD, INT, col("b"), lit(123))),
                new Case("-b", call(Op.UNARY_MINUS, BIGINT, col("b"))),
                new Case("si + ti", call(Op.PLUS, SMALLINT, col("si"), col("ti"))),
                new Case("ti * ti", call(Op.TIMES, TINYINT, col("ti"), col("ti"))),
                new Case("d + e", call(Op.PLUS, DOUBLE, col("d"), col("e"))),
                new Case("d * i", call(Op.TIMES, DOUBLE, col("d"), col("i"))),
                new Case("d / j", call(Op.DIVIDE, DOUBLE, col("d"), col("j"))),
                new Case("d - b", call(Op.MINUS, DOUBLE, col("d"), col("b"))),
                new Case("-d", call(Op.UNARY_MINUS, DOUBLE, col("d"))),
                new Case("m + m", call(Op.PLUS, decimal(11, 2), col("m"), col("m"))),
                new Case("m - m18", call(Op.MINUS, decimal(19, 4), col("m"), col("m18"))),
                new Case("m * m", call(Op.TIMES, decimal(21, 4), col("m"), col("m"))),
                new Case("m18 * m18", call(Op.TIMES, decimal(37, 8), col("m18"), col("m18"))),
                new Case("0.908 * b", call(Op.TIMES, decimal(24, 3), dec("0.908"), col("b"))),
                new Case("m + i", call(Op.PLUS, decimal(13, 2), col("m"), col("i"))),
                new Case("m * i", call(Op.TIMES, decimal(21, 2), col("m"), col("i"))),
                new Case("-m", call(Op.UNARY_MINUS, decimal(10, 2), col("m"))),
                new Case("m / 7", call(Op.DIVIDE, decimal(21, 13), col("m"), lit(7))),
                new Case("m / 3.0", call(Op.DIVIDE, decimal(15, 6), col("m"), dec("3.0"))),
                new Case("m38 / 7", call(Op.DIVIDE, decimal(38, 10), col("m38"), lit(7))),
                new Case("b / 0.7", call(Op.DIVIDE, decimal(26, 6), col("b"), dec("0.7"))),
                new Case("m18 / (m + 0.005)", call(Op.DIVIDE, decimal(34, 17), col("m18"), nonZeroM())),
                new Case("m38 / (m + 0.005)", call(Op.DIVIDE, decimal(38, 7), col("m38"), nonZeroM())),
                new Case("MOD(m, 7)", call(Op.MOD, decimal(10, 2), col("m"), lit(7))),
                new Case("MOD(m, 0.7)", call(Op.MOD, decimal(3, 2), col("m"), dec("0.7"))),
                new Case("MOD(m18, m + 0.005)", call(Op.MOD, decimal(13, 4), col("m18"), nonZeroM())),
                new Case("MOD(m38, m + 0.005)", call(Op.MOD, decimal(19, 10), col("m38"), nonZeroM())),
                new Case("r.a + b", call(Op.PLUS, BIGINT, X.field("r", "a"), col("b"))));
    }

    /** {@code m + 0.005}: a DECIMAL(12, 3) divisor that is never zero (m has scale 2). */
    private static Expr nonZeroM() {
        return call(Op.PLUS, decimal(12, 3), col("m"), dec("0.005"));
    }

    static List<Case> comparisons() {
        return List.of(
                new Case("i < j", call(Op.LESS_THAN, BOOLEAN, col("i"), col("j"))),
                new Case("i = b", call(Op.EQUALS, BOOLEAN, col("i"), col("b"))),
                new Case("b >= c", call(Op.GREATER_THAN_OR_EQUAL, BOOLEAN, col("b"), col("c"))),
                new Case("si <> ti", call(Op.NOT_EQUALS, BOOLEAN, col("si"), col("ti"))),
                new Case("d <= e", call(Op.LESS_THAN_OR_EQUAL, BOOLEAN, col("d"), col("e"))),
                new Case("d = e", call(Op.EQUALS, BOOLEAN, col("d"), col("e"))),
                new Case("d = i", call(Op.EQUALS, BOOLEAN, col("d"), col("i"))),
                new Case("d > b", call(Op.GREATER_THAN, BOOLEAN, col("d"), col("b"))),
                // NaN is unordered: <> holds for it, every other operator fails (the edge values hold NaN, ±Inf, -0.0)
                new Case("d <> e", call(Op.NOT_EQUALS, BOOLEAN, col("d"), col("e"))),
                new Case("d >= e", call(Op.GREATER_THAN_OR_EQUAL, BOOLEAN, col("d"), col("e"))),
                new Case("i < d", call(Op.LESS_THAN, BOOLEAN, col("i"), col("d"))),
                new Case("b <> c", call(Op.NOT_EQUALS, BOOLEAN, col("b"), col("c"))),
                new Case("m > m18", call(Op.GREATER_THAN, BOOLEAN, col("m"), col("m18"))),
                new Case("m = i", call(Op.EQUALS, BOOLEAN, col("m"), col("i"))),
                new Case("m38 < m18", call(Op.LESS_THAN, BOOLEAN, col("m38"), col("m18"))),
                new Case("0.908 * b > 1000000", call(Op.GREATER_THAN, BOOLEAN,
                        call(Op.TIMES, decimal(24, 3), dec("0.908"), col("b")), lit(1000000))),
                // a literal side is brought to the common scale once: on the right and on the left, negative (an
                // INT's sign in the high word), DECIMAL(38, 10) ones with a high word (SQL's numeric literals stop at
                // a long's digits: Flink's planner folds the CASTs into such literals), one with a larger scale than
                // the column's
                new Case("0.908 * b < 50000000", call(Op.LESS_THAN, BOOLEAN,
                        call(Op.TIMES, decimal(24, 3), dec("0.908"), col("b")), lit(50000000))),
                new Case("1000000 <= 0.908 * b", call(Op.LESS_THAN_OR_EQUAL, BOOLEAN, lit(1000000),
                        call(Op.TIMES, decimal(24, 3), dec("0.908"), col("b")))),
                new Case("-5 <= m18", call(Op.LESS_THAN_OR_EQUAL, BOOLEAN, lit(-5), col("m18"))),
                new Case("m18 > -5", call(Op.GREATER_THAN, BOOLEAN, col("m18"), lit(-5))),
                new Case("m38 < CAST('-1234567890123456789012345678.0123456789' AS DECIMAL(38, 10))",
                        call(Op.LESS_THAN, BOOLEAN, col("m38"), dec("-1234567890123456789012345678.0123456789"))),
                new Case("CAST('9999999999999999999999999999.9999999999' AS DECIMAL(38, 10)) > m38",
                        call(Op.GREATER_THAN, BOOLEAN, dec("9999999999999999999999999999.9999999999"), col("m38"))),
                new Case("b >= -0.5", call(Op.GREATER_THAN_OR_EQUAL, BOOLEAN, col("b"), dec("-0.5"))),
                new Case("m = -0.5", call(Op.EQUALS, BOOLEAN, col("m"), dec("-0.5"))),
                new Case("m <> -99999999.99", call(Op.NOT_EQUALS, BOOLEAN, col("m"), dec("-99999999.99"))),
                new Case("s < s2", call(Op.LESS_THAN, BOOLEAN, col("s"), col("s2"))),
                new Case("s >= s2", call(Op.GREATER_THAN_OR_EQUAL, BOOLEAN, col("s"), col("s2"))),
                new Case("s = s2", call(Op.EQUALS, BOOLEAN, col("s"), col("s2"))),
                new Case("s <> 'apple'", call(Op.NOT_EQUALS, BOOLEAN, col("s"), lit("apple"))),
                new Case("ts < ts", call(Op.LESS_THAN, BOOLEAN, col("ts"), col("ts"))),
                new Case("ts6 >= ts6", call(Op.GREATER_THAN_OR_EQUAL, BOOLEAN, col("ts6"), col("ts6"))),
                new Case("bo = bo2", call(Op.EQUALS, BOOLEAN, col("bo"), col("bo2"))));
    }

    static List<Case> logic() {
        return List.of(
                new Case("bo AND bo2", call(Op.AND, BOOLEAN, col("bo"), col("bo2"))),
                new Case("bo OR bo2", call(Op.OR, BOOLEAN, col("bo"), col("bo2"))),
                new Case("NOT bo", call(Op.NOT, BOOLEAN, col("bo"))),
                new Case("bo IS TRUE", call(Op.IS_TRUE, BOOLEAN_NOT_NULL, col("bo"))),
                new Case("bo IS NOT TRUE", call(Op.IS_NOT_TRUE, BOOLEAN_NOT_NULL, col("bo"))),
                new Case("bo IS FALSE", call(Op.IS_FALSE, BOOLEAN_NOT_NULL, col("bo"))),
                new Case("bo IS NOT FALSE", call(Op.IS_NOT_FALSE, BOOLEAN_NOT_NULL, col("bo"))),
                new Case("i IS NULL", call(Op.IS_NULL, BOOLEAN_NOT_NULL, col("i"))),
                new Case("s IS NOT NULL", call(Op.IS_NOT_NULL, BOOLEAN_NOT_NULL, col("s"))),
                // four operands, each null in some rows: each is evaluated for the rows the ones before leave
                // undecided, fewer with every operand
                new Case("bo AND i > 0 AND bo2 AND b < 0", call(Op.AND, BOOLEAN, col("bo"),
                        call(Op.GREATER_THAN, BOOLEAN, col("i"), lit(0)), col("bo2"),
                        call(Op.LESS_THAN, BOOLEAN, col("b"), lit(0)))),
                new Case("bo OR i > 0 OR bo2 OR b < 0", call(Op.OR, BOOLEAN, col("bo"),
                        call(Op.GREATER_THAN, BOOLEAN, col("i"), lit(0)), col("bo2"),
                        call(Op.LESS_THAN, BOOLEAN, col("b"), lit(0)))),
                new Case("(i > 0 AND b < 0) OR bo", call(Op.OR, BOOLEAN,
                        call(Op.AND, BOOLEAN, call(Op.GREATER_THAN, BOOLEAN, col("i"), lit(0)),
                                call(Op.LESS_THAN, BOOLEAN, col("b"), lit(0))),
                        col("bo"))),
                new Case("CASE WHEN i > j THEN b WHEN bo THEN c ELSE b + c END", call(Op.CASE, BIGINT,
                        call(Op.GREATER_THAN, BOOLEAN, col("i"), col("j")), col("b"),
                        col("bo"), col("c"),
                        call(Op.PLUS, BIGINT, col("b"), col("c")))),
                new Case("CASE WHEN i > 0 THEN s WHEN bo THEN s2 ELSE url END", call(Op.CASE, STRING,
                        call(Op.GREATER_THAN, BOOLEAN, col("i"), lit(0)), col("s"),
                        col("bo"), col("s2"),
                        col("url"))));
    }

    static List<Case> strings() {
        return List.of(
                new Case("LOWER(s)", call(Op.LOWER, STRING, col("s"))),
                new Case("UPPER(s)", call(Op.UPPER, STRING, col("s"))),
                new Case("LOWER(url)", call(Op.LOWER, STRING, col("url"))),
                new Case("UPPER(r.s)", call(Op.UPPER, STRING, X.field("r", "s"))),
                new Case("CHAR_LENGTH(s)", call(Op.CHAR_LENGTH, INT, col("s"))),
                new Case("CONCAT(s, s2)", call(Op.CONCAT, STRING, col("s"), col("s2"))),
                new Case("s || url", call(Op.CONCAT, STRING, col("s"), col("url"))),
                new Case("s LIKE 'a%'", call(Op.LIKE, BOOLEAN, col("s"), lit("a%"))),
                new Case("s LIKE '%b'", call(Op.LIKE, BOOLEAN, col("s"), lit("%b"))),
                new Case("s LIKE '%\u00e9%'", call(Op.LIKE, BOOLEAN, col("s"), lit("%\u00e9%"))),
                new Case("url LIKE '%channel%'", call(Op.LIKE, BOOLEAN, col("url"), lit("%channel%"))),
                new Case("s LIKE 'apple'", call(Op.LIKE, BOOLEAN, col("s"), lit("apple"))),
                new Case("REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)",
                        call(Op.REGEXP_EXTRACT, STRING, col("url"), lit("(&|^)channel_id=([^&]*)"), lit(2))),
                // the key-value shape matched on the bytes (KeyValuePattern): each group, either alternative first
                new Case("REGEXP_EXTRACT(s, '(^|&)channel_id=([^&]*)', 0)",
                        call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("(^|&)channel_id=([^&]*)"), lit(0))),
                new Case("REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 1)",
                        call(Op.REGEXP_EXTRACT, STRING, col("url"), lit("(&|^)channel_id=([^&]*)"), lit(1))),
                new Case("REGEXP_EXTRACT(s, '(a|^)a([^a,%]*)', 2)",
                        call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("(a|^)a([^a,%]*)"), lit(2))),
                new Case("REGEXP_EXTRACT(s, '([a-z]+)([0-9]*)', 1)",
                        call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("([a-z]+)([0-9]*)"), lit(1))),
                new Case("REGEXP_EXTRACT(s, 'a(x)?', 1)",
                        call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("a(x)?"), lit(1))),
                new Case("REGEXP_EXTRACT(s, '(\u00e9.)', 1)",
                        call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("(\u00e9.)"), lit(1))),
                new Case("REGEXP_EXTRACT(s, '(a)', 3)", call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("(a)"), lit(3))),
                // patterns with a literal every match holds (RequiredLiteral), on ASCII and non-ASCII strings
                new Case("REGEXP_EXTRACT(s, 'apple,?(.)', 1)",
                        call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("apple,?(.)"), lit(1))),
                new Case("REGEXP_EXTRACT(s, 'a{1,2}&(.*)', 1)",
                        call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("a{1,2}&(.*)"), lit(1))),
                new Case("REGEXP_EXTRACT(s, 'a{1,2}(.)', 1)",
                        call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("a{1,2}(.)"), lit(1))),
                new Case("REGEXP_EXTRACT(url, 'channel_id=([0-9]+)&?', 1)",
                        call(Op.REGEXP_EXTRACT, STRING, col("url"), lit("channel_id=([0-9]+)&?"), lit(1))),
                new Case("REGEXP_EXTRACT(s, 'A(.)B', 1)", call(Op.REGEXP_EXTRACT, STRING, col("s"), lit("A(.)B"), lit(1))),
                new Case("SPLIT_INDEX(url, '/', 3)", call(Op.SPLIT_INDEX, STRING, col("url"), lit("/"), lit(3))),
                new Case("SPLIT_INDEX(url, '/', 0)", call(Op.SPLIT_INDEX, STRING, col("url"), lit("/"), lit(0))),
                new Case("SPLIT_INDEX(s, 'a', 1)", call(Op.SPLIT_INDEX, STRING, col("s"), lit("a"), lit(1))),
                new Case("SPLIT_INDEX(s, ',', 2)", call(Op.SPLIT_INDEX, STRING, col("s"), lit(","), lit(2))),
                new Case("SPLIT_INDEX(s, '\u00e9a', 0)", call(Op.SPLIT_INDEX, STRING, col("s"), lit("\u00e9a"), lit(0))),
                new Case("SPLIT_INDEX(s, '/', -1)", call(Op.SPLIT_INDEX, STRING, col("s"), lit("/"), lit(-1))),
                new Case("SUBSTRING(s, 2)", call(Op.SUBSTRING, STRING, col("s"), lit(2))),
                new Case("SUBSTRING(s, 2, 3)", call(Op.SUBSTRING, STRING, col("s"), lit(2), lit(3))),
                new Case("SUBSTRING(s, -2, 5)", call(Op.SUBSTRING, STRING, col("s"), lit(-2), lit(5))),
                new Case("SUBSTRING(s, 0, 2)", call(Op.SUBSTRING, STRING, col("s"), lit(0), lit(2))),
                new Case("SUBSTRING(url, MOD(i, 40), MOD(j, 30))", call(Op.SUBSTRING, STRING, col("url"),
                        call(Op.MOD, INT, col("i"), lit(40)), call(Op.MOD, INT, col("j"), lit(30)))),
                new Case("SUBSTRING(s, i, j)", call(Op.SUBSTRING, STRING, col("s"), col("i"), col("j"))));
    }

    /** CASTs from strings that parse, over {@link StringCastValues#INPUT}. */
    static List<Case> stringCasts() {
        Exprs x = new Exprs(StringCastValues.INPUT);
        return List.of(
                new Case("CAST(i8 AS TINYINT)", call(Op.CAST, TINYINT, x.col("i8"))),
                new Case("CAST(i8 AS SMALLINT)", call(Op.CAST, SMALLINT, x.col("i8"))),
                new Case("CAST(i32 AS INT)", call(Op.CAST, INT, x.col("i32"))),
                new Case("CAST(i32 AS BIGINT)", call(Op.CAST, BIGINT, x.col("i32"))),
                new Case("CAST(i64 AS BIGINT)", call(Op.CAST, BIGINT, x.col("i64"))),
                new Case("CAST(i64 AS DOUBLE)", call(Op.CAST, DOUBLE, x.col("i64"))),
                new Case("CAST(dbl AS DOUBLE)", call(Op.CAST, DOUBLE, x.col("dbl"))),
                new Case("CAST(dm AS DOUBLE)", call(Op.CAST, DOUBLE, x.col("dm"))),
                new Case("CAST(dm AS DECIMAL(10, 2))", call(Op.CAST, decimal(10, 2), x.col("dm"))),
                new Case("CAST(dm AS DECIMAL(38, 10))", call(Op.CAST, decimal(38, 10), x.col("dm"))),
                new Case("CAST(i32 AS DECIMAL(12, 1))", call(Op.CAST, decimal(12, 1), x.col("i32"))),
                new Case("CAST(flag AS BOOLEAN)", call(Op.CAST, BOOLEAN, x.col("flag"))),
                new Case("CAST(ts AS TIMESTAMP(3))", call(Op.CAST, new TimestampType(3), x.col("ts"))),
                new Case("CAST(ts AS TIMESTAMP(6))", call(Op.CAST, new TimestampType(6), x.col("ts"))),
                new Case("CAST(ts AS TIMESTAMP(0))", call(Op.CAST, new TimestampType(0), x.col("ts"))));
    }

    static List<Case> temporalAndCasts() {
        return List.of(
                new Case("HOUR(ts)", call(Op.EXTRACT, BIGINT, unit("HOUR"), col("ts"))),
                new Case("EXTRACT(MINUTE FROM ts)", call(Op.EXTRACT, BIGINT, unit("MINUTE"), col("ts"))),
                new Case("EXTRACT(SECOND FROM ts6)", call(Op.EXTRACT, BIGINT, unit("SECOND"), col("ts6"))),
                new Case("HOUR(ts6)", call(Op.HOUR, BIGINT, col("ts6"))),
                new Case("ts - INTERVAL '4' SECOND", call(Op.MINUS, new TimestampType(3), col("ts"), interval(4000))),
                new Case("ts6 + INTERVAL '1.5' SECOND", call(Op.PLUS, new TimestampType(6), col("ts6"), interval(1500))),
                new Case("ts - INTERVAL '2' DAY", call(Op.MINUS, new TimestampType(3), col("ts"), interval(172_800_000))),
                new Case("CAST(i AS BIGINT)", call(Op.CAST, BIGINT, col("i"))),
                new Case("CAST(b AS INT)", call(Op.CAST, INT, col("b"))),
                new Case("CAST(b AS SMALLINT)", call(Op.CAST, SMALLINT, col("b"))),
                new Case("CAST(i AS TINYINT)", call(Op.CAST, TINYINT, col("i"))),
                new Case("CAST(i AS DOUBLE)", call(Op.CAST, DOUBLE, col("i"))),
                new Case("CAST(b AS DOUBLE)", call(Op.CAST, DOUBLE, col("b"))),
                new Case("CAST(d AS BIGINT)", call(Op.CAST, BIGINT, col("d"))),
                new Case("CAST(d AS INT)", call(Op.CAST, INT, col("d"))),
                new Case("CAST(d AS TINYINT)", call(Op.CAST, TINYINT, col("d"))),
                new Case("CAST(i AS DECIMAL(12, 2))", call(Op.CAST, decimal(12, 2), col("i"))),
                new Case("CAST(b AS DECIMAL(10, 0))", call(Op.CAST, decimal(10, 0), col("b"))),
                new Case("CAST(m AS DECIMAL(20, 4))", call(Op.CAST, decimal(20, 4), col("m"))),
                new Case("CAST(m18 AS DECIMAL(10, 4))", call(Op.CAST, decimal(10, 4), col("m18"))),
                new Case("CAST(b AS STRING)", call(Op.CAST, STRING, col("b"))),
                new Case("CAST(ts AS TIMESTAMP(6))", call(Op.CAST, new TimestampType(6), col("ts"))),
                new Case("CAST(ts AS STRING)", call(Op.CAST, STRING, col("ts"))),
                new Case("CAST(ts6 AS STRING)", call(Op.CAST, STRING, col("ts6"))),
                new Case("DATE_FORMAT(ts, 'yyyy-MM-dd')", call(Op.DATE_FORMAT, STRING, col("ts"), lit("yyyy-MM-dd"))),
                new Case("DATE_FORMAT(ts, 'HH:mm')", call(Op.DATE_FORMAT, STRING, col("ts"), lit("HH:mm"))),
                new Case("DATE_FORMAT(ts6, 'uuuu-MM-dd HH:mm:ss.SSSSSS')",
                        call(Op.DATE_FORMAT, STRING, col("ts6"), lit("uuuu-MM-dd HH:mm:ss.SSSSSS"))),
                new Case("DATE_FORMAT(ts, 'EEE d MMM yyyy')",
                        call(Op.DATE_FORMAT, STRING, col("ts"), lit("EEE d MMM yyyy"))));
    }

    /**
     * DATE_FORMAT patterns: numeric fields and plain literals (written from the timestamp's fields, no objects),
     * and patterns with text, quotes or two-digit years (Java's formatter per row).
     */
    static List<Case> dateFormats() {
        return List.of(
                dateFormat("ts", "yyyy-MM-dd"),
                dateFormat("ts", "HH:mm"),
                dateFormat("ts", "yyyy/M/d H:m:s"),
                dateFormat("ts", "dd.MM.uuuu, HH:mm:ss.SSS"),
                dateFormat("ts6", "uuuuMMddHHmmssSSSSSS"),
                dateFormat("ts6", "S|SS|SSSSSSSSS"),
                dateFormat("ts", "yyyy-MM-dd'T'HH"),
                dateFormat("ts", "yy-MMM-d"));
    }

    private static Case dateFormat(String column, String pattern) {
        return new Case("DATE_FORMAT(" + column + ", '" + pattern.replace("'", "''") + "')",
                call(Op.DATE_FORMAT, STRING, col(column), lit(pattern)));
    }
}
