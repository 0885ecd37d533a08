package io.columnarkafka.flink.calc;

import static io.columnarkafka.flink.calc.CalcCases.col;
import static io.columnarkafka.flink.calc.Exprs.BIGINT;
import static io.columnarkafka.flink.calc.Exprs.BOOLEAN;
import static io.columnarkafka.flink.calc.Exprs.INT;
import static io.columnarkafka.flink.calc.Exprs.STRING;
import static io.columnarkafka.flink.calc.Exprs.call;
import static io.columnarkafka.flink.calc.Exprs.dec;
import static io.columnarkafka.flink.calc.Exprs.decimal;
import static io.columnarkafka.flink.calc.Exprs.lit;
import static io.columnarkafka.flink.calc.Exprs.unit;

import java.util.List;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.VarCharType;

/** Programs with a condition, shaped like the Nexmark stateless queries, for the filter parity test. */
final class CalcFilters {
    /** Flink SQL over view {@code t}, and the same as a {@link CalcProgram}. */
    record Filter(String sql, CalcProgram program) {}

    private CalcFilters() {}

    static List<Filter> all() {
        return List.of(q2(), q14(), q21(), lazyDivision());
    }

    /** q2: SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0 (here 3, so rows pass). */
    private static Filter q2() {
        return new Filter("SELECT id, b FROM t WHERE MOD(b, 3) = 0", program(
                call(Op.EQUALS, BOOLEAN, call(Op.MOD, INT, col("b"), lit(3)), lit(0)),
                List.of(col("id"), col("b"))));
    }

    /** q14: a decimal range condition, the decimal price and the time-of-day CASE. */
    private static Filter q14() {
        Expr price = call(Op.TIMES, decimal(24, 3), dec("0.908"), col("b"));
        Expr hour = call(Op.EXTRACT, BIGINT, unit("HOUR"), col("ts"));
        LogicalType label = new VarCharType(false, 9);
        Expr timeType = call(Op.CASE, label,
                call(Op.AND, BOOLEAN, call(Op.GREATER_THAN_OR_EQUAL, BOOLEAN, hour, lit(8)),
                        call(Op.LESS_THAN_OR_EQUAL, BOOLEAN, hour, lit(18))),
                Exprs.lit("dayTime", label),
                call(Op.OR, BOOLEAN, call(Op.LESS_THAN_OR_EQUAL, BOOLEAN, hour, lit(6)),
                        call(Op.GREATER_THAN_OR_EQUAL, BOOLEAN, hour, lit(20))),
                Exprs.lit("nightTime", label),
                Exprs.lit("otherTime", label));
        return new Filter("SELECT id, 0.908 * b, CASE WHEN HOUR(ts) >= 8 AND HOUR(ts) <= 18 THEN 'dayTime'"
                + " WHEN HOUR(ts) <= 6 OR HOUR(ts) >= 20 THEN 'nightTime' ELSE 'otherTime' END, ts FROM t"
                + " WHERE 0.908 * b > 1000000 AND 0.908 * b < 50000000",
                program(call(Op.AND, BOOLEAN,
                                call(Op.GREATER_THAN, BOOLEAN, price, lit(1000000)),
                                call(Op.LESS_THAN, BOOLEAN, price, lit(50000000))),
                        List.of(col("id"), price, timeType, col("ts"))));
    }

    /** q21: REGEXP_EXTRACT and LOWER in the condition and a CASE over them. */
    private static Filter q21() {
        Expr channelId = call(Op.REGEXP_EXTRACT, STRING, col("url"), lit("(&|^)channel_id=([^&]*)"), lit(2));
        Expr lower = call(Op.LOWER, STRING, col("s"));
        LogicalType digit = new VarCharType(false, 1);
        Expr channel = call(Op.CASE, STRING,
                call(Op.EQUALS, BOOLEAN, lower, lit("apple")), Exprs.lit("0", STRING),
                call(Op.EQUALS, BOOLEAN, lower, lit("google")), Exprs.lit("1", STRING),
                channelId);
        return new Filter("SELECT id, s, CASE WHEN LOWER(s) = 'apple' THEN CAST('0' AS STRING)"
                + " WHEN LOWER(s) = 'google' THEN CAST('1' AS STRING)"
                + " ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) END FROM t"
                + " WHERE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) IS NOT NULL"
                + " OR LOWER(s) = 'apple' OR LOWER(s) = 'google'",
                program(call(Op.OR, BOOLEAN,
                                call(Op.IS_NOT_NULL, Exprs.BOOLEAN_NOT_NULL, channelId),
                                call(Op.EQUALS, BOOLEAN, lower, lit("apple")),
                                call(Op.EQUALS, BOOLEAN, lower, lit("google"))),
                        List.of(col("id"), col("s"), channel)));
    }

