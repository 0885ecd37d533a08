package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.utils.RexLiteralUtil;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Translates the Calcite expressions of one Calc program into the calc's {@link Expr}s, typed as the
 * planner typed them (Flink's {@link FlinkTypeFactory#toLogicalType}). Whatever has no {@link Op}, or a shape
 * the mapping does not cover (e.g. LIKE with an ESCAPE), is {@link NotTranslatable}: the Calc stays Flink's.
 * Whether the calc evaluates a translated expression exactly is not decided here ({@code CalcSupport}).
 */
final class RexToExpr {
    /** Operators known by kind. */
    private static final Map<SqlKind, Op> BY_KIND = Map.ofEntries(
            Map.entry(SqlKind.PLUS, Op.PLUS), Map.entry(SqlKind.MINUS, Op.MINUS),
            Map.entry(SqlKind.TIMES, Op.TIMES), Map.entry(SqlKind.DIVIDE, Op.DIVIDE),
            Map.entry(SqlKind.MOD, Op.MOD), Map.entry(SqlKind.MINUS_PREFIX, Op.UNARY_MINUS),
            Map.entry(SqlKind.EQUALS, Op.EQUALS), Map.entry(SqlKind.NOT_EQUALS, Op.NOT_EQUALS),
            Map.entry(SqlKind.LESS_THAN, Op.LESS_THAN), Map.entry(SqlKind.LESS_THAN_OR_EQUAL, Op.LESS_THAN_OR_EQUAL),
            Map.entry(SqlKind.GREATER_THAN, Op.GREATER_THAN),
            Map.entry(SqlKind.GREATER_THAN_OR_EQUAL, Op.GREATER_THAN_OR_EQUAL),
            Map.entry(SqlKind.AND, Op.AND), Map.entry(SqlKind.OR, Op.OR), Map.entry(SqlKind.NOT, Op.NOT),
            Map.entry(SqlKind.IS_NULL, Op.IS_NULL), Map.entry(SqlKind.IS_NOT_NULL, Op.IS_NOT_NULL),
            Map.entry(SqlKind.IS_TRUE, Op.IS_TRUE), Map.entry(SqlKind.IS_NOT_TRUE, Op.IS_NOT_TRUE),
            Map.entry(SqlKind.IS_FALSE, Op.IS_FALSE), Map.entry(SqlKind.IS_NOT_FALSE, Op.IS_NOT_FALSE),
            Map.entry(SqlKind.CASE, Op.CASE), Map.entry(SqlKind.CAST, Op.CAST), Map.entry(SqlKind.LIKE, Op.LIKE),
            Map.entry(SqlKind.EXTRACT, Op.EXTRACT), Map.entry(SqlKind.REINTERPRET, Op.REINTERPRET));

    /**
     * Functions known by name (Calcite's and Flink's built-ins; {@code ||} is CONCAT; {@code HASH_CODE} is Flink's
     * internal function of the split distinct aggregate's bucket).
     */
    private static final Map<String, Op> BY_NAME = Map.ofEntries(
            Map.entry("LOWER", Op.LOWER), Map.entry("UPPER", Op.UPPER), Map.entry("CONCAT", Op.CONCAT),
            Map.entry("||", Op.CONCAT), Map.entry("SUBSTRING", Op.SUBSTRING), Map.entry("CHAR_LENGTH", Op.CHAR_LENGTH),
            Map.entry("REGEXP_EXTRACT", Op.REGEXP_EXTRACT), Map.entry("SPLIT_INDEX", Op.SPLIT_INDEX),
            Map.entry("HOUR", Op.HOUR), Map.entry("DATE_FORMAT", Op.DATE_FORMAT),
            Map.entry("HASH_CODE", Op.HASH_CODE));

    private final RexProgram program;
    private final RexBuilder rexBuilder;
    /** {@code table.exec.legacy-cast-behaviour} enabled: a CAST that fails gives null, as TRY_CAST. */
    private final boolean legacyCast;
    /** Which calls of user-defined functions run in the calc, with Flink's generated code. */
    private final FlinkCodeCalls flinkCode;

    /** @param program the Calc program whose local references are translated, or null for a standalone expression */
    RexToExpr(RexProgram program, RexBuilder rexBuilder, boolean legacyCast, FlinkCodeCalls flinkCode) {
        this.program = program;
        this.rexBuilder = rexBuilder;
        this.legacyCast = legacyCast;
        this.flinkCode = flinkCode;
    }

    /** The expression behind {@code ref}, a projection or the condition of the program. */
    Expr translate(RexLocalRef ref) throws NotTranslatable {
        return translate(program.expandLocalRef(ref));
    }

    /** A standalone expression over an input row (no program: it holds no local references). */
    static Expr expression(RexNode node, RexBuilder rexBuilder, boolean legacyCast) throws NotTranslatable {
        return new RexToExpr(null, rexBuilder, legacyCast, FlinkCodeCalls.none()).translate(node);
    }

    private Expr translate(RexNode node) throws NotTranslatable {
        LogicalType type = FlinkTypeFactory.toLogicalType(node.getType());
        if (node instanceof RexInputRef input) {
            return new Expr.Column(input.getIndex(), type);
        }
        if (node instanceof RexFieldAccess access) {
            return new Expr.Field(translate(access.getReferenceExpr()), access.getField().getIndex(), type);
        }
        if (node instanceof RexLiteral literal) {
            return literal(literal, type);
        }
        if (node instanceof RexCall call) {
            return call(call, type);
        }
        throw new NotTranslatable(node.getKind() + " expression " + node);
    }

    private Expr literal(RexLiteral literal, LogicalType type) throws NotTranslatable {
        if (literal.getValue() instanceof TimeUnitRange unit) {
            return new Expr.Literal(StringData.fromString(unit.name()), new VarCharType(false, unit.name().length()));
        }
        try {
            return new Expr.Literal(RexLiteralUtil.toFlinkInternalValue(literal).f0, type);
        } catch (RuntimeException e) {
            throw new NotTranslatable("literal " + literal + " of type " + type + ": " + e.getMessage());
        }
    }

    private Expr call(RexCall call, LogicalType type) throws NotTranslatable {
        if (call.getKind() == SqlKind.SEARCH) {
            // IN lists and ranges arrive as SEARCH over a Sarg: the ORs and comparisons they stand for.
            FlinkCodeCalls.checkSearched(call);
            return translate(RexUtil.expandSearch(rexBuilder, null, call));
        }
        if (call.getKind() == SqlKind.CAST && call.getType().isNullable() && SqlTypeUtil.equalSansNullability(
                rexBuilder.getTypeFactory(), call.getType(), call.getOperands().get(0).getType())) {
            // a CAST that only lets a NOT NULL value be null (Flink's planner adds one before a nullable sink column,
            // e.g. a TIMESTAMP_LTZ(3) `timestamp` metadata column) changes no value: the operand itself, whatever
            // its type
            return translate(call.getOperands().get(0));
        }
        if (FlinkCodeCalls.isUserDefined(call)) {
            // before the names: a temporary system function may shadow a built-in's name (LOWER, CONCAT ...)
            return flinkCode.translate(call, this::translate);
        }
        Op op = BY_KIND.get(call.getKind());
        if (op == null) {
            op = BY_NAME.get(functionName(call.getOperator().getName()));
        }
        if (op == null) {
            throw new NotTranslatable("operator " + call.getOperator().getName() + " (" + call.getKind()
                    + ") has no columnar counterpart");
        }
        if (call.getKind() == SqlKind.CAST && legacyCast
                && SqlTypeUtil.inCharFamily(call.getOperands().get(0).getType())) {
            throw new NotTranslatable("CAST from a string with table.exec.legacy-cast-behaviour enabled (a value that"
                    + " does not parse becomes null)");
        }
        if (call.getKind() == SqlKind.LIKE && call.getOperands().size() != 2) {
            throw new NotTranslatable("LIKE with ESCAPE");
        }
        List<Expr> operands = new ArrayList<>(call.getOperands().size());
        for (RexNode operand : call.getOperands()) {
            operands.add(translate(operand));
        }
        return new Expr.Call(op, operands, type);
    }

    /** Flink names some built-ins {@code $NAME$1}; the name is what is between the dollars. */
    private static String functionName(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (upper.startsWith("$")) {
            int end = upper.indexOf('$', 1);
            upper = upper.substring(1, end < 0 ? upper.length() : end);
        }
        return upper;
    }
}
