package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * What a calc's condition fixes for every row that passes it, used to drop the CASE branches those rows never take.
 * The projections are evaluated only for the rows that passed, so where the condition has a conjunct {@code x =
 * literal} (x an input column or nested field, the literal a non-null integer of x's type root), every such row
 * has that value in x, and a CASE condition {@code x = other literal} is TRUE or FALSE on all of them, never NULL.
 * Flink's planner keeps the whole CASE (its generated code tests each condition per row); the result here is the
 * same value per row, without the tests. Nexmark's {@code dateTime} column, {@code CASE WHEN event_type = 0 THEN
 * person.dateTime WHEN event_type = 1 THEN auction.dateTime ELSE bid.dateTime END} read through the {@code bid} view
 * ({@code WHERE event_type = 2}), becomes {@code bid.dateTime}, which the calc then shares with no copy.
 *
 * <p>Only integer and boolean values are compared: their Java {@code equals} is SQL equality within one type root.
 */
final class ConditionFacts {
    private static final Set<LogicalTypeRoot> EXACT_EQUALITY = EnumSet.of(LogicalTypeRoot.BOOLEAN,
            LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT);

    /** Input column or nested field to the value the condition fixes it to. */
    private final Map<Expr, Object> fixed;

    private ConditionFacts(Map<Expr, Object> fixed) {
        this.fixed = fixed;
    }

    /** The facts of {@code condition} (null: no condition, no facts). */
    static ConditionFacts of(Expr condition) {
        Map<Expr, Object> fixed = new HashMap<>();
        if (condition != null) {
            collect(condition, fixed);
        }
        return new ConditionFacts(fixed);
    }

    private static void collect(Expr condition, Map<Expr, Object> fixed) {
        if (condition instanceof Expr.Call call && call.op() == Op.AND) {
            call.operands().forEach(operand -> collect(operand, fixed));
            return;
        }
        Equality equality = Equality.of(condition);
        // Two different values for one input (x = 1 AND x = 2) pass no row: either fact is true of every row passed.
        if (equality != null) {
            fixed.putIfAbsent(equality.input(), equality.value());
        }
    }

    /** {@code e} with every CASE branch no passed row takes removed. */
    Expr simplify(Expr e) {
        if (fixed.isEmpty() || !(e instanceof Expr.Call call)) {
            return e;
        }
        List<Expr> operands = new ArrayList<>(call.operands().size());
        for (Expr operand : call.operands()) {
            operands.add(simplify(operand));
        }
        return call.op() == Op.CASE ? simplifyCase(call, operands) : new Expr.Call(call.op(), operands, call.type());
    }

    private Expr simplifyCase(Expr.Call call, List<Expr> operands) {
        List<Expr> kept = new ArrayList<>();
        Expr otherwise = operands.get(operands.size() - 1);
        for (int w = 0; w + 1 < operands.size(); w += 2) {
            Boolean decided = decide(operands.get(w));
            if (decided == null) {
                kept.add(operands.get(w));
                kept.add(operands.get(w + 1));
            } else if (decided) {
                // Every passed row that no earlier (kept) condition took takes this branch: it is the ELSE.
                otherwise = operands.get(w + 1);
                break;
            }
        }
        if (kept.isEmpty() && sameType(otherwise.type(), call.type())) {
            return otherwise;
        }
        kept.add(otherwise);
        return new Expr.Call(Op.CASE, kept, call.type());
    }

    /** The branch may stand for the CASE: the same type, or a NOT NULL branch of a nullable CASE. */
    private static boolean sameType(LogicalType branch, LogicalType whole) {
        return whole.isNullable() ? branch.copy(true).equals(whole) : branch.equals(whole);
    }

    /** TRUE or FALSE if {@code when} is decided for every passed row; null if not. */
    private Boolean decide(Expr when) {
        Equality equality = Equality.of(when);
        if (equality == null || !fixed.containsKey(equality.input())) {
            return null;
        }
        return fixed.get(equality.input()).equals(equality.value());
    }

    /** {@code input = literal}, either way round, with a non-null literal of the input's integer or boolean type root. */
    private record Equality(Expr input, Object value) {
        static Equality of(Expr e) {
            if (!(e instanceof Expr.Call call) || call.op() != Op.EQUALS || call.operands().size() != 2) {
                return null;
            }
            Expr left = call.operands().get(0);
            Expr right = call.operands().get(1);
            Equality equality = of(left, right);
            return equality != null ? equality : of(right, left);
        }

        private static Equality of(Expr input, Expr literal) {
            if (!(input instanceof Expr.Column || input instanceof Expr.Field)
                    || !(literal instanceof Expr.Literal l) || l.value() == null) {
                return null;
            }
            LogicalTypeRoot root = input.type().getTypeRoot();
            if (!EXACT_EQUALITY.contains(root) || l.type().getTypeRoot() != root) {
                return null;
            }
            return new Equality(input, l.value());
        }
    }
}