    /** A division only for rows the condition keeps, and one guarded by an earlier AND operand. */
    private static Filter lazyDivision() {
        return new Filter("SELECT id, i / j FROM t WHERE j <> 0 AND i / j > 1", program(
                call(Op.AND, BOOLEAN,
                        call(Op.NOT_EQUALS, BOOLEAN, col("j"), lit(0)),
                        call(Op.GREATER_THAN, BOOLEAN, call(Op.DIVIDE, INT, col("i"), col("j")), lit(1))),
                List.of(col("id"), call(Op.DIVIDE, INT, col("i"), col("j")))));
    }

    /**
     * Programs that read one sub-expression several times (the calc computes it once per row, {@code HeldRows}),
     * each reader for other rows: the condition for the input rows an earlier operand leaves undecided, a
     * projection for the rows that passed, a CASE branch for the rows it takes. Over rows where {@code j} is zero
     * (a division by it fails the job in Flink) in rows the condition or a CASE keeps away from the division, and
     * where {@code LOWER(s)} is computed for some rows in the condition and for the rest in the projections.
     */
    static List<Filter> shared() {
        return List.of(divisionGuardedByConditionAndCase(), divisionGuardedByCases(), stringsComputedInTwoParts(),
                sumWithNulls(), hashOfProjectedStrings(false), hashOfProjectedStrings(true));
    }

    /** i / j in the condition behind {@code j <> 0}, and in a projection's CASE behind {@code j = 0}. */
    private static Filter divisionGuardedByConditionAndCase() {
        Expr quotient = call(Op.DIVIDE, INT, col("i"), col("j"));
        return new Filter("SELECT id, CASE WHEN j = 0 THEN -1 ELSE i / j END, CASE WHEN j = 0 THEN 0 ELSE -(i / j)"
                + " END FROM t WHERE (j <> 0 AND i / j > 0) OR MOD(id, 7) = 0",
                program(call(Op.OR, BOOLEAN,
                                call(Op.AND, BOOLEAN, call(Op.NOT_EQUALS, BOOLEAN, col("j"), lit(0)),
                                        call(Op.GREATER_THAN, BOOLEAN, quotient, lit(0))),
                                call(Op.EQUALS, BOOLEAN, call(Op.MOD, Exprs.notNull(INT), col("id"), lit(7)), lit(0))),
                        List.of(col("id"),
                                call(Op.CASE, INT, call(Op.EQUALS, BOOLEAN, col("j"), lit(0)), lit(-1), quotient),
                                call(Op.CASE, INT, call(Op.EQUALS, BOOLEAN, col("j"), lit(0)), lit(0),
                                        call(Op.UNARY_MINUS, INT, quotient)))));
    }

    /** No condition: i / j and MOD(i, j) each in several CASEs, every one behind its own test of j. */
    private static Filter divisionGuardedByCases() {
        Expr quotient = call(Op.DIVIDE, INT, col("i"), col("j"));
        Expr remainder = call(Op.MOD, INT, col("i"), col("j"));
        return new Filter("SELECT id, CASE WHEN j <> 0 THEN i / j END,"
                + " CASE WHEN j > 0 THEN MOD(i, j) + i / j ELSE 0 END,"
                + " CASE WHEN j < 0 THEN MOD(i, j) WHEN j > 0 THEN i / j ELSE 7 END FROM t",
                program(null, List.of(col("id"),
                        call(Op.CASE, INT, call(Op.NOT_EQUALS, BOOLEAN, col("j"), lit(0)), quotient,
                                new Expr.Literal(null, INT)),
                        call(Op.CASE, INT, call(Op.GREATER_THAN, BOOLEAN, col("j"), lit(0)),
                                call(Op.PLUS, INT, remainder, quotient), lit(0)),
                        call(Op.CASE, INT, call(Op.LESS_THAN, BOOLEAN, col("j"), lit(0)), remainder,
                                call(Op.GREATER_THAN, BOOLEAN, col("j"), lit(0)), quotient, lit(7)))));
    }

    /**
     * LOWER(s) in the condition for the rows where {@code bo} is not TRUE, then for every row that passed in the
     * projections: the rows where {@code bo} is TRUE are computed second, beside the strings of the first.
     */
    private static Filter stringsComputedInTwoParts() {
        Expr lower = call(Op.LOWER, STRING, col("s"));
        Expr lower2 = call(Op.LOWER, STRING, col("s2"));
        return new Filter("SELECT id, LOWER(s), CASE WHEN LOWER(s) = 'apple' THEN CAST('a' AS STRING) ELSE LOWER(s2)"
                + " END, LOWER(s) || LOWER(s2) FROM t WHERE bo OR LOWER(s) LIKE 'a%'",
                program(call(Op.OR, BOOLEAN, col("bo"), call(Op.LIKE, BOOLEAN, lower, lit("a%"))),
                        List.of(col("id"), lower,
                                call(Op.CASE, STRING, call(Op.EQUALS, BOOLEAN, lower, lit("apple")),
                                        Exprs.lit("a", STRING), lower2),
                                call(Op.CONCAT, STRING, lower, lower2))));
    }

    /** i + j, null where either is, tested for null and compared in the condition, projected as is and tested. */
    private static Filter sumWithNulls() {
        Expr sum = call(Op.PLUS, INT, col("i"), col("j"));
        Expr isNull = call(Op.IS_NULL, Exprs.BOOLEAN_NOT_NULL, sum);
        return new Filter("SELECT id, i + j, (i + j) IS NULL FROM t WHERE (i + j) IS NULL OR i + j > 0",
                program(call(Op.OR, BOOLEAN, isNull, call(Op.GREATER_THAN, BOOLEAN, sum, lit(0))),
                        List.of(col("id"), sum, isNull)));
    }

    /**
     * Nexmark q16's bucket Calc with the split distinct aggregate: the minute string {@code DATE_FORMAT(ts, 'HH:mm')}
     * projected and hashed into its bucket, one shared node read by both (the shape that failed end to end when the
     * string's HASH_CODE was first admitted); with a lower-cased string (non-ASCII bytes among its values) and a
     * nested string the same way, behind a condition, the hash before or after the string it hashes.
     */
    private static Filter hashOfProjectedStrings(boolean hashFirst) {
        Expr minute = call(Op.DATE_FORMAT, STRING, col("ts"), lit("HH:mm"));
        Expr lower = call(Op.LOWER, STRING, col("s"));
        Expr nested = new Exprs(CalcCases.INPUT).field("r", "s");
        List<String> sql = List.of("DATE_FORMAT(ts, 'HH:mm')", "LOWER(s)", "r.s");
        List<Expr> strings = List.of(minute, lower, nested);
        List<String> selects = new java.util.ArrayList<>(List.of("id"));
        List<Expr> projections = new java.util.ArrayList<>(List.of(col("id")));
        for (int k = 0; k < strings.size(); k++) {
            Expr bucket = call(Op.MOD, INT, call(Op.HASH_CODE, INT, strings.get(k)), lit(1024));
            String bucketSql = "MOD(HASH_CODE(" + sql.get(k) + "), 1024)";
            selects.addAll(hashFirst ? List.of(bucketSql, sql.get(k)) : List.of(sql.get(k), bucketSql));
            projections.addAll(hashFirst ? List.of(bucket, strings.get(k)) : List.of(strings.get(k), bucket));
        }
        selects.add("HASH_CODE(LOWER(s))");
        projections.add(call(Op.HASH_CODE, INT, lower));
        return new Filter("SELECT " + String.join(", ", selects) + " FROM t WHERE MOD(id, 5) <> 0",
                program(call(Op.NOT_EQUALS, BOOLEAN, call(Op.MOD, Exprs.notNull(INT), col("id"), lit(5)), lit(0)),
                        projections));
    }

    private static CalcProgram program(Expr condition, List<Expr> projections) {
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < projections.size(); i++) {
            names.add("EXPR$" + i);
        }
        return new CalcProgram(CalcCases.INPUT, projections, names, condition);
    }
}
